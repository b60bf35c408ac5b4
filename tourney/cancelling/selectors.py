"""A cancelled event's reads (docs/rules.md §18): the standing cancellation, and what each
entry gets back under its settlement and whether the cage has paid it.

The amounts are worked out again on every read from the ledger and the chip counts, which
stop changing once the event is cancelled (every play operation answers `tournament_over`)."""

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Sum

from infra.text.collation import sorted_by_name
from tourney.bounties.selectors import book_of, bounty_of
from tourney.core.errors import refusal
from tourney.domain.cancelling import CancelError, Settlement, cancel_shares
from tourney.domain.receipts import receipt_number
from tourney.models import Cancellation, Entry, LedgerEntry, Tournament
from tourney.payouts.selectors import payout_amounts
from tourney.tournaments.selectors import tournament_rules, tournament_summary

SETTLED = "C"
"""The receipt tail of a cancelled event's settlement (docs/rules.md §18)."""

_PAID_IN = (LedgerEntry.Purpose.ENTRY, LedgerEntry.Purpose.REBUY, LedgerEntry.Purpose.ADDON)
_PRIZE_PART = (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.REFUND_BUY_IN)


@dataclass
class Owed:
    """What one entry gets back: `refunds` maps (purpose, method) to the (buy-in, fee) still
    held; `share` the prize money of a `chip_count` or `equal` settlement (with the bounties
    he holds); `paid` once the cage has settled it."""

    entry_id: int
    number: int
    player_name: str
    status: str
    refunds: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)
    share: int = 0
    paid: bool = False

    @property
    def total(self) -> int:
        """All he gets back, tickets at their value included."""
        return self.share + sum(b + f for b, f in self.refunds.values())

    @property
    def by_ticket(self) -> bool:
        return any(method == LedgerEntry.Method.TICKET for _p, method in self.refunds)


def standing_cancellation(tournament: Tournament) -> Cancellation | None:
    return Cancellation.objects.filter(tournament=tournament, undone_at__isnull=True).first()


def cancel_reason(tournament: Tournament) -> str | None:
    """Why the event was cancelled, as every screen says it (None: not cancelled)."""
    if tournament.status != Tournament.Status.CANCELLED:
        return None
    cancellation = standing_cancellation(tournament)
    return cancellation.reason if cancellation else None


def held_payments(tournament: Tournament) -> dict[int, dict[tuple[str, str], tuple[int, int]]]:
    """Entry id -> (purpose, method) -> (buy-in, fee) paid in and not refunded, before the
    settlement (whose own rows are left out: what it pays back stays on the plan as paid)."""
    rows = (
        LedgerEntry.objects.filter(tournament=tournament, purpose__in=_PAID_IN)
        .exclude(receipt_number__contains=SETTLED)
        .values("entry_id", "purpose", "method", "kind")
        .annotate(total=Sum("amount"))
        .order_by()
    )
    held: dict[int, dict[tuple[str, str], list[int]]] = defaultdict(dict)
    for row in rows:
        parts = held[row["entry_id"]].setdefault((row["purpose"], row["method"]), [0, 0])
        parts[0 if row["kind"] in _PRIZE_PART else 1] += row["total"]
    return {
        entry_id: {key: (b, f) for key, (b, f) in parts.items() if b > 0 or f > 0}
        for entry_id, parts in held.items()
    }


def settlement_rows(tournament: Tournament, **filters):
    """The ledger rows of settlements paid (`C`, `C2`... receipts) and taken back (`CU`...):
    no other receipt tail holds a C (tourney/domain/receipts.py)."""
    return LedgerEntry.objects.filter(
        tournament=tournament, receipt_number__contains=SETTLED, **filters
    )


def settled_entries(tournament: Tournament) -> set[int]:
    """The entries whose settlement the cage has paid and not taken back."""
    rows = settlement_rows(tournament).values("entry_id").annotate(net=Sum("amount")).order_by()
    return {row["entry_id"] for row in rows if row["net"]}


def _shares(tournament: Tournament, settlement: Settlement, playing: list[Entry]) -> dict:
    """The players still in: the prizes of places 1..n shared, plus a bounty event's bounties
    on their heads and won by them (docs/rules.md §18)."""
    try:
        shares = cancel_shares(
            settlement,
            stacks={e.pk: e.chips for e in playing},
            prizes=payout_amounts(tournament, tournament_summary(tournament)),
            unit=tournament_rules(tournament).money_rounding,
        )
    except CancelError as exc:
        raise refusal(exc) from exc
    bounty = bounty_of(tournament)
    if bounty is not None and bounty.kind != "mystery":
        book = book_of(tournament, bounty)
        for entry_id in shares:
            shares[entry_id] += book.on_head.get(entry_id, 0) + book.won.get(entry_id, 0)
    return shares


def cancel_plan(tournament: Tournament, settlement: Settlement) -> list[Owed]:
    """Every entry that gets something back, by entry number. `refund`: each what he paid and
    has not had back. `chip_count` / `equal`: the players still in share the prizes left;
    those on the waiting list get their payment back; the players out keep their places'
    prizes (the results) and nothing more."""
    entries = list(
        Entry.objects.filter(tournament=tournament).select_related("player").order_by("number")
    )
    held = held_payments(tournament)
    settled = settled_entries(tournament)
    playing = [e for e in entries if e.status == Entry.Status.ACTIVE]
    shares = _shares(tournament, settlement, playing) if settlement != "refund" else {}
    refunded = (
        {e.pk for e in entries}
        if settlement == "refund"
        else {e.pk for e in entries if e.status == Entry.Status.WAITING}
    )
    plan = []
    for entry in entries:
        owed = Owed(
            entry.pk,
            entry.number,
            entry.player.name,
            entry.status,
            refunds=held.get(entry.pk, {}) if entry.pk in refunded else {},
            share=shares.get(entry.pk, 0),
            paid=entry.pk in settled,
        )
        if owed.total > 0 or owed.paid:
            plan.append(owed)
    return plan


def owed_of(tournament: Tournament, settlement: Settlement, entry_id: int) -> Owed | None:
    return next((o for o in cancel_plan(tournament, settlement) if o.entry_id == entry_id), None)


def owed_out(tournament: Tournament, owed: Owed) -> dict:
    """One line of the settlement for the API and the console."""
    return {
        "entry_id": owed.entry_id,
        "entry_number": owed.number,
        "player_name": owed.player_name,
        "status": owed.status,
        "refund": sum(b + f for b, f in owed.refunds.values()),
        "share": owed.share,
        "amount": owed.total,
        "by_ticket": owed.by_ticket,
        "paid": owed.paid,
        "receipt_number": receipt_number(tournament.pk, owed.number, SETTLED),
    }


def cancellation_out(tournament: Tournament, cancellation: Cancellation | None) -> dict | None:
    """The standing cancellation with its settlement, line by line (None: not cancelled)."""
    if cancellation is None:
        return None
    # By name in the reader's language: the cage looks up the player in front of it.
    plan = sorted_by_name(
        (owed_out(tournament, o) for o in cancel_plan(tournament, cancellation.settlement)),
        key=lambda row: row["player_name"],
    )
    return {
        "reason": cancellation.reason,
        "settlement": cancellation.settlement,
        "at_ms": int(cancellation.at.timestamp() * 1000),
        "entries": plan,
        "owed": sum(o["amount"] for o in plan if not o["paid"]),
        "paid": sum(o["amount"] for o in plan if o["paid"]),
        "undoable": not any(o["paid"] for o in plan),
    }
