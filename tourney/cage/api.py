"""Cage routes: a refund with its method and the undo of a refund or of a prize paid."""

from typing import Literal

from ninja import Router

from infra.web.schema_types import BodyIn, Id
from tourney.cage.selectors import ledger_row_out
from tourney.cage.usecases import entry_refund_undo, prize_pay_undo
from tourney.core import roles
from tourney.payouts.schemas import PrizePaidOut
from tourney.registration.usecases import entry_unregister
from tourney.system.schemas import ERROR_RESPONSES, EntryOut, entry_out

router = Router(tags=["entries"])


class RefundIn(BodyIn):
    method: Literal["cash", "card", "other"] | None = None


@router.post(
    "/tournaments/{tournament_id}/entries/{entry_id}/refund",
    response={200: EntryOut, **ERROR_RESPONSES},
)
def refund_entry(request, tournament_id: Id, entry_id: Id, payload: RefundIn | None = None):
    """Unregister and refund buy-in and fee (by `method`; default: as paid). The same as
    `DELETE .../entries/{entry_id}`, with the method and the entry in the answer."""
    roles.require(request.auth, "desk")
    entry = entry_unregister(
        actor=request.auth,
        tournament_id=tournament_id,
        entry_id=entry_id,
        method=payload.method if payload else None,
    )
    return entry_out(entry)


@router.post(
    "/tournaments/{tournament_id}/entries/{entry_id}/refund/undo",
    response={200: EntryOut, **ERROR_RESPONSES},
)
def undo_refund(request, tournament_id: Id, entry_id: Id):
    """Take a refund back: the entry plays (or waits) again and pays again (409
    `not_refunded`, `registration_closed`, `already_registered`, `tournament_full`)."""
    roles.require(request.auth, "desk")
    return entry_out(
        entry_refund_undo(actor=request.auth, tournament_id=tournament_id, entry_id=entry_id)
    )


@router.post(
    "/tournaments/{tournament_id}/results/{entry_id}/pay/undo",
    response={200: PrizePaidOut, **ERROR_RESPONSES},
    tags=["payouts"],
)
def undo_prize_payment(request, tournament_id: Id, entry_id: Id):
    """Take a prize payment back: the money returns to the cage (409 `not_paid`)."""
    roles.require(request.auth, "desk")
    row = prize_pay_undo(actor=request.auth, tournament_id=tournament_id, entry_id=entry_id)
    return ledger_row_out(tournament_id, row)
