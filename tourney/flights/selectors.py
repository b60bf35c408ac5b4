"""Reads of a festival's main event and its flights (docs/rules.md §15)."""

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from tourney.core.errors import Conflict
from tourney.domain.festival import Bag
from tourney.models import Entry, Tournament

IN_FIELD = (Entry.Status.ACTIVE, Entry.Status.ELIMINATED, Entry.Status.BAGGED)


def flights_of(main: Tournament) -> list[Tournament]:
    """The main event's flights, in the order they were made (Day 1A, 1B ...)."""
    return list(Tournament.objects.filter(main_event=main).order_by("pk"))


def flight_rows(main: Tournament) -> list[dict]:
    """Each flight with its field: entries (every buy-in in play or out), the players left
    and those who bagged."""
    counted = (
        Tournament.objects.filter(main_event=main)
        .annotate(
            n_entries=Count("entries", filter=Q(entries__status__in=IN_FIELD)),
            n_left=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE)),
            n_bagged=Count("entries", filter=Q(entries__status=Entry.Status.BAGGED)),
        )
        .order_by("pk")
    )
    return [
        {
            "id": f.pk,
            "parent_id": main.pk,
            "name": f.name,
            "status": f.status,
            "entries": f.n_entries,
            "players_remaining": f.n_left,
            "bagged": f.n_bagged,
            "scheduled_start": f.scheduled_start,
            "day_end_level": f.day_end_level,
        }
        for f in counted
    ]


def main_event_of(tournament: Tournament) -> Tournament | None:
    """The main event a flight belongs to (None for any other tournament)."""
    if tournament.main_event_id is None:
        return None
    return Tournament.objects.get(pk=tournament.main_event_id)


def flight_standing(tournament: Tournament, player_id: int) -> tuple[bool, bool]:
    """For a flight's registration: whether the player has bagged in another flight of the
    same main event, and whether he is playing (or waiting) in one now."""
    others = Entry.objects.filter(
        tournament__main_event_id=tournament.main_event_id, player_id=player_id
    ).exclude(tournament_id=tournament.pk)
    statuses = set(others.values_list("status", flat=True))
    return (
        Entry.Status.BAGGED in statuses,
        bool(statuses & {Entry.Status.ACTIVE, Entry.Status.WAITING}),
    )


def bags_named(main: Tournament) -> tuple[list[Bag], dict[int, str]]:
    """Every bag of the main event's flights in bag order (flight, then entry), and each
    bag's player's name by the bag's entry id."""
    rows = (
        Entry.objects.filter(tournament__main_event=main, status=Entry.Status.BAGGED)
        .order_by("tournament_id", "pk")
        .values_list("pk", "player_id", "chips", "player__name")
    )
    bags, names = [], {}
    for i, (pk, player, chips, name) in enumerate(rows):
        bags.append(Bag(entry_id=pk, player_id=player, chips=chips or 0, order=i))
        names[pk] = name
    return bags, names


def day2_drawn(main: Tournament) -> bool:
    return main.is_main_event and main.seats_drawn_at is not None


def not_day2_drawn(main: Tournament | None) -> None:
    """409 `day2_drawn`: once Day 2 is seated the bags are its stacks; correct them there."""
    if main is not None and main.seats_drawn_at is not None:
        raise Conflict(
            "day2_drawn",
            _("Day 2 is drawn: correct the stack on Day 2's tables, not in the flight."),
        )


def bag_counts(main: Tournament) -> tuple[int, int]:
    """(bags, players with a bag) of the main event's flights."""
    counted = Entry.objects.filter(tournament__main_event=main, status=Entry.Status.BAGGED)
    totals = counted.aggregate(bags=Count("pk"), players=Count("player", distinct=True))
    return totals["bags"], totals["players"]


def day2_stacks(main: Tournament) -> dict[int, int]:
    """Each Day-2 entry's chips (its bag's), by entry id."""
    rows = Entry.objects.filter(tournament=main, day1_entry__isnull=False)
    return {pk: chips or 0 for pk, chips in rows.values_list("pk", "chips")}
