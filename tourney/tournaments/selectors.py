"""Reads of players, tournaments and entries."""

from dataclasses import dataclass
from datetime import datetime

from django.db import connection
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tourney.core.errors import Conflict, NotFound
from tourney.domain.bounties import bounty_from, bounty_pool
from tourney.domain.house_rules import resolve_house_rules
from tourney.domain.house_rules_params import HouseRules
from tourney.domain.payouts import prize_pool
from tourney.models import ChipPurchase, Entry, LedgerEntry, Player, PlayerBan, Tournament

LIVE_STATUSES = (Entry.Status.ACTIVE, Entry.Status.ELIMINATED)


def tournament_rules(tournament: Tournament) -> HouseRules:
    return resolve_house_rules(tournament.house_rules, tournament.rules_overrides)


def registration_deadline_level(tournament: Tournament) -> int | None:
    """The level whose end closes registration (docs/rules.md §2.2): 0 when the house allows no
    late registration (it closes at the start), else the tournament's late-registration level
    (None: open while the tournament runs)."""
    if not tournament_rules(tournament).late_registration:
        return 0
    return tournament.late_registration_level


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
    bagged: int = 0
    """A flight's players whose chips are bagged for Day 2 (docs/rules.md §15.3)."""
    bounty_pool: int = 0
    """A bounty tournament's bounties (docs/rules.md §16.1): `prize_money` is the rest."""


_PRIZE_KINDS = (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.REFUND_BUY_IN)
_FEE_KINDS = (LedgerEntry.Kind.FEE, LedgerEntry.Kind.REFUND_FEE)
# One pass over each of the tournament's entries, money and chips bought. Waiting-list entries
# have paid but are not in play; a refund cancels its payment; a purchase undone counts not.
SUMMARY_SQL = f"""
    SELECT e.active, e.eliminated, e.waiting, e.bagged, m.prize_money, m.fees,
        b.rebuys, b.addons, b.purchased_chips
    FROM (
        SELECT COUNT(*) FILTER (WHERE status = '{Entry.Status.ACTIVE}') AS active,
            COUNT(*) FILTER (WHERE status = '{Entry.Status.ELIMINATED}') AS eliminated,
            COUNT(*) FILTER (WHERE status = '{Entry.Status.WAITING}') AS waiting,
            COUNT(*) FILTER (WHERE status = '{Entry.Status.BAGGED}') AS bagged
        FROM tourney_entry WHERE tournament_id = %s
    ) e CROSS JOIN (
        SELECT SUM(l.amount) FILTER (
                WHERE l.kind IN ('{_PRIZE_KINDS[0]}', '{_PRIZE_KINDS[1]}')
                AND l.purpose <> '{LedgerEntry.Purpose.PRIZE}'
            ) AS prize_money,
            SUM(l.amount) FILTER (WHERE l.kind IN ('{_FEE_KINDS[0]}', '{_FEE_KINDS[1]}')) AS fees
        FROM tourney_ledgerentry l LEFT JOIN tourney_entry x ON x.id = l.entry_id
        WHERE l.tournament_id = %s
            AND (l.entry_id IS NULL OR x.status <> '{Entry.Status.WAITING}')
    ) m CROSS JOIN (
        SELECT COUNT(*) FILTER (WHERE kind = '{ChipPurchase.Kind.REBUY}') AS rebuys,
            COUNT(*) FILTER (WHERE kind = '{ChipPurchase.Kind.ADDON}') AS addons,
            SUM(chips) AS purchased_chips
        FROM tourney_chippurchase WHERE tournament_id = %s AND undone_at IS NULL
    ) b
"""
_SUMMARY_KEYS = (
    f"n_{Entry.Status.ACTIVE}",
    f"n_{Entry.Status.ELIMINATED}",
    f"n_{Entry.Status.WAITING}",
    f"n_{Entry.Status.BAGGED}",
    "prize_money",
    "fees",
    "rebuys",
    "addons",
    "purchased_chips",
)


