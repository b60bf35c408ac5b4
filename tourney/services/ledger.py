"""The cage's ledger rows: one receipt number per transaction, price = buy-in + fee.

Every payment in (an entry, a rebuy, an add-on), its refund and a prize paid are written here,
so receipt numbers keep one format: `<tournament>-<entry number, 4 digits><tail>` (tail `""`
for the entry, `-B<n>`/`-A<n>` for the n-th rebuy/add-on, `P` for the prize, `R` appended for
a refund). Amounts are integers in the tournament's currency; positive = paid in.
"""

from collections.abc import Sequence
from datetime import datetime

from django.db.models import QuerySet, Sum

from tourney.models import LedgerEntry

REFUND = "R"
PRIZE = "P"

_PAID = (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.FEE)
_REFUNDED = (LedgerEntry.Kind.REFUND_BUY_IN, LedgerEntry.Kind.REFUND_FEE)


def receipt_number(tournament_id: int, entry_number: int, tail: str = "") -> str:
    return f"{tournament_id}-{entry_number:04d}{tail}"


def repeat_tail(base: str, times_before: int) -> str:
    """The tail of the n-th transaction of one kind for an entry (a refund after its undo, a
    prize paid again): `R`, `R2`, `R3`... so every transaction keeps a receipt number of its
    own."""
    return base if times_before == 0 else f"{base}{times_before + 1}"


def prizes_paid(**filters) -> QuerySet:
    """The entries (`entry_id`, `net`) whose prize is paid now: payouts (negative) less the
    prizes returned to the cage when a payment was undone (positive `payout` rows)."""
    return (
        LedgerEntry.objects.filter(kind=LedgerEntry.Kind.PAYOUT, **filters)
        .order_by()
        .values("entry_id")
        .annotate(net=Sum("amount"))
        .filter(net__lt=0)
    )


def ledger_price_write(
    *,
    tournament_id: int,
    entry_id: int,
    prices: Sequence[int],
    sign: int,
    method: str,
    cashier,
    at: datetime,
    receipt: str,
    purpose: str = LedgerEntry.Purpose.ENTRY,
    purchase_id: int | None = None,
) -> None:
    """The buy-in and fee rows of one payment (`sign` +1) or its refund (-1); a zero part
    writes no row."""
    LedgerEntry.objects.bulk_create(
        ledger_price_rows(
            tournament_id=tournament_id,
            entry_id=entry_id,
            prices=prices,
            sign=sign,
            method=method,
            cashier=cashier,
            at=at,
            receipt=receipt,
            purpose=purpose,
            purchase_id=purchase_id,
        )
    )


def ledger_price_rows(
    *,
    tournament_id: int,
    entry_id: int,
    prices: Sequence[int],
    sign: int,
    method: str,
    cashier,
    at: datetime,
    receipt: str,
    purpose: str = LedgerEntry.Purpose.ENTRY,
    purchase_id: int | None = None,
) -> list[LedgerEntry]:
    """`ledger_price_write`'s rows, unsaved (for a `WriteBatch`)."""
    kinds = _PAID if sign > 0 else _REFUNDED
    return [
        LedgerEntry(
            tournament_id=tournament_id,
            entry_id=entry_id,
            kind=kind,
            purpose=purpose,
            purchase_id=purchase_id,
            amount=sign * amount,
            method=method,
            cashier=cashier,
            at=at,
            receipt_number=receipt,
        )
        for kind, amount in zip(kinds, prices, strict=True)
        if amount
    ]
