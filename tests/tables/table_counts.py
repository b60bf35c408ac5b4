"""Checks of what the database keeps by triggers (tourney/core/db_triggers.py): the tables' stored
player counts and the seats' rows."""

from tables.models import Seat, TournamentTable
from tables.seating.selectors import table_players_drift
from tests.factories import seating_of
from tourney.models import Entry, Tournament


def stored_counts(tournament) -> dict[int, int]:
    return dict(
        TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.OPEN)
        .values_list("number", "players")
        .order_by("number")
    )


def assert_counts_right(tournament) -> None:
    """The stored counts, and the seats' rows (tables.Seat): one per playing entry, the same
    table and seat; the tournament's count of entries in play."""
    assert table_players_drift(tournament.pk) == {}
    playing = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    stored = Tournament.objects.values_list("playing", flat=True).get(pk=tournament.pk)
    assert stored == playing.count()
    assert set(
        Seat.objects.filter(tournament=tournament).values_list(
            "entry_id", "tournament_table_id", "seat"
        )
    ) == set(playing.values_list("pk", "tournament_table_id", "seat"))
    seating = seating_of(tournament)
    assert stored_counts(tournament) == {
        n: len(seating.get(n, {})) for n in stored_counts(tournament)
    }
