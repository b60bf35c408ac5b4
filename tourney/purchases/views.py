"""The desk's rebuy and add-on confirmation and offers. The desk buys through the API
(tourney/purchases/api.py); these only read."""

from django.urls import reverse
from django.utils.translation import gettext as _

from infra.web.schema_types import whole_number
from tourney.core import roles
from tourney.models import ChipPurchase, Entry, Tournament
from tourney.purchases.usecases import chip_purchase_out, purchase_options
from tourney.tournaments.selectors import tournament_rules


def desk_purchase(tournament: Tournament, purchase_id: str | None) -> dict | None:
    """The desk's confirmation of a rebuy or add-on (`?purchase=<id>`), None if unknown."""
    purchase_pk = whole_number(purchase_id, least=1)
    if purchase_pk is None:
        return None
    purchase = (
        ChipPurchase.objects.filter(tournament=tournament, pk=purchase_pk)
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
