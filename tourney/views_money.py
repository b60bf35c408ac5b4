"""Money pages: cage receipts (one per ledger transaction) and the desk's rebuy and add-on
confirmation. The desk buys through the API (tourney/api_purchases.py); these only read."""

from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.translation import gettext as _

from tourney.models import ChipPurchase, Entry, LedgerEntry, Tournament
from tourney.selectors import tournament_rules
from tourney.views_support import role_required


def _row_label(row: LedgerEntry) -> str:
    if row.purpose in (LedgerEntry.Purpose.REBUY, LedgerEntry.Purpose.ADDON):
        return f"{row.get_purpose_display()} · {row.get_kind_display()}"
    return row.get_kind_display()


def _title(rows: list[LedgerEntry], total: int, entry: Entry | None) -> str:
    purpose = rows[0].purpose
    if purpose == LedgerEntry.Purpose.PRIZE:
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


def desk_purchase(tournament: Tournament, purchase_id: str | None) -> dict | None:
    """The desk's confirmation of a rebuy or add-on (`?purchase=<id>`), None if unknown."""
    from tourney.services.purchases import chip_purchase_out

    if not (purchase_id or "").isdigit():
        return None
    purchase = (
        ChipPurchase.objects.filter(tournament=tournament, pk=int(purchase_id))
        .select_related("entry__player", "entry__tournament_table", "tournament")
        .prefetch_related("ledger")
        .first()
    )
    if purchase is None:
        return None
    out = chip_purchase_out(purchase)
    if out["refund_receipt_number"]:
        out["refund_receipt_url"] = reverse(
            "tourney:receipt_number", args=[tournament.pk, out["refund_receipt_number"]]
        )
    out["entry"] = purchase.entry
    return out


def desk_purchase_rows(tournament: Tournament, results: list[dict]) -> None:
    """Add to the desk's search rows each player's latest entry and what it may buy now
    (`entry`, `purchase`: {"rebuy": option, "addon": option}, see `purchase_options`)."""
    from tourney.services.purchases import purchase_options

    if tournament.status not in (Tournament.Status.RUNNING, Tournament.Status.FINISHED):
        return
    if tournament.rebuy_until_level is None and tournament.addon_level is None:
        return
    latest: dict[int, Entry] = {}
    for entry in (
        Entry.objects.filter(
            tournament=tournament,
            player_id__in=[r["player"].pk for r in results],
            status__in=(Entry.Status.ACTIVE, Entry.Status.ELIMINATED),
        )
        .select_related("tournament_table")
        .order_by("number")
    ):
        latest[entry.player_id] = entry
    options = purchase_options(tournament, list(latest.values()))
    reentries = tournament_rules(tournament).reentry_max
    price = {
        "rebuy": (tournament.rebuy_buy_in + tournament.rebuy_fee, tournament.rebuy_chips),
        "addon": (tournament.addon_buy_in + tournament.addon_fee, tournament.addon_chips),
    }
    for row in results:
        entry = latest.get(row["player"].pk)
        if entry is None or entry.pk not in options:
            continue
        offer = options[entry.pk]
        for kind, option in offer.items():
            option["price"], option["chips"] = price[kind]
        row["entry"] = entry
        row["purchase"] = offer
        row["can_buy"] = any(o["allowed"] for o in offer.values())
        row["can_reenter"] = entry.status == Entry.Status.ELIMINATED and reentries > 0


def bustout_rebuy_links(user, tournament_id: int, entry_ids: set[int]) -> dict[int, dict]:
    """For the console's bust-out toast: a "Rebuy" link to the desk for each busted entry that
    may still rebuy (and only for staff who take money)."""
    from tourney import roles
    from tourney.services.purchases import purchase_options

    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None or tournament.rebuy_until_level is None or not roles.can(user, "desk"):
        return {}
    entries = list(Entry.objects.filter(tournament=tournament, pk__in=entry_ids))
    options = purchase_options(tournament, entries)
    desk = reverse("tourney:desk", args=[tournament.pk])
    return {
        entry_id: {"href": f"{desk}?entry={entry_id}", "label": _("Rebuy")}
        for entry_id, offer in options.items()
        if offer.get("rebuy", {}).get("allowed")
    }
