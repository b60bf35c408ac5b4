"""A web process's PostgreSQL connections stay within its pool (issue 12, defect 3).

Under ASGI every request runs in a thread of its own; with connections kept per thread
(CONN_MAX_AGE) a uvicorn process left one idle connection behind per request thread (100 GETs
opened 103 connections; two processes reached 92 of 100 and writes failed with "too many
clients"). Here a real uvicorn process (tourney.asgi, as in production) serves reads and writes
from many clients at once while another connection samples pg_stat_activity for the process's
own connections (told apart by their application name): never more than the pool's size at
once, and never more than that many different server processes over the whole run.
"""

import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from django.db import connection

from tests.processes import ConnectionSampler, uvicorn_server
from tourney.staff.usecases import api_token_create

POOL_SIZE = 4
CLIENTS = 16
REQUESTS = 400


def drive(base: str, token: str, tournament_id: int) -> list[int]:
    """REQUESTS requests from CLIENTS clients at once: reads and desk writes; the statuses."""
    headers = {"Authorization": f"Bearer {token}"}
    calls: list[Callable[[httpx.Client, int], httpx.Response]] = [
        lambda c, n: c.get("/api/v1/health"),
        lambda c, n: c.get(f"/api/v1/tournaments/{tournament_id}"),
        lambda c, n: c.get(f"/api/v1/tournaments/{tournament_id}/clock"),
        lambda c, n: c.post("/api/v1/players", json={"name": f"Walk-in {n}"}),
    ]
    local = threading.local()

    def one(n: int) -> int:
        if not hasattr(local, "client"):
            local.client = httpx.Client(base_url=base, headers=headers, timeout=30)
        return calls[n % len(calls)](local.client, n).status_code

    with ThreadPoolExecutor(CLIENTS) as pool:
        return list(pool.map(one, range(REQUESTS)))


@pytest.mark.django_db(transaction=True)
def test_a_web_process_keeps_its_postgresql_connections_within_its_pool(director, tournament):
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: SQLite has no server connections")
    token, _ = api_token_create(actor=director, user=director)
    name = f"tourney-pool-test-{connection.settings_dict['NAME']}"[:63]

    with (
        uvicorn_server(TOURNEY_DB_POOL_SIZE=str(POOL_SIZE), PGAPPNAME=name) as base,
        ConnectionSampler(name) as sampler,
    ):
        statuses = drive(base, token, tournament.pk)

    assert sorted(set(statuses)) == [200, 201], statuses
    assert sampler.samples > 10
    assert sampler.most <= POOL_SIZE, f"{sampler.most} connections at once"
    assert len(sampler.pids) <= POOL_SIZE, f"{len(sampler.pids)} connections opened"


def _pg_connect():  # type: ignore[no-untyped-def]
    import psycopg

    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    params.pop("context", None)
    return psycopg.connect(**params, autocommit=True)


@pytest.mark.django_db
def test_the_pools_check_asks_the_server_only_when_the_connection_has_something_to_say(
    monkeypatch,
):
    """infra/db/pg/base.py: a lent connection costs no round trip while its socket is quiet; one
    the server closed (terminated, as by a restart) is caught and refused, so the pool lends
    another."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    import psycopg
    from psycopg_pool import ConnectionPool

    from infra.db.pg.base import check_lent_connection

    asked = []
    full_check = ConnectionPool.check_connection

    def check(conn) -> None:  # type: ignore[no-untyped-def]
        asked.append(conn)
        full_check(conn)

    monkeypatch.setattr(ConnectionPool, "check_connection", check)
    with _pg_connect() as conn:
        check_lent_connection(conn)
        assert asked == []  # quiet: no query sent
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [conn.info.backend_pid])
        deadline = time.monotonic() + 5
        with pytest.raises(psycopg.OperationalError):
            while time.monotonic() < deadline:  # the FATAL message reaches the socket
                check_lent_connection(conn)
        assert len(asked) == 1


@pytest.mark.django_db(transaction=True)
def test_a_web_process_answers_after_its_pooled_connections_were_terminated(director, tournament):
    """The server drops every idle connection of a web process's pool (as a restart would): the
    next requests get new connections, none fails."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only: SQLite has no server connections")
    token, _ = api_token_create(actor=director, user=director)
    name = f"tourney-pool-kill-{connection.settings_dict['NAME']}"[:63]
    headers = {"Authorization": f"Bearer {token}"}
    with (
        uvicorn_server(TOURNEY_DB_POOL_SIZE=str(POOL_SIZE), PGAPPNAME=name) as base,
        httpx.Client(base_url=base, headers=headers, timeout=30) as client,
    ):
        url = f"/api/v1/tournaments/{tournament.pk}"
        assert [client.get(url).status_code for _ in range(5)] == [200] * 5
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = %s",
                [name],
            )
            assert cursor.fetchall(), "the web process held no connection"
        time.sleep(0.2)  # the server ends those processes (not waiting for a result)
        assert [client.get(url).status_code for _ in range(10)] == [200] * 10
