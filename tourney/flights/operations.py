"""A main event's bags: opened for a change, and the Day-2 entries written by the database from
them (docs/rules.md §15.5)."""

from django.db import connection

from tourney.core.locks import tournament_lock
from tourney.flights.selectors import not_day2_drawn
from tourney.models import Entry, Tournament


def bags_opened(flight: Tournament) -> None:
    """A finished flight's bags are about to change (a count corrected, the day undone): its
    main event is locked after it, and the change refused (`day2_drawn`) once Day 2 is drawn.
    The Day-2 draw holds the main event and no flight, so it never reads a bag mid-change."""
    not_day2_drawn(tournament_lock(flight.main_event_id))


# One statement: 5,000 entries made row by row through the ORM took 0.8 s, eight times the
# draw that seats them (tests/benchmarks/bench_festival.py). Numbered in bag order (flight,
# then entry), as `bags_of` lists them.
DAY2_ENTRIES_SQL = """
    INSERT INTO tourney_entry (
        tournament_id, player_id, number, status, waits_for_button, created_at, created_by_id,
        chips, chips_at, day1_entry_id, player_link_generation
    )
    SELECT %s, e.player_id, ROW_NUMBER() OVER (ORDER BY e.tournament_id, e.id), %s, %s, %s, %s,
        e.chips, %s, e.id, 0
    FROM tourney_entry e JOIN tourney_tournament f ON f.id = e.tournament_id
    WHERE f.main_event_id = %s AND e.status = %s{set_aside}
"""


def day2_entries_insert(main: Tournament, set_aside: list[int], who_id: int | None, now) -> int:
    """A Day-2 entry of the main event for every bag of its flights but those `set_aside`
    (a player's smaller bags): the bag's player and chips, playing, no seat yet. Returns how
    many it made."""
    sql = DAY2_ENTRIES_SQL.format(
        set_aside=f" AND e.id NOT IN ({', '.join(['%s'] * len(set_aside))})" if set_aside else ""
    )
    at = connection.ops.adapt_datetimefield_value(now)
    params = [main.pk, Entry.Status.ACTIVE, False, at, who_id, at, main.pk, Entry.Status.BAGGED]
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, *set_aside])
        return cursor.rowcount
