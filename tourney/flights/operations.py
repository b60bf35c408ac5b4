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


# One statement, the entries made already seated: 5,000 entries made row by row through the
# ORM took 0.8 s, eight times the draw that seats them, and made then seated (an INSERT, then
# the draw's UPDATE) 2.5 times the ordinary draw (tests/benchmarks/bench_festival.py).
# Numbered in bag order (flight, then entry), as `bags_named` lists them.
DAY2_ENTRIES_SQL = """
    {drawn}
    INSERT INTO tourney_entry (
        tournament_id, player_id, number, status, waits_for_button, created_at, created_by_id,
        chips, chips_at, day1_entry_id, player_link_generation, tournament_table_id, seat,
        seated_at
    )
    SELECT %s, e.player_id, ROW_NUMBER() OVER (ORDER BY e.tournament_id, e.id), %s, %s, %s, %s,
        e.chips, %s, e.id, 0, d.tt, d.seat, %s
    FROM drawn AS d JOIN tourney_entry AS e ON e.id = d.day1
"""


def _drawn(rows: list[tuple[int, int, int]]) -> tuple[str, list]:
    """The draw's rows (bag, table, seat) as the statement's `drawn`: three arrays on
    PostgreSQL, integers this code produced written inline elsewhere."""
    if not all(type(v) is int for row in rows for v in row):
        raise TypeError("the draw's rows are integers")
    if connection.vendor == "postgresql":
        # array literals: psycopg adapts a list of 5,000 values one by one
        return (
            "WITH drawn (day1, tt, seat) AS (SELECT * FROM ROWS FROM"
            " (unnest(%s::bigint[]), unnest(%s::bigint[]), unnest(%s::integer[])))",
            ["{" + ",".join(map(str, c)) + "}" for c in zip(*rows, strict=True)],
        )
    values = ", ".join(f"({a}, {b}, {c})" for a, b, c in rows)
    return f"WITH drawn (day1, tt, seat) AS (VALUES {values})", []


def day2_entries_seated(
    main: Tournament, rows: list[tuple[int, int, int]], who_id: int | None, now
) -> None:
    """A Day-2 entry of the main event for each drawn bag, given as (bag's entry id, tournament
    table id, seat): the bag's player and chips, playing at that seat. Reads no answer (the
    draw sends it with its other writes); the caller has set the tables' counts aside
    (tourney/core/db_triggers.py `PLAYERS_WRITTEN`) and writes them."""
    drawn, params = _drawn(rows)
    at = connection.ops.adapt_datetimefield_value(now)
    with connection.cursor() as cursor:
        cursor.execute(
            DAY2_ENTRIES_SQL.format(drawn=drawn),
            [*params, main.pk, Entry.Status.ACTIVE, False, at, who_id, at, at],
        )
