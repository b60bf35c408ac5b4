"""Load: 200 lobby screens and 20 writes a second for 60 s on one uvicorn process.

One uvicorn process serves the app as in production (`tourney.asgi`, DEBUG off, PostgreSQL
through the connection pool, Redis pub/sub). 200 screens (a separate process,
tests/sse_screens.py) hold the tournament's event stream open through a display link while a
desk and a director write at a steady 20 requests a second, open loop (a slow answer never
delays the next request): the hour before the start, registrations (entry, two ledger rows,
audit, event) and the director's message for the screens, every one an event on every screen.

Reported: each write's time from sending to the whole answer (median, p95, p99; target p99
50 ms), the time from an event's commit to the last screen reading it, and the most PostgreSQL
connections the server held at once (sampled from pg_stat_activity every 5 ms). It fails only
on wrong results: an error answer, a broken stream, a screen that missed or repeated an event,
or more connections than the pool's size.

Run: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test REDIS_URL=redis://127.0.0.1:6379/0 \
    .venv/bin/pytest -m benchmark tests/benchmarks/bench_http_load.py -s
"""

import json
import os
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from urllib.parse import urlsplit

import httpx
import pytest
from django.db import connection
from django.db.models import Max

from clocks.display.selectors import display_token
from tables.rooms.usecases import room_create
from tests.benchmarks.report import report
from tests.factories import make_players
from tests.processes import REPO, ConnectionSampler, redis_or_missing, uvicorn_server
from tourney.models import TournamentEvent
from tourney.staff.usecases import api_token_create
from tourney.tournaments.usecases import tournament_create

SCREENS = int(os.environ.get("BENCH_LOAD_SCREENS", "200"))
RATE = 20  # writes a second
SECONDS = int(os.environ.get("BENCH_LOAD_SECONDS", "60"))
WRITERS = 8  # client threads; enough that the rate never waits for an answer
POOL_SIZE = 10  # the default TOURNEY_DB_POOL_SIZE
TARGET_P99_MS = 50.0


def registering_tournament(director, structure, players: int):
    """A tournament taking registrations, with room for everyone; the players to register."""
    room = room_create(
        actor=director,
        name="Load room",
        tables=[{"number": n, "seats": 10} for n in range(1, players // 9 + 4)],
    )
    tournament = tournament_create(
        actor=director,
        name="Load test",
        structure_id=structure.pk,
        starting_stack=40_000,
        buy_in=10_000,
        room_id=room.pk,
    )
    return tournament, make_players(players)


class Writers:
    """Open-loop writes at RATE a second: a registration, the director's message, ..."""

    def __init__(self, base: str, token: str, tournament_id: int, player_ids: list[int]):
        self.base, self.token, self.tournament_id = base, token, tournament_id
        self.player_ids = player_ids
        self.samples: list[float] = []
        self.errors: list[str] = []
        self.local = threading.local()

    def write(self, n: int) -> None:
        if not hasattr(self.local, "client"):
            headers = {"Authorization": f"Bearer {self.token}"}
            self.local.client = httpx.Client(base_url=self.base, headers=headers, timeout=30)
        path = f"/api/v1/tournaments/{self.tournament_id}"
        start = time.perf_counter_ns()
        if n % 2 == 0:
            body = {"player_id": self.player_ids[n // 2]}
            response = self.local.client.post(f"{path}/entries", json=body)
        else:
            body = {"message": f"Registration open: {n} requests so far"}
            response = self.local.client.put(f"{path}/message", json=body)
        self.samples.append((time.perf_counter_ns() - start) / 1e6)
        if response.status_code not in (200, 201):
            self.errors.append(f"{n}: {response.status_code} {response.text[:200]}")

    def run(self) -> None:
        started = time.perf_counter()
        with ThreadPoolExecutor(WRITERS) as pool:
            for n in range(RATE * SECONDS):
                delay = started + n / RATE - time.perf_counter()
                if delay > 0:
                    time.sleep(delay)  # the load's own schedule, not waiting for a result
                pool.submit(self.write, n)


def open_screens(base: str, tournament_id: int) -> subprocess.Popen:
    parts = urlsplit(base)
    path = f"/api/v1/tournaments/{tournament_id}/events?display={display_token(tournament_id)}"
    command = ["tests.sse_screens", parts.hostname, str(parts.port), path, str(SCREENS)]
    screens = subprocess.Popen(
        [sys.executable, "-m", *command],
        cwd=REPO,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert screens.stdout.readline().strip() == "ready"
    return screens


def last_event_id(tournament) -> int:
    return TournamentEvent.objects.filter(tournament=tournament).aggregate(m=Max("pk"))["m"] or 0


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_200_screens_and_20_writes_a_second(director, structure) -> None:
    redis_url = os.environ.get("REDIS_URL", "")
    redis_or_missing(redis_url or "redis://")
    writes = RATE * SECONDS
    tournament, fresh = registering_tournament(director, structure, players=writes // 2)
    token, _ = api_token_create(actor=director, user=director)
    name = f"tourney-load-{connection.settings_dict['NAME']}"[:63]
    with uvicorn_server(redis_url, PGAPPNAME=name) as base:
        screens = open_screens(base, tournament.pk)
        first = last_event_id(tournament)
        writers = Writers(base, token, tournament.pk, fresh)
        with ConnectionSampler(name) as sampler:
            writers.run()
        last = last_event_id(tournament)
        screens.stdin.write(f"stop {last}\n")
        screens.stdin.flush()
        seen = json.loads(screens.stdout.readline())
        screens.wait(timeout=30)

    expected = list(
        TournamentEvent.objects.filter(tournament=tournament, pk__gt=first)
        .order_by("pk")
        .values_list("pk", "at")
    )
    delivery = [
        seen["arrivals"][str(pk)] / 1e6 - at.timestamp() * 1000
        for pk, at in expected
        if str(pk) in seen["arrivals"]
    ]
    vendor = connection.vendor
    report(
        f"load_writes_{vendor}",
        writers.samples,
        None,
        screens=SCREENS,
        rate=RATE,
        seconds=SECONDS,
        target_p99_ms=TARGET_P99_MS,
        connections_most=sampler.most,
        connections_opened=len(sampler.pids),
    )
    report(f"load_commit_to_last_screen_{vendor}", delivery, None, events=len(expected))
    assert writers.errors == [], writers.errors[:10]
    assert len(writers.samples) == writes
    assert seen["errors"] == []
    ids = [pk for pk, _at in expected]
    missed = sum(1 for screen in seen["ids"] if screen != ids)
    assert missed == 0, f"{missed} of {SCREENS} screens missed or repeated events"
    if vendor == "postgresql":
        assert sampler.most <= POOL_SIZE, sampler.most
