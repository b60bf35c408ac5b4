"""A main event's bags: opened for a change, and Day 2's field kept as they say: each bag Day 2
plays is a Day-2 entry, registered from the flight's end of day (docs/rules.md §15.5)."""

from django.db import connection

from tourney.core.locks import tournament_lock
from tourney.domain.festival import day2_field
from tourney.flights.selectors import bags_named, not_day2_drawn
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import tournament_rules


def bags_opened(flight: Tournament) -> Tournament:
    """A finished flight's bags are about to change (a count corrected, the day undone): its
    main event is locked after it and returned, and the change refused (`day2_drawn`) once
    Day 2 is drawn. The Day-2 draw holds the main event and no flight, so it never reads a bag
    mid-change."""
    main = tournament_lock(flight.main_event_id)
    not_day2_drawn(main)
    return main


# One statement for a flight's bags: the entries made row by row through the ORM took 0.8 s a
# 5,000 (tests/benchmarks/bench_festival.py). Numbered after the main event's last, in bag
# order (flight, then entry), as `bags_named` lists them.
DAY2_ENTRIES_SQL = """
    INSERT INTO tourney_entry (
        tournament_id, player_id, number, status, waits_for_button, created_at, created_by_id,
        chips, chips_at, day1_entry_id, player_link_generation
    )
    SELECT %s, e.player_id,
        (SELECT COALESCE(MAX(n.number), 0) FROM tourney_entry AS n WHERE n.tournament_id = %s)
            + ROW_NUMBER() OVER (ORDER BY e.tournament_id, e.id),
        %s, %s, %s, %s, e.chips, %s, e.id, 0
    FROM tourney_entry AS e WHERE {bags}
"""


def _ids_where(ids: list[int]) -> tuple[str, list]:
    """`e.id` among `ids`: one array on PostgreSQL, integers this code read written inline
    elsewhere."""
    if not all(type(v) is int for v in ids):
        raise TypeError("entry ids are integers")
    if connection.vendor == "postgresql":
        return "e.id = ANY(%s::bigint[])", ["{" + ",".join(map(str, ids)) + "}"]
    return f"e.id IN ({', '.join(map(str, ids))})", []


def day2_entries_kept(main: Tournament, actor, now) -> None:
    """Day 2's field as the bags say, under the main event's lock, after every change of a bag
    (a flight's end of day, its undo, a count corrected): each bag Day 2 plays (one a player,
    by the house's `flight_survivor`) is a Day-2 entry of the main event, registered and not
    seated, with the bag's chips; a bag no longer played has none. The draw then seats them
    as any registered field, so it costs Day 2 what an ordinary draw costs."""
    who_id = actor.pk if actor is not None and actor.is_authenticated else None
    bags, _names = bags_named(main)
    kept = {b.entry_id: b for b in day2_field(bags, tournament_rules(main).flight_survivor)[0]}
    have = {
        day1: (pk, chips)
        for pk, day1, chips in Entry.objects.filter(
            tournament=main, day1_entry__isnull=False
        ).values_list("pk", "day1_entry_id", "chips")
    }
    gone = [pk for day1, (pk, _chips) in have.items() if day1 not in kept]
    if gone:  # before the new ones: a player's other bag may take his place
        Entry.objects.filter(pk__in=gone).delete()
    changed = [
        Entry(pk=have[day1][0], chips=bag.chips, chips_at=now)
        for day1, bag in kept.items()
        if day1 in have and have[day1][1] != bag.chips
    ]
    Entry.objects.bulk_update(changed, ["chips", "chips_at"])
    new = sorted(day1 for day1 in kept if day1 not in have)
    if not new:
        return
    where, params = _ids_where(new)
    at = connection.ops.adapt_datetimefield_value(now)
    with connection.cursor() as cursor:
        cursor.execute(
            DAY2_ENTRIES_SQL.format(bags=where),
            [main.pk, main.pk, Entry.Status.ACTIVE, False, at, who_id, at, *params],
        )
