"""Two floor staff busting players at different tables at the same instant (issue 4), on
PostgreSQL, where the writers really run in parallel: both bust-outs serialize on the
tournament row, nothing is lost, and the floor's to-do list matches the seating.

Skipped on SQLite (its IMMEDIATE transactions serialize every writer anyway); in CI a missing
PostgreSQL fails the run. Run it with DATABASE_URL=postgres://postgres@127.0.0.1:5432/test.
"""

import random
from collections import defaultdict

import pytest
from django.db import connection, transaction

from tables.floor.operations import floor_replan
from tables.models import FloorAction, TournamentTable
from tests.factories import run_at_once, started_tournament
from tourney.core.locks import tournament_lock
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Elimination, Entry, Tournament, TournamentEvent

OPEN = TournamentTable.Status.OPEN
ACTIVE = Entry.Status.ACTIVE


@pytest.fixture
def postgresql():
    # Not a missing service: this run chose SQLite (one writer at a time by design). CI's
    # PostgreSQL run executes it, and fails there if PostgreSQL is down.
    if connection.vendor != "postgresql":
        pytest.skip(
            f"concurrent floor writers run on PostgreSQL (this run uses {connection.vendor})"
        )


def seating(tournament: Tournament) -> dict[int, dict[int, int]]:
    """Open table number -> {seat: entry id}."""
    result: dict[int, dict[int, int]] = defaultdict(dict)
    for number, seat, entry_id in Entry.objects.filter(
        tournament=tournament, status=ACTIVE, tournament_table__status=OPEN
    ).values_list("tournament_table__number", "seat", "pk"):
        result[number][seat] = entry_id
    return result


def assert_consistent(tournament: Tournament, active: int) -> None:
    """Every playing entry in one seat of its own at an open table; the versions of the
    tournament and its events run 1, 2, ... without a gap or a repeat; and the pending moves
    are what the field needs: planning again now plans nothing."""
    rows = list(
        Entry.objects.filter(tournament=tournament, status=ACTIVE).values_list(
            "tournament_table__number", "tournament_table__status", "seat"
        )
    )
    assert len(rows) == active
    assert all(status == OPEN and seat is not None for _n, status, seat in rows)
    seats = [(number, seat) for number, _status, seat in rows]
    assert len(set(seats)) == len(seats)
    tournament.refresh_from_db()
    versions = sorted(
        TournamentEvent.objects.filter(tournament=tournament).values_list("version", flat=True)
    )
    assert versions == list(range(1, tournament.version + 1))
    with transaction.atomic():
        locked = tournament_lock(tournament.pk)
        assert floor_replan(actor=None, tournament=locked, rng=random.Random(0)) == []


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("profile", ["tda2024", "rimoc"])
def test_two_floor_staff_busting_at_once_lose_nothing(postgresql, director, structure, profile):
    """27 players on three tables of 9 down to the final table, two bust-outs at a time at
    two different tables: moves, the break to two tables and the final-table draw all
    happen while both writers race."""
    rng = random.Random(27)
    tournament = started_tournament(director, structure, 27, profile, rng, tables=3)
    active = 27
    rounds = 0
    while len(open_tables := seating(tournament)) >= 2:
        # Always the two lowest tables: the third stays full, so moves are due.
        first, second = sorted(open_tables)[:2]
        victims = [rng.choice(sorted(open_tables[n].values())) for n in (first, second)]
        standing = Elimination.objects.filter(tournament=tournament, undone_at__isnull=True)
        before = standing.count()
        errors = run_at_once(
            [
                lambda victim=victim, seed=seed: eliminations_record(
                    actor=director,
                    tournament_id=tournament.pk,
                    eliminations=[(victim, None)],
                    rng=random.Random(seed),
                )
                for seed, victim in enumerate(victims)
            ]
        )
        assert errors == []
        rows = list(standing.filter(entry_id__in=victims))
        assert standing.count() == before + 2 and len(rows) == 2
        # Two hands, two places: whoever committed first finished one place worse.
        assert sorted((r.place, r.place_to) for r in rows) == [
            (active - 1, active - 1),
            (active, active),
        ]
        assert len({r.bust_group for r in rows}) == 2
        active -= 2
        rounds += 1
        assert_consistent(tournament, active)
    assert rounds >= 9  # 27 -> 9: the last round forms the final table
    kinds = set(
        FloorAction.objects.filter(tournament=tournament, parent=None).values_list(
            "kind", flat=True
        )
    )
    assert kinds == {
        FloorAction.Kind.MOVE,
        FloorAction.Kind.BREAK_TABLE,
        FloorAction.Kind.FINAL_TABLE_REDRAW,
    }
