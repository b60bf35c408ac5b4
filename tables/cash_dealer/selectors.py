"""A cash table's dealer link (docs/rules.md §20.5): signed, good while the table is open (a
table closed and opened again is another table, with another link)."""

from __future__ import annotations

from django.conf import settings
from django.core import signing

from tables.models import CashTable


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.DISPLAY_LINK_SALT + ".cash-dealer")


def dealer_token(table: CashTable) -> str:
    return _signer().sign_object({"t": table.pk})


def table_of_dealer_token(token: str) -> CashTable | None:
    """The open cash table a dealer token names, or None (forged, malformed or closed)."""
    try:
        data = _signer().unsign_object(token)
    except signing.BadSignature:
        return None
    table_id = data.get("t") if isinstance(data, dict) else None
    if not isinstance(table_id, int):
        return None
    return (
        CashTable.objects.filter(pk=table_id, status=CashTable.Status.OPEN)
        .select_related("room")
        .first()
    )
