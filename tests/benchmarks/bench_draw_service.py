"""The seat draw service end to end: 25,000 entrants on 2,778 nine-seat tables (target 0.5 s,
PostgreSQL).

`seats_draw` as the API calls it: tournament row lock, reading the entries and tables, the
draw, writing every entry's table and seat, opening the tables with their button draw, the
audit entry, the event, the commit (`django_db(transaction=True)`: the event is published to
Redis when REDIS_URL is set) and the seating chart it returns. The 25,000 entries are created
with bulk_create beforehand (not timed); each repetition draws a fresh tournament.

Run: .venv/bin/pytest -m benchmark tests/benchmarks/bench_draw_service.py -s
"""

import time

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import TournamentTable
from tables.rooms.usecases import room_create
from tables.seating.usecases import seats_draw
from tests.benchmarks.report import report
from tests.factories import bulk_entries
from tourney.models import Entry, Player
from tourney.players.selectors import player_search_text
from tourney.tournaments.usecases import tournament_create

ENTRANTS = 25_000
TABLES = 2_778
SEATS = 9
REPETITIONS = 3
TARGET_MS = 500.0


def make_players(n: int) -> list[int]:
    players = []
    for i in range(n):
        fields = {"name": f"Draw Player {i:05d}", "nickname": "", "phone": ""}
        players.append(Player(**fields, search_text=player_search_text(fields)))
    Player.objects.bulk_create(players, batch_size=2_000)
    return list(Player.objects.order_by("pk").values_list("pk", flat=True))


def registered_tournament(director, structure_id: int, room_id: int, player_ids: list[int]):
    """A tournament on the whole room with every player registered and no seats (not timed)."""
    tournament = tournament_create(
        actor=director,
        name="Bench main event",
        structure_id=structure_id,
        starting_stack=50_000,
        buy_in=10_000,
        fee=1_000,
        room_id=room_id,
        rules_overrides={"seats_per_table": SEATS},
    )
    bulk_entries(director, tournament, player_ids)
    return tournament


def assert_drawn(tournament) -> None:
    entries = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    assert entries.filter(seat__isnull=False, tournament_table__isnull=False).count() == ENTRANTS
    assert TournamentTable.objects.filter(tournament=tournament, status="open").count() == -(
        -ENTRANTS // SEATS
    )


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_draw_service(director, structure) -> None:
    room = room_create(
        actor=director,
        name="Bench hall",
        tables=[{"number": n, "seats": SEATS} for n in range(1, TABLES + 1)],
    )
    player_ids = make_players(ENTRANTS)
    samples_ms = []
    for _ in range(REPETITIONS):
        tournament = registered_tournament(director, structure.pk, room.pk, player_ids)
        start = time.perf_counter_ns()
        layout = seats_draw(actor=director, tournament_id=tournament.pk)
        samples_ms.append((time.perf_counter_ns() - start) / 1e6)
        assert len(layout) == -(-ENTRANTS // SEATS)  # correctness only; timing is reported
        assert_drawn(tournament)

    # One more draw, untimed, to count its SQL statements.
    tournament = registered_tournament(director, structure.pk, room.pk, player_ids)
    with CaptureQueriesContext(connection) as queries:
        seats_draw(actor=director, tournament_id=tournament.pk)
    assert_drawn(tournament)
    report(
        f"draw_service_{connection.vendor}",
        samples_ms,
        TARGET_MS,
        entrants=ENTRANTS,
        tables=TABLES,
        queries=len(queries),
    )
