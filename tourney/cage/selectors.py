"""The cage's reads: the prizes paid, a ledger payment as the API shows it."""

from django.db.models import QuerySet, Sum
from django.urls import reverse

from tourney.models import LedgerEntry


def ledger_row_out(tournament_id: int, row: LedgerEntry) -> dict:
    """A cage payment for the API: amount, method, its receipt number and where it prints."""
    return {
        "id": row.pk,
        "entry_id": row.entry_id,
        "amount": row.amount,
        "method": row.method,
        "receipt_number": row.receipt_number,
        "receipt_url": reverse("tourney:receipt_number", args=[tournament_id, row.receipt_number]),
    }


def receipt_total(tournament_id: int, number: str) -> int:
    """What one receipt moved in all (a prize with the bounties won: two rows, one receipt)."""
    rows = LedgerEntry.objects.filter(tournament_id=tournament_id, receipt_number=number)
    return rows.aggregate(total=Sum("amount"))["total"] or 0


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