def _summary_counts(tournament: Tournament) -> dict:
    """Entries by status, the money and the chips bought, in one statement. Read on every page
    and API call, by every screen: plain SQL, where building the ORM's query of scalar
    subqueries cost about 5 ms of CPU a call (docs/benchmarks.md)."""
    with connection.cursor() as cursor:
        cursor.execute(SUMMARY_SQL, [tournament.pk] * 3)
        row = cursor.fetchone()
    return {key: int(value or 0) for key, value in zip(_SUMMARY_KEYS, row, strict=True)}


def tournament_summary(tournament: Tournament) -> TournamentSummary:
    if tournament.is_main_event:
        return _main_event_summary(tournament)
    counts = _summary_counts(tournament)
    active = counts.get(f"n_{Entry.Status.ACTIVE}", 0)
    bagged = counts.get(f"n_{Entry.Status.BAGGED}", 0)
    entries = active + counts.get(f"n_{Entry.Status.ELIMINATED}", 0) + bagged
    # Every entry and every rebuy buys a bounty (docs/rules.md §16.1).
    bounties = bounty_pool(bounty_from(tournament.bounty), entries + counts.get("rebuys", 0))
    money = max(0, counts.get("prize_money", 0) - bounties)
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
        average_stack=total_chips // (active or bagged) if active or bagged else 0,
        capacity=tournament_capacity(tournament),
        prize_money=money,
        overlay=pool.overlay,
        guarantee=tournament.guarantee,
        rebuys=counts.get("rebuys", 0),
        addons=counts.get("addons", 0),
        purchased_chips=counts.get("purchased_chips", 0),
        bagged=bagged,
        bounty_pool=bounties,
    )


def _main_event_summary(main: Tournament) -> TournamentSummary:
    """A main event counts every flight (docs/rules.md §15.1): the entries and the money of
    all of them; before Day 2 the players left and the chips of the flights, from the Day-2
    draw its own field, whose chips are the bags it carried in."""
    flights = [tournament_summary(f) for f in Tournament.objects.filter(main_event=main)]
    own = _summary_counts(main)
    money = max(0, own["prize_money"] + sum(f.prize_money for f in flights))
    pool = prize_pool(money, main.guarantee)
    if main.seats_drawn_at is not None:
        left = own[f"n_{Entry.Status.ACTIVE}"]
        chips = (
            main.chips_carried + own["purchased_chips"] + main.chips_color_up - main.chips_removed
        )
    else:
        left = sum(f.players_remaining + f.bagged for f in flights)
        chips = sum(f.total_chips for f in flights)
    chips = max(0, chips)
    return TournamentSummary(
        entries=sum(f.entries for f in flights),
        players_remaining=left,
        waiting=sum(f.waiting for f in flights),
        prize_pool=pool.pool,
        fees=own["fees"] + sum(f.fees for f in flights),
        total_chips=chips,
        average_stack=chips // left if left else 0,
        capacity=tournament_capacity(main),
        prize_money=money,
        overlay=pool.overlay,
        guarantee=main.guarantee,
        rebuys=own["rebuys"] + sum(f.rebuys for f in flights),
        addons=own["addons"] + sum(f.addons for f in flights),
        purchased_chips=own["purchased_chips"] + sum(f.purchased_chips for f in flights),
        bagged=sum(f.bagged for f in flights),
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


def _entry_in(where: Q, entry_id: int) -> Entry:
    entry = (
        Entry.objects.select_related("player", "tournament_table")
        .filter(where, pk=entry_id)
        .first()
    )
    if entry is None:
        raise NotFound(
            "entry_not_found", _("There is no entry %(id)s in this tournament.") % {"id": entry_id}
        )
    return entry


def finisher_of(tournament: Tournament, entry_id: int) -> Entry:
    """An entry the tournament's results may place: its own, or for a main event also a
    flight's (a player out on Day 1 in the money, docs/rules.md §15.5); else 404."""
    where = Q(tournament=tournament)
    if tournament.is_main_event:
        where |= Q(tournament__main_event=tournament)
    return _entry_in(where, entry_id)


def entry_of(tournament: Tournament, entry_id: int) -> Entry:
    """The tournament's entry `entry_id` (with player and table), or 404 `entry_not_found`."""
    return _entry_in(Q(tournament=tournament), entry_id)
