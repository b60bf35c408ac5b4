"""Registration over real HTTP through uvicorn (target: median 5 ms on PostgreSQL).

One uvicorn process serves the app as in production (`tourney.asgi`, DEBUG off, the connection
pool, Redis when REDIS_URL is set); keep-alive HTTP clients register 1,000 players one after
another with `POST /api/v1/tournaments/{id}/entries` and a bearer token, each request timed on
its own from sending to the whole answer read. Every other one is sent by the standard
library's `http.client` instead of httpx (same run, same load) and reported apart: the server's
answer without httpx's own 1.2-1.4 ms of client CPU. Unlike bench_registration.py
(django.test.Client in-process) this includes the socket, uvicorn, the ASGI handler and its
thread hand-off. Then 200 late registrations after the draw and start, each seated at once.

Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/pytest -m benchmark tests/benchmarks/bench_registration_http.py -s
"""

import http.client
import json
import os
import time
from urllib.parse import urlsplit

import httpx
import pytest
from django.db import connection

from clocks.clock.usecases import tournament_start
from tables.rooms.usecases import room_create
from tables.seating.usecases import seats_draw
from tests.benchmarks.report import report
from tests.factories import make_players
from tests.processes import uvicorn_server
from tourney.models import AuditEntry, Entry, LedgerEntry, TournamentEvent
from tourney.staff.usecases import api_token_create
from tourney.tournaments.usecases import tournament_create

PLAYERS = 1_000
LATE_PLAYERS = 200
WARM_UP = 20  # first requests (new pooled connections, statements not yet prepared): not timed
TABLES = 150
TARGET_MS = 5.0


class PlainClient:
    """The standard library's keep-alive HTTP/1.1 client: what the server answers in, with
    about 0.5 ms of client CPU per request where httpx spends 1.2-1.4 ms (docs/benchmarks.md)."""

    def __init__(self, base: str, headers: dict[str, str]) -> None:
        parts = urlsplit(base)
        self.connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
        self.headers = {**headers, "Content-Type": "application/json"}

    def post(self, path: str, json_body: dict) -> tuple[int, bytes]:
        self.connection.request("POST", path, body=json.dumps(json_body), headers=self.headers)
        response = self.connection.getresponse()
        return response.status, response.read()

    def close(self) -> None:
        self.connection.close()


def register(
    client: httpx.Client,
    tournament_id: int,
    player_ids: list[int],
    plain: PlainClient | None = None,
) -> tuple[list[float], list[float]]:
    """Each registration timed from sending to the whole answer read: by httpx, and with
    `plain` every other one by the standard library's client (same run, same load)."""
    samples: tuple[list[float], list[float]] = ([], [])
    path = f"/api/v1/tournaments/{tournament_id}/entries"
    for i, player_id in enumerate(player_ids):
        lean = plain is not None and i % 2 == 1
        start = time.perf_counter_ns()
        if lean:
            status, body = plain.post(path, {"player_id": player_id})
        else:
            response = client.post(path, json={"player_id": player_id})
            status, body = response.status_code, response.content
        samples[lean].append((time.perf_counter_ns() - start) / 1e6)
        assert status == 201, body  # correctness only, not timing
    return samples


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_registration_over_http(director, structure) -> None:
    room = room_create(
        actor=director,
        name="Bench room",
        tables=[{"number": n, "seats": 10} for n in range(1, TABLES + 1)],
    )
    tournament = tournament_create(
        actor=director,
        name="Bench deepstack",
        structure_id=structure.pk,
        starting_stack=40_000,
        buy_in=10_000,
        fee=2_000,
        room_id=room.pk,
    )
    ids = make_players(WARM_UP + PLAYERS + LATE_PLAYERS)
    token, _ = api_token_create(actor=director, user=director)
    headers = {"Authorization": f"Bearer {token}"}
    with (
        uvicorn_server(os.environ.get("REDIS_URL", "")) as base,
        httpx.Client(base_url=base, headers=headers, timeout=30) as client,
    ):
        plain = PlainClient(base, headers)
        register(client, tournament.pk, ids[:WARM_UP], plain)
        samples, lean = register(client, tournament.pk, ids[WARM_UP : WARM_UP + PLAYERS], plain)
        seats_draw(actor=director, tournament_id=tournament.pk)
        tournament_start(actor=director, tournament_id=tournament.pk)
        late, _ = register(client, tournament.pk, ids[WARM_UP + PLAYERS :])
        plain.close()

    vendor = connection.vendor
    report(f"registration_http_{vendor}", samples, TARGET_MS, players=PLAYERS, client="httpx")
    report(
        f"registration_http_stdlib_{vendor}", lean, TARGET_MS, players=PLAYERS, client="http.client"
    )
    report(f"late_registration_http_{vendor}", late, TARGET_MS, players=LATE_PLAYERS)
    registered = len(ids)
    entries = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    assert entries.count() == registered and not entries.filter(seat__isnull=True).exists()
    assert LedgerEntry.objects.filter(tournament=tournament).count() == 2 * registered
    audited = AuditEntry.objects.filter(tournament=tournament, action="entry.register")
    assert audited.count() == registered
    assert TournamentEvent.objects.filter(tournament=tournament, kind="entry").count() == registered
