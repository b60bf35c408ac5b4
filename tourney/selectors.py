"""Reads of players, tournaments and entries."""

from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import Count, OuterRef, Q, Subquery, Sum
from django.utils import timezone
from django.utils.translation import gettext as _

from tourney.domain.house_rules import HouseRules, resolve_house_rules
from tourney.domain.payouts import prize_pool
from tourney.errors import Conflict, NotFound
from tourney.models import ChipPurchase, Entry, LedgerEntry, Player, PlayerBan, Tournament

LIVE_STATUSES = (Entry.Status.ACTIVE, Entry.Status.ELIMINATED)


def tournament_rules(tournament: Tournament) -> HouseRules:
    return resolve_house_rules(tournament.house_rules, tournament.rules_overrides)


def tournament_not_over(tournament: Tournament) -> None:
    """409 `tournament_over` once the tournament is finished or cancelled: no more hands,
    clock calls or clock changes (the winner still sits in his seat; the clock stopped at the
    finish, docs/rules.md §1.4)."""
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict("tournament_over", _("The tournament is over."))


def active_bans(now: datetime):
    """Bans in force at `now`: started, not lifted, not yet ended."""
    return PlayerBan.objects.filter(lifted_at=None, starts_at__lte=now).filter(
        Q(ends_at=None) | Q(ends_at__gt=now)
    )


def player_active_ban(player: Player, now: datetime | None = None) -> PlayerBan | None:
    return active_bans(now or timezone.now()).filter(player=player).order_by("-starts_at").first()


CAPACITY_SQL = """
    SELECT COALESCE(SUM(tt.seats), 0) - (
        SELECT COUNT(*) FROM tables_seatrestriction r
        JOIN tables_tournamenttable rt ON rt.table_id = r.table_id AND r.seat <= rt.seats
        WHERE rt.tournament_id = %s AND rt.status <> 'closed'
    )
    FROM tables_tournamenttable tt
    WHERE tt.tournament_id = %s AND tt.status <> 'closed'
"""


def tournament_capacity(tournament: Tournament) -> int:
    """Seats the tournament can fill with every usable table open (reserved/blocked excluded).

    Per table not closed: its seats in play less its blocked or reserved seats among them.
    Plain SQL because registration asks on every entry under the tournament lock, and building
    the same query with the ORM cost more than running it.
    """
    with connection.cursor() as cursor:
        cursor.execute(CAPACITY_SQL, [tournament.pk, tournament.pk])
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
    """What is paid out: `prize_money`, or the guarantee when that is more."""
    fees: int
    total_chips: int
    average_stack: int
    capacity: int
    prize_money: int = 0
    """The prize part of every entry, re-entry, rebuy and add-on, less refunds."""
    overlay: int = 0
    """What the house adds to reach the guarantee."""
    guarantee: int = 0
    rebuys: int = 0
    addons: int = 0
    purchased_chips: int = 0


def _scalar(queryset, column: str):
    """A scalar subquery of one aggregate (the ORM's way of several aggregates in one SELECT)."""
    return Subquery(queryset.values(column)[:1])


def _summary_counts(tournament: Tournament) -> dict:
    """Entries by status, the money and the chips bought, in one query of scalar subqueries
    (read on every page and API call)."""
    entries = Entry.objects.filter(tournament=OuterRef("pk")).order_by().values("tournament")
    # Waiting-list entries have paid but are not in play; a refund cancels its payment.
    ledger = (
        LedgerEntry.objects.filter(tournament=OuterRef("pk"))
        .filter(Q(entry__isnull=True) | ~Q(entry__status=Entry.Status.WAITING))
        .order_by()
        .values("tournament")
    )
    prize_kinds = (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.REFUND_BUY_IN)
    fee_kinds = (LedgerEntry.Kind.FEE, LedgerEntry.Kind.REFUND_FEE)
    bought = (
        ChipPurchase.objects.filter(tournament=OuterRef("pk"), undone_at__isnull=True)
        .order_by()
        .values("tournament")
    )
    per_status = {
        status: _scalar(entries.annotate(n=Count("pk", filter=Q(status=status))), "n")
        for status in (Entry.Status.ACTIVE, Entry.Status.ELIMINATED, Entry.Status.WAITING)
    }
    row = (
        Tournament.objects.filter(pk=tournament.pk)
        .annotate(
            **{f"n_{status}": value for status, value in per_status.items()},
            prize_money=_scalar(
                ledger.annotate(
                    v=Sum(
                        "amount",
                        filter=Q(kind__in=prize_kinds) & ~Q(purpose=LedgerEntry.Purpose.PRIZE),
                    )
                ),
                "v",
            ),
            fees=_scalar(ledger.annotate(v=Sum("amount", filter=Q(kind__in=fee_kinds))), "v"),
            rebuys=_scalar(
                bought.annotate(n=Count("pk", filter=Q(kind=ChipPurchase.Kind.REBUY))), "n"
            ),
            addons=_scalar(
                bought.annotate(n=Count("pk", filter=Q(kind=ChipPurchase.Kind.ADDON))), "n"
            ),
            purchased_chips=_scalar(bought.annotate(v=Sum("chips")), "v"),
        )
        .values(
            *(f"n_{s}" for s in per_status),
            "prize_money",
            "fees",
            "rebuys",
            "addons",
            "purchased_chips",
        )
        .first()
    )
    return {key: value or 0 for key, value in (row or {}).items()}


def tournament_summary(tournament: Tournament) -> TournamentSummary:
    counts = _summary_counts(tournament)
    active = counts.get(f"n_{Entry.Status.ACTIVE}", 0)
    entries = active + counts.get(f"n_{Entry.Status.ELIMINATED}", 0)
    money = max(0, counts.get("prize_money", 0))
    pool = prize_pool(money, tournament.guarantee)
    # Every entry brings a full stack (TDA 8-A); rebuys and add-ons their chips; color-ups
    # change the total by their rounding; chips of absent or disqualified players leave play.
    total_chips = max(
        0,
        entries * tournament.starting_stack
        + counts.get("purchased_chips", 0)
        + tournament.chips_color_up
        - tournament.chips_removed,
    )
    return TournamentSummary(
        entries=entries,
        players_remaining=active,
        waiting=counts.get(f"n_{Entry.Status.WAITING}", 0),
        prize_pool=pool.pool,
        fees=counts.get("fees", 0),
        total_chips=total_chips,
        average_stack=total_chips // active if active else 0,
        capacity=tournament_capacity(tournament),
        prize_money=money,
        overlay=pool.overlay,
        guarantee=tournament.guarantee,
        rebuys=counts.get("rebuys", 0),
        addons=counts.get("addons", 0),
        purchased_chips=counts.get("purchased_chips", 0),
    )


def entry_waiting_list(tournament: Tournament) -> list[Entry]:
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.WAITING)
        .select_related("player")
        .order_by("waiting_since", "number")
    )


def entry_snapshot(entry: Entry) -> dict:
    return {
        "id": entry.pk,
        "player_id": entry.player_id,
        "number": entry.number,
        "status": entry.status,
        "table": entry.tournament_table.number if entry.tournament_table_id else None,
        "seat": entry.seat,
    }


def entry_of(tournament: Tournament, entry_id: int) -> Entry:
    """The tournament's entry `entry_id` (with player and table), or 404 `entry_not_found`."""
    entry = (
        Entry.objects.select_related("player", "tournament_table")
        .filter(tournament=tournament, pk=entry_id)
        .first()
    )
    if entry is None:
        raise NotFound(
            "entry_not_found", _("There is no entry %(id)s in this tournament.") % {"id": entry_id}
        )
    return entry
