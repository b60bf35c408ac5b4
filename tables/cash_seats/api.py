"""Routes of the cash floor's seats (docs/rules.md §20.2-§20.5): an open seat called, the call
taken or passed, a player seated by the floor, standing up, away and back."""

from ninja import Router, Status

from infra.web.schema_types import BodyIn, Id, bounded
from tables.cash.selectors import call_out, cash_table_of, cash_table_out
from tables.cash_seats.usecases import (
    cash_call_pass,
    cash_call_take,
    cash_seat_away,
    cash_seat_call,
    cash_seat_direct,
    cash_seat_leave,
)
from tourney.core import roles
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["cash games"])
SEAT = "/cash-tables/{cash_table_id}/seats/{seat}"
Seat = bounded(1, 12)


class SeatPlayerIn(BodyIn):
    player_id: Id


class AwayIn(BodyIn):
    away: bool


@router.post(f"{SEAT}/call", response={201: dict, **ERROR_RESPONSES})
def call_seat(request, cash_table_id: Id, seat: Seat):
    """Offer the open seat to who comes next (a must-move table's longest player, the table
    changes, the list): his phone and the TV call him; one call stands a seat."""
    roles.require(request.auth, "floor")
    call = cash_seat_call(actor=request.auth, cash_table_id=cash_table_id, seat=seat)
    return Status(201, call_out(call))


@router.post("/cash-calls/{call_id}/take", response={200: dict, **ERROR_RESPONSES})
def take_call(request, call_id: Id):
    roles.require(request.auth, "floor")
    taken = cash_call_take(actor=request.auth, call_id=call_id)
    return cash_table_out(cash_table_of(taken.cash_table_id))


@router.post("/cash-calls/{call_id}/pass", response={200: dict, **ERROR_RESPONSES})
def pass_call(request, call_id: Id):
    roles.require(request.auth, "floor")
    return call_out(cash_call_pass(actor=request.auth, call_id=call_id))


@router.post(SEAT, response={201: dict, **ERROR_RESPONSES})
def seat_player(request, cash_table_id: Id, seat: Seat, payload: SeatPlayerIn):
    roles.require(request.auth, "floor")
    cash_seat_direct(
        actor=request.auth, cash_table_id=cash_table_id, seat=seat, player_id=payload.player_id
    )
    return Status(201, cash_table_out(cash_table_of(cash_table_id)))


@router.post(f"{SEAT}/leave", response={200: dict, **ERROR_RESPONSES})
def leave_seat(request, cash_table_id: Id, seat: Seat):
    roles.require(request.auth, "floor")
    cash_seat_leave(actor=request.auth, cash_table_id=cash_table_id, seat=seat)
    return cash_table_out(cash_table_of(cash_table_id))


@router.post(f"{SEAT}/away", response={200: dict, **ERROR_RESPONSES})
def away_seat(request, cash_table_id: Id, seat: Seat, payload: AwayIn):
    roles.require(request.auth, "floor")
    cash_seat_away(actor=request.auth, cash_table_id=cash_table_id, seat=seat, away=payload.away)
    return cash_table_out(cash_table_of(cash_table_id))
