"""The desk's money safety net: refund after a confirmation (amount, method) with Undo, and
what each listed entry offers (seat card, receipt, refund) wherever the desk shows it."""

from django.contrib import messages
from django.db.models import OuterRef, Subquery
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.text.money import money_text
from infra.web.schema_types import whole_number
from tourney.forms import RefundForm
from tourney.models import Entry, LedgerEntry, Tournament
from tourney.services.entries import entry_unregister
from tourney.views_support import role_required, run_service


def refund_undo_url(tournament_id: int, entry_id: int) -> str:
    return f"/api/v1/tournaments/{tournament_id}/entries/{entry_id}/refund/undo"


def entry_refundable(tournament: Tournament, entry: Entry) -> bool:
    """A waiting entry any time, a playing one until the start (entry_unregister's rule)."""
    return entry.status == Entry.Status.WAITING or (
        entry.status == Entry.Status.ACTIVE and tournament.status == Tournament.Status.REGISTERING
    )


def desk_entries(tournament: Tournament, entries):
    """`entries` (a queryset) with what the desk shows on each row: `paid_method`, the last
    `refund_receipt`, `refundable`, `refund_undo_url`."""
    paid = LedgerEntry.objects.filter(
        entry=OuterRef("pk"), amount__gt=0, purpose=LedgerEntry.Purpose.ENTRY
    ).order_by("at", "id")
    refunds = LedgerEntry.objects.filter(
        entry=OuterRef("pk"), amount__lt=0, purpose=LedgerEntry.Purpose.ENTRY
    ).order_by("-at", "-id")
    rows = list(
        entries.select_related("player", "tournament_table").annotate(
            paid_method=Subquery(paid.values("method")[:1]),
            refund_receipt=Subquery(refunds.values("receipt_number")[:1]),
        )
    )
    methods = dict(LedgerEntry.Method.choices)
    for entry in rows:
        entry.refundable = entry_refundable(tournament, entry)
        entry.paid_method_label = methods.get(entry.paid_method or "", "")
        entry.refund_undo_url = refund_undo_url(tournament.pk, entry.pk)
    return rows


@role_required("desk")
@require_POST
def desk_refund(request, tournament_id: int, entry_id: int):
    """The confirmed refund (the desk's dialog sends the amount shown and the method)."""
    form = RefundForm(request.POST)
    url = reverse("tourney:desk", args=[tournament_id])
    if not form.is_valid():
        messages.error(request, next(iter(form.errors.values()))[0])
        return redirect(url)
    method = form.cleaned_data["method"] or None
    entry = run_service(
        request,
        lambda: entry_unregister(
            actor=request.user, tournament_id=tournament_id, entry_id=entry_id, method=method
        ),
    )
    if entry is None:
        return redirect(url)
    tournament = entry.tournament
    refund = LedgerEntry.objects.filter(entry=entry, amount__lt=0).order_by("-at", "-id").first()
    messages.success(
        request,
        _("Refund: %(amount)s (%(method)s) to %(name)s.")
        % {
            "amount": money_text(tournament.entry_price, tournament.currency),
            "method": refund.get_method_display().lower() if refund else "",
            "name": entry.player.name,
        },
        extra_tags=f"undo:{refund_undo_url(tournament_id, entry.pk)}",
    )
    return redirect(f"{url}?refunded={entry.pk}")


def refunded_entry(tournament: Tournament, entry_id: str | None) -> Entry | None:
    """The desk's confirmation after a refund (`?refunded=<id>`): receipt and Undo."""
    entry_pk = whole_number(entry_id, least=1)
    if entry_pk is None:
        return None
    rows = desk_entries(
        tournament,
        Entry.objects.filter(tournament=tournament, pk=entry_pk, status=Entry.Status.UNREGISTERED),
    )
    return rows[0] if rows else None
