"""Rebuys, add-ons and their undo (docs/rules.md §2.5, §2.6): the desk takes the money."""

from django.shortcuts import get_object_or_404
from ninja import Router, Status

from infra.web.schema_types import Id
from tourney.core import roles
from tourney.models import Tournament
from tourney.purchases.schemas import AddonIn, ChipPurchaseOut, RebuyIn
from tourney.purchases.usecases import (
    chip_purchase_out,
    chip_purchase_undo,
    chip_purchases_list,
    entry_addon,
    entry_rebuy,
)
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["money"])
ERRORS = ERROR_RESPONSES
BASE = "/tournaments/{tournament_id}"


@router.post(f"{BASE}/entries/{{entry_id}}/rebuy", response={201: ChipPurchaseOut, **ERRORS})
def rebuy(request, tournament_id: Id, entry_id: Id, payload: RebuyIn | None = None):
    """A rebuy. A busted player's rebuy takes back his bust-out while no hand has
    been dealt at his table since; refusals: `no_rebuys`, `rebuy_closed`, `rebuy_limit`,
    `rebuy_not_allowed`, `rebuy_too_late`, `stack_required`."""
    roles.require(request.auth, "desk")
    payload = payload or RebuyIn()
    purchase = entry_rebuy(
        actor=request.auth,
        tournament_id=tournament_id,
        entry_id=entry_id,
        stack=payload.stack,
        method=payload.method,
    )
    return Status(201, chip_purchase_out(purchase))


@router.post(f"{BASE}/entries/{{entry_id}}/addon", response={201: ChipPurchaseOut, **ERRORS})
def addon(request, tournament_id: Id, entry_id: Id, payload: AddonIn | None = None):
    """The add-on: one per playing entry, in the period after the add-on level; refusals:
    `no_addons`, `addon_closed`, `addon_twice`."""
    roles.require(request.auth, "desk")
    purchase = entry_addon(
        actor=request.auth,
        tournament_id=tournament_id,
        entry_id=entry_id,
        method=(payload or AddonIn()).method,
    )
    return Status(201, chip_purchase_out(purchase))


@router.get(f"{BASE}/chip-purchases", response={200: list[ChipPurchaseOut], **ERRORS})
def chip_purchases(request, tournament_id: Id, entry_id: Id | None = None):
    """Rebuys and add-ons, newest first (`?entry_id=` for one entry's)."""
    roles.require(request.auth, "read")
    return chip_purchases_list(get_object_or_404(Tournament, pk=tournament_id), entry_id)


@router.post(
    f"{BASE}/chip-purchases/{{purchase_id}}/undo", response={200: ChipPurchaseOut, **ERRORS}
)
def undo_chip_purchase(request, tournament_id: Id, purchase_id: Id):
    """Undo a mistaken rebuy or add-on: refunded, chips out of play; a rebuy that took back a
    bust-out busts the entry again."""
    roles.require(request.auth, "desk")
    purchase = chip_purchase_undo(
        actor=request.auth, tournament_id=tournament_id, purchase_id=purchase_id
    )
    return chip_purchase_out(purchase)
