"""Reads of players, tournaments and entries."""

from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import Count, Q, Sum
from django.utils import timezone

from tourney.domain.house_rules import HouseRules, resolve_house_rules
from tourney.domain.text import search_key
from tourney.models import Entry, LedgerEntry, Player, PlayerBan, Tournament

LIVE_STATUSES = (Entry.Status.ACTIVE, Entry.Status.ELIMINATED)


def tournament_rules(tournament: Tournament) -> HouseRules:
    return resolve_house_rules(tournament.house_rules, tournament.rules_overrides)


def active_bans(now: datetime):
    """Bans in force at `now`: started, not lifted, not yet ended."""
    return PlayerBan.objects.filter(lifted_at=None, starts_at__lte=now).filter(
        Q(ends_at=None) | Q(ends_at__gt=now)
    )


def player_active_ban(player: Player, now: datetime | None = None) -> PlayerBan | None:
    return active_bans(now or timezone.now()).filter(player=player).order_by("-starts_at").first()


def player_search(text: str, limit: int = 20) -> list[Player]:
    """Players whose name, nickname or phone contain every word of `text`, accents ignored."""
    words = search_key(text).split()
    queryset = Player.objects.all()
    for word in words[:5]:
        queryset = queryset.filter(search_text__contains=word)
    return list(queryset.order_by("name", "id")[:limit])


CAPACITY_SQL = """
    SELECT COALESCE(SUM(free), 0) FROM (
        SELECT tt.seats - (
            SELECT COUNT(*) FROM tables_seatrestriction r
            WHERE r.table_id = tt.table_id AND r.seat <= tt.seats
        ) AS free
        FROM tables_tournamenttable tt
        WHERE tt.tournament_id = %s AND tt.status <> 'closed'
    ) per_table
"""


def tournament_capacity(tournament: Tournament) -> int:
    """Seats the tournament can fill with every usable table open (reserved/blocked excluded).

    Per table not closed: its seats in play less its blocked or reserved seats among them.
    Plain SQL because registration asks on every entry under the tournament lock, and building
    the same query with the ORM cost more than running it.
    """
    with connection.cursor() as cursor:
        cursor.execute(CAPACITY_SQL, [tournament.pk])
        seats = int(cursor.fetchone()[0])
    if tournament.max_entries:
        seats = min(seats, tournament.max_entries)
    return seats


@dataclass(frozen=True)
class TournamentSummary:
    entries: int
    players_remaining: int
    waiting: int
    prize_pool: int
    fees: int
    total_chips: int
    average_stack: int
    capacity: int


def tournament_summary(tournament: Tournament) -> TournamentSummary:
    counts = dict(
        Entry.objects.filter(tournament=tournament)
        .values("status")
        .annotate(n=Count("id"))
        .values_list("status", "n")
    )
    # Waiting-list entries have paid but are not in play; unregistered ones are refunded.
    money = dict(
        LedgerEntry.objects.filter(tournament=tournament, entry__status__in=LIVE_STATUSES)
        .values("kind")
        .annotate(total=Sum("amount"))
        .values_list("kind", "total")
    )
    active = counts.get(Entry.Status.ACTIVE, 0)
    entries = active + counts.get(Entry.Status.ELIMINATED, 0)
    # Chips of absent players eliminated by the house rules leave play (RULES.md 2).
    total_chips = max(0, entries * tournament.starting_stack - tournament.chips_removed)
    return TournamentSummary(
        entries=entries,
        players_remaining=active,
        waiting=counts.get(Entry.Status.WAITING, 0),
        prize_pool=money.get("buy_in", 0),
        fees=money.get("fee", 0),
        total_chips=total_chips,
        average_stack=total_chips // active if active else 0,
        capacity=tournament_capacity(tournament),
    )


def entry_waiting_list(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.WAITING)
        .select_related("player")
        .order_by("waiting_since", "number")
    )
