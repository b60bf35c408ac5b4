"""The cage's ledger rows: a payment's buy-in and fee (or their refund) under one receipt
number (tourney/domain/receipts.py). Amounts are integers in the tournament's currency;
positive = paid in. Inside the caller's transaction."""

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from tourney.models import LedgerEntry

_PAID = (LedgerEntry.Kind.BUY_IN, LedgerEntry.Kind.FEE)
_REFUNDED = (LedgerEntry.Kind.REFUND_BUY_IN, LedgerEntry.Kind.REFUND_FEE)


def ledger_price_write(**fields: Any) -> None:
    """The buy-in and fee rows of one payment (`sign` +1) or its refund (-1), written; the
    fields are `ledger_price_rows`'s. A zero part writes no row."""
    LedgerEntry.objects.bulk_create(ledger_price_rows(**fields))


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
