"""Cage receipts: one per ledger transaction, and an entry's registration receipt."""

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from tourney.models import Entry, LedgerEntry, Tournament
from tourney.system.pages import role_required


def _row_label(row: LedgerEntry) -> str:
    if row.purpose in (LedgerEntry.Purpose.REBUY, LedgerEntry.Purpose.ADDON):
        return f"{row.get_purpose_display()} · {row.get_kind_display()}"
    if row.purpose == LedgerEntry.Purpose.BOUNTY:
        return _("Bounties won")
    return row.get_kind_display()


def _title(rows: list[LedgerEntry], total: int, entry: Entry | None) -> str:
    purpose = rows[0].purpose
    if purpose in (LedgerEntry.Purpose.PRIZE, LedgerEntry.Purpose.BOUNTY):
        return _("Prize returned to the cage") if total > 0 else _("Prize")
    if purpose == LedgerEntry.Purpose.ENTRY:
        reentry = (
            entry is not None
            and Entry.objects.filter(
                tournament_id=entry.tournament_id,
                player_id=entry.player_id,
                number__lt=entry.number,
            )
            .exclude(status=Entry.Status.UNREGISTERED)
            .exists()
        )
        label = _("Re-entry") if reentry else _("Entry")
    else:
        label = rows[0].get_purpose_display()
    if total < 0 or all(r.amount < 0 for r in rows):
        return _("Refund · %(what)s") % {"what": label}
    return label


@role_required("desk")
def receipt_by_number(request, tournament_id: int, number: str):
    """One ledger transaction as a receipt: every row with this receipt number."""
    tournament = get_object_or_404(Tournament.objects.select_related("room"), pk=tournament_id)
    rows = list(
        LedgerEntry.objects.filter(tournament=tournament, receipt_number=number)
        .select_related("cashier", "entry__player", "entry__tournament_table", "purchase")
        .order_by("at", "id")
    )
    if not rows:
        raise Http404
    entry = rows[0].entry
    total = sum(r.amount for r in rows)
    purchase = rows[0].purchase
    for row in rows:
        row.label = _row_label(row)
        row.amount = abs(row.amount) if total < 0 else row.amount
    receipt = {
        "number": number,
        "title": _title(rows, total, entry),
        "total": abs(total),
        "paid_out": total < 0,
        "chips": purchase.chips if purchase is not None and total > 0 else None,
        "at": rows[0].at,
        "cashier": rows[0].cashier.get_username() if rows[0].cashier else "",
        "method": rows[0].get_method_display(),
    }
    return TemplateResponse(
        request,
        "tourney/receipt.html",
        {"tournament": tournament, "entry": entry, "rows": rows, "receipt": receipt},
    )


@role_required("desk")
def entry_receipt(request, tournament_id: int, entry_id: int):
    """The receipt of an entry's registration (its first payment)."""
    entry = get_object_or_404(Entry, tournament_id=tournament_id, pk=entry_id)
    number = (
        LedgerEntry.objects.filter(entry=entry, purpose=LedgerEntry.Purpose.ENTRY)
        .order_by("at", "id")
        .values_list("receipt_number", flat=True)
        .first()
    )
    if number is None:
        raise Http404
    url = reverse("tourney:receipt_number", args=[tournament_id, number])
    query = request.GET.urlencode()
    return redirect(f"{url}?{query}" if query else url)
