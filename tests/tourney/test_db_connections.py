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
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
from django.db import connection

from tests.processes import ConnectionSampler, uvicorn_server
from tourney.services.tokens import api_token_create

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
