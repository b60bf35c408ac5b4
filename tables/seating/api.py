"""Rooms, the seat draw, tables and dealer hand reports."""

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Router, Status

from infra.web.schema_types import Id, SeatNumber, TableNumber
from tables.dealer_links.selectors import require_floor_at
from tables.hands.usecases import hand_misdeal, hand_report
from tables.models import Room, SeatRestriction
from tables.rooms.usecases import room_create, seat_restriction_clear, seat_restriction_set
from tables.seating.schemas import DrawOut, HandIn, RestrictionIn, RoomIn, RoomOut, TableOut
from tables.seating.selectors import tournament_tables_layout
from tables.seating.usecases import seats_draw
from tourney.core import roles
from tourney.core.errors import InvalidInput
from tourney.models import Tournament
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["tables"])
ERRORS = ERROR_RESPONSES


def room_out(room: Room) -> dict:
    return {
        "id": room.pk,
        "name": room.name,
        "tables": [{"number": t.number, "seats": t.seats} for t in room.tables.all()],
        "restrictions": [
            {"table": r.table.number, "seat": r.seat, "kind": r.kind, "note": r.note}
            for r in SeatRestriction.objects.filter(table__room=room).select_related("table")
        ],
    }


@router.post("/rooms", response={201: RoomOut, **ERRORS})
def create_room(request, payload: RoomIn):
    roles.require(request.auth, "director")
    room = room_create(
        actor=request.auth, name=payload.name, tables=[t.dict() for t in payload.tables]
    )
    return Status(201, room_out(room))


@router.get("/rooms", response=list[RoomOut])
def list_rooms(request):
    roles.require(request.auth, "read")
    return [room_out(r) for r in Room.objects.prefetch_related("tables")]


@router.put("/rooms/{room_id}/tables/{number}/seats/{seat}", response={200: RoomOut, **ERRORS})
def restrict_seat(
    request, room_id: Id, number: TableNumber, seat: SeatNumber, payload: RestrictionIn
):
    roles.require(request.auth, "director")
    seat_restriction_set(
        actor=request.auth,
        room_id=room_id,
        table_number=number,
        seat=seat,
        kind=payload.kind,
        note=payload.note,
    )
    return room_out(get_object_or_404(Room, pk=room_id))


@router.delete("/rooms/{room_id}/tables/{number}/seats/{seat}", response={200: RoomOut, **ERRORS})
def release_seat(request, room_id: Id, number: TableNumber, seat: SeatNumber):
    roles.require(request.auth, "director")
    seat_restriction_clear(actor=request.auth, room_id=room_id, table_number=number, seat=seat)
    return room_out(get_object_or_404(Room, pk=room_id))


@router.post("/tournaments/{tournament_id}/draw", response={200: DrawOut, **ERRORS})
def draw(request, tournament_id: Id):
    roles.require(request.auth, "director")
    return {"tables": seats_draw(actor=request.auth, tournament_id=tournament_id)}


@router.get("/tournaments/{tournament_id}/tables", response={200: list[TableOut], **ERRORS})
def tables(request, tournament_id: Id):
    roles.require(request.auth, "read")
    return tournament_tables_layout(get_object_or_404(Tournament, pk=tournament_id))


@router.post(
    "/tournaments/{tournament_id}/tables/{number}/hands", response={200: TableOut, **ERRORS}
)
def report_hand(request, tournament_id: Id, number: TableNumber, payload: HandIn | None = None):
    """A hand finished (the button moves), or with `misdeal` a misdeal (the button stays).
    Floor staff, or that table's dealer link."""
    require_floor_at(request.auth, tournament_id, number)
    if payload is not None and payload.misdeal:
        if payload.button_seat is not None:
            raise InvalidInput("invalid_input", _("A misdeal does not move the button."))
        table = hand_misdeal(actor=request.auth, tournament_id=tournament_id, table_number=number)
    else:
        table = hand_report(
            actor=request.auth,
            tournament_id=tournament_id,
            table_number=number,
            button_seat=payload.button_seat if payload else None,
        )
    layout = tournament_tables_layout(table.tournament)
    return next(t for t in layout if t["number"] == table.number)
