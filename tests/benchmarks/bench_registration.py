"""Registration through the API: 1,000 entries (target: median 5 ms SQLite, 10 ms PostgreSQL).

Each request is the real endpoint, `POST /api/v1/tournaments/{id}/entries` with a bearer token
and a JSON body, through django.test.Client in-process: middleware, token auth, django-ninja,
the service (tournament row lock, entry, two ledger rows, audit entry, event) and the database.
The test is transactional (`django_db(transaction=True)`), so every registration really commits
and its event is published on commit (to Redis when REDIS_URL is set).

Then the seats are drawn, the tournament starts and 200 more players register late; each late
entry gets a random seat at once (reported separately, same targets for comparison).

Run: .venv/bin/pytest -m benchmark tests/benchmarks/bench_registration.py -s
PostgreSQL + Redis: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
    REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/pytest -m benchmark tests/benchmarks -s
"""

import statistics
import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clocks.clock.usecases import tournament_start
from tables.rooms.usecases import room_create
from tables.seating.usecases import seats_draw
from tests.benchmarks.report import report
from tests.factories import make_players
from tourney.models import AuditEntry, Entry, LedgerEntry, TournamentEvent
from tourney.tournaments.usecases import tournament_create

PLAYERS = 1_000
LATE_PLAYERS = 200
COUNTED = 5  # extra registrations per phase, run under CaptureQueriesContext (not timed)
TABLES = 150  # 10-seat tables played 9-handed: 1,350 seats, nobody waits
TABLE_SEATS = 10


def target_ms() -> float:
    return 10.0 if connection.vendor == "postgresql" else 5.0


def register_timed(api, tournament_id: int, player_ids: list[int]) -> tuple[list[float], float]:
    """Register each player with one request.

    Returns each request's wall time in ms, and the median CPU time of this process per
    request (on SQLite nearly all the work; on PostgreSQL the server's share is not in it).
    """
    path = f"/tournaments/{tournament_id}/entries"
    samples, cpu = [], []
    for player_id in player_ids:
        start, cpu_start = time.perf_counter_ns(), time.process_time_ns()
        response = api.post(path, {"player_id": player_id})
        samples.append((time.perf_counter_ns() - start) / 1e6)
        cpu.append((time.process_time_ns() - cpu_start) / 1e6)
        assert response.status_code == 201, response.content  # correctness only, not timing
    return samples, round(statistics.median(cpu), 3)


def register_counted(api, tournament_id: int, player_ids: list[int]) -> list[int]:
    """Register each player and return the number of SQL queries of each request."""
    counts = []
    for player_id in player_ids:
        with CaptureQueriesContext(connection) as queries:
            response = api.post(f"/tournaments/{tournament_id}/entries", {"player_id": player_id})
        assert response.status_code == 201, response.content
        counts.append(len(queries))
    return counts


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_registration(api, director, structure) -> None:
    room = room_create(
        actor=director,
        name="Bench room",
        tables=[{"number": n, "seats": TABLE_SEATS} for n in range(1, TABLES + 1)],
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
    ids = make_players(PLAYERS + COUNTED + LATE_PLAYERS + COUNTED)
    early, early_counted = ids[:PLAYERS], ids[PLAYERS : PLAYERS + COUNTED]
    late = ids[PLAYERS + COUNTED : PLAYERS + COUNTED + LATE_PLAYERS]
    late_counted = ids[PLAYERS + COUNTED + LATE_PLAYERS :]

    samples, cpu_ms = register_timed(api, tournament.pk, early)
    queries = register_counted(api, tournament.pk, early_counted)
    report(
        f"registration_api_{connection.vendor}",
        samples,
        target_ms(),
        players=PLAYERS,
        queries_per_request=statistics.median(queries),
        cpu_median_ms=cpu_ms,
    )

    seats_draw(actor=director, tournament_id=tournament.pk)
    tournament_start(actor=director, tournament_id=tournament.pk)
    late_samples, late_cpu_ms = register_timed(api, tournament.pk, late)
    late_queries = register_counted(api, tournament.pk, late_counted)
    report(
        f"late_registration_api_{connection.vendor}",
        late_samples,
        target_ms(),
        players=LATE_PLAYERS,
        queries_per_request=statistics.median(late_queries),
        cpu_median_ms=late_cpu_ms,
    )

    registered = len(ids)
    entries = Entry.objects.filter(tournament=tournament)
    assert entries.filter(status=Entry.Status.ACTIVE).count() == registered
    assert entries.filter(status=Entry.Status.ACTIVE, seat__isnull=True).count() == 0
    assert LedgerEntry.objects.filter(tournament=tournament).count() == 2 * registered
    assert (
        AuditEntry.objects.filter(tournament=tournament, action="entry.register").count()
        == registered
    )
    assert TournamentEvent.objects.filter(tournament=tournament, kind="entry").count() == registered
