"""Routes of cancelling an event (docs/rules.md §18, docs/api.md): cancel, undo, the
settlement line by line, and the cage paying each entry back."""

from typing import Literal

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status

from infra.web.schema_types import BodyIn, Id, Text
from tourney.cancelling.selectors import cancellation_out, standing_cancellation
from tourney.cancelling.usecases import (
    REASON_MAX_LENGTH,
    cancel_settlement_pay,
    cancel_settlement_pay_undo,
    tournament_cancel,
    tournament_cancel_undo,
)
from tourney.core import roles
from tourney.core.errors import Conflict
from tourney.models import Tournament
from tourney.system.schemas import ERROR_RESPONSES, TournamentOut, tournament_out

router = Router(tags=["cancelling"])
BASE = "/tournaments/{tournament_id}/cancel"


class CancelIn(BodyIn):
    reason: Text = Field(..., min_length=1, max_length=REASON_MAX_LENGTH)
    settlement: Literal["refund", "chip_count", "equal"] | None = Field(
        None, description="After the start; default: the house rule `cancel_settlement`"
    )


class SettlementPayIn(BodyIn):
    method: Literal["cash", "card", "other"] = "cash"


class OwedOut(Schema):
    entry_id: int
    entry_number: int
    player_name: str
    status: str
    refund: int = Field(..., description="Buy-ins and fees paid back (tickets at their value)")
    share: int = Field(..., description="His share of the prizes left, with bounties he holds")
    amount: int
    by_ticket: bool
    paid: bool
    receipt_number: str


class CancellationOut(Schema):
    reason: str
    settlement: str
    at_ms: int
    entries: list[OwedOut]
    owed: int = Field(..., description="Still to pay back at the cage")
    paid: int
    undoable: bool = Field(..., description="No entry paid back yet: the cancellation can go")


class SettlementPaidOut(Schema):
    entry_id: int
    amount: int
    receipt_number: str
    receipt_url: str


@router.post(BASE, response={200: TournamentOut, **ERROR_RESPONSES})
def cancel(request, tournament_id: Id, payload: CancelIn):
    """Cancel the event with a reason (director): 409 `tournament_over`, `festival_event`,
    `deal_in_force`, `prizes_paid`, `chips_not_counted`."""
    roles.require(request.auth, "director")
    tournament = tournament_cancel(
        actor=request.auth,
        tournament_id=tournament_id,
        reason=payload.reason,
        settlement=payload.settlement,
    )
    return tournament_out(tournament)


@router.post(f"{BASE}/undo", response={200: TournamentOut, **ERROR_RESPONSES})
def cancel_undo(request, tournament_id: Id):
    """Take the cancellation back until the first entry is paid back (`settlement_paid`)."""
    roles.require(request.auth, "director")
    return tournament_out(tournament_cancel_undo(actor=request.auth, tournament_id=tournament_id))


@router.get(
    "/tournaments/{tournament_id}/cancellation",
    response={200: CancellationOut, **ERROR_RESPONSES},
)
def cancellation(request, tournament_id: Id):
    """The settlement of a cancelled event, entry by entry (409 `not_cancelled`)."""
    roles.require(request.auth, "read")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    out = cancellation_out(tournament, standing_cancellation(tournament))
    if out is None:
        raise Conflict("not_cancelled", _("This event is not cancelled."))
    return out


@router.post(
    f"{BASE}/entries/{{entry_id}}/pay", response={201: SettlementPaidOut, **ERROR_RESPONSES}
)
def pay_back(request, tournament_id: Id, entry_id: Id, payload: SettlementPayIn | None = None):
    """Pay one entry what it gets back (desk): `not_cancelled`, `nothing_owed`,
    `already_paid`."""
    roles.require(request.auth, "desk")
    row = cancel_settlement_pay(
        actor=request.auth,
        tournament_id=tournament_id,
        entry_id=entry_id,
        method=payload.method if payload else "cash",
    )
    number = row.receipt_number
    total = sum(r.amount for r in row.tournament.ledger.filter(receipt_number=number))
    return Status(
        201,
        {
            "entry_id": entry_id,
            "amount": -total,
            "receipt_number": number,
            "receipt_url": reverse("tourney:receipt_number", args=[tournament_id, number]),
        },
    )


@router.post(
    f"{BASE}/entries/{{entry_id}}/pay/undo", response={200: CancellationOut, **ERROR_RESPONSES}
)
def pay_back_undo(request, tournament_id: Id, entry_id: Id):
    """A payment back made to the wrong entry, taken back (director): `not_paid`."""
    roles.require(request.auth, "director")
    cancel_settlement_pay_undo(actor=request.auth, tournament_id=tournament_id, entry_id=entry_id)
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return cancellation_out(tournament, standing_cancellation(tournament))
