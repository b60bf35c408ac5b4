"""Routes of tickets (docs/rules.md §17.4): a player's tickets; transfer, cash-out, undo."""

from typing import Literal

from django.shortcuts import get_object_or_404
from ninja import Router, Schema

from infra.web.schema_types import BodyIn, Id
from tourney.core import roles
from tourney.models import Player
from tourney.system.schemas import ERROR_RESPONSES
from tourney.tickets.selectors import tickets_of_player
from tourney.tickets.usecases import ticket_cash_out, ticket_change_undo, ticket_transfer

router = Router(tags=["tickets"])


class TicketOut(Schema):
    id: int
    target_id: int
    target_name: str
    value: int
    status: str
    source_id: int
    source_name: str
    entry_id: int | None = None
    partial: bool = False


class TransferIn(BodyIn):
    target_id: Id


class CashOutIn(BodyIn):
    method: Literal["cash", "card", "other"] = "cash"


@router.get("/players/{player_id}/tickets", response={200: list[TicketOut], **ERROR_RESPONSES})
def player_tickets(request, player_id: Id):
    """The player's tickets won in satellites, newest first: active, used or cashed out."""
    roles.require(request.auth, "read")
    return tickets_of_player(get_object_or_404(Player, pk=player_id).pk)


@router.post("/tickets/{ticket_id}/transfer", response={200: TicketOut, **ERROR_RESPONSES})
def transfer_ticket(request, ticket_id: Id, payload: TransferIn):
    roles.require(request.auth, "desk")
    return ticket_transfer(actor=request.auth, ticket_id=ticket_id, target_id=payload.target_id)


@router.post("/tickets/{ticket_id}/cash-out", response={200: TicketOut, **ERROR_RESPONSES})
def cash_out_ticket(request, ticket_id: Id, payload: CashOutIn):
    roles.require(request.auth, "desk")
    return ticket_cash_out(actor=request.auth, ticket_id=ticket_id, method=payload.method)


@router.post("/tickets/{ticket_id}/undo", response={200: TicketOut, **ERROR_RESPONSES})
def undo_ticket_change(request, ticket_id: Id):
    roles.require(request.auth, "desk")
    return ticket_change_undo(actor=request.auth, ticket_id=ticket_id)
