"""The floor's cost does not grow with the field: a bust-out, a table break and an undo run a
small, fixed number of SQL statements whatever the number of players, tables or bust-outs
before (counted with CaptureQueriesContext; the 10,000-player figures are in
docs/benchmarks.md)."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.models import TournamentTable
from tests.factories import seating_of, started_tournament
from tourney.eliminations.usecases import elimination_undo, eliminations_record
from tourney.models import Entry

pytestmark = pytest.mark.django_db

# Lock; the busted entries with the players left, the last bust group and the floor's field
# shape (one statement); the elimination row, the entry, the audit entry, the event (its
# insert sets the tournament's version); and, inside a test's transaction, the SAVEPOINT and
# its RELEASE. Was 19 (docs/benchmarks.md). On PostgreSQL the four writes are one round trip.
PLAIN_BUST_MOST = 8


def bust_statements(director, tournament, victim) -> tuple[int, dict]:
    with CaptureQueriesContext(connection) as queries:
        result = eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(victim, None)]
        )
    return len(queries), result


def victim_at_a_largest_table(tournament) -> int:
    seating = seating_of(tournament)
    largest = max(seating.values(), key=len)
    return next(iter(largest.values()))


@pytest.mark.parametrize("players", [20, 80])
def test_a_bust_out_that_changes_nothing_else_costs_a_few_statements(director, structure, players):
    """Rimóc: 20 players on 3 tables, or 80 on 9; a bust at a largest table moves nobody."""
    rng = random.Random(1)
    tournament = started_tournament(director, structure, players, "rimoc", rng, tables=12)
    count, result = bust_statements(director, tournament, victim_at_a_largest_table(tournament))
    assert result["actions"] == []
    assert count <= PLAIN_BUST_MOST


def test_a_bust_out_costs_the_same_whatever_the_size_of_the_field(director, structure):
    rng = random.Random(2)
    small = started_tournament(director, structure, 20, "rimoc", rng, tables=12)
    large = started_tournament(director, structure, 80, "rimoc", rng, tables=12)
    small_count, _ = bust_statements(director, small, victim_at_a_largest_table(small))
    large_count, _ = bust_statements(director, large, victim_at_a_largest_table(large))
    assert small_count == large_count


@pytest.mark.parametrize("players", [27, 54])
def test_a_table_break_is_written_in_a_fixed_number_of_statements(director, structure, players):
    """A break moves 6-9 players with bulk writes: the plan's statements do not depend on
    how many it moves, nor on how many tables are in play (only the tables it touches are
    read)."""
    rng = random.Random(3)
    tournament = started_tournament(director, structure, players, "rimoc", rng, tables=8)
    while True:
        victim = victim_at_a_largest_table(tournament)
        count, result = bust_statements(director, tournament, victim)
        if any(a["kind"] == "break_table" for a in result["actions"]):
            break
    (broken,) = [a for a in result["actions"] if a["kind"] == "break_table"]
    assert len(broken["moves"]) >= 6
    assert count <= PLAIN_BUST_MOST + 14, count
    assert (
        TournamentTable.objects.get(tournament=tournament, number=broken["from_table"]).status
        == TournamentTable.Status.CLOSED
    )


def test_undo_costs_the_same_however_many_bust_outs_came_after(director, structure):
    """Undoing the first bust-out moves every later place: one UPDATE for all of them (it
    was one per standing bust-out). Rimóc, 40 players on 5 tables: 37 still want 5, so no
    bust-out here calls for a move or a break."""

    def undo_statements(later: int) -> int:
        rng = random.Random(4)
        tournament = started_tournament(director, structure, 40, "rimoc", rng, tables=6)
        first = None
        for n in range(1 + later):
            table = sorted(seating_of(tournament))[n % 3]
            victim = next(iter(seating_of(tournament)[table].values()))
            first = first or victim
            eliminations_record(
                actor=director, tournament_id=tournament.pk, eliminations=[(victim, None)]
            )
        with CaptureQueriesContext(connection) as queries:
            elimination_undo(actor=director, tournament_id=tournament.pk, entry_id=first, rng=rng)
        assert Entry.objects.get(pk=first).status == Entry.Status.ACTIVE
        return len(queries)

    assert undo_statements(0) == undo_statements(2)
