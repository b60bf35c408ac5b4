"""The cage's reads: a ledger payment as the API shows it."""

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
