"""Routes of rooms: their tables and seat restrictions."""

import datetime

from django.shortcuts import get_object_or_404
from ninja import Router, Status

from infra.web.schema_types import Id, SeatNumber, TableNumber
from tables.models import Room, SeatRestriction
from tables.rooms.usecases import (
    room_create,
    room_settings_update,
    seat_restriction_clear,
    seat_restriction_set,
)
from tables.seating.schemas import RestrictionIn, RoomIn, RoomOut, RoomPatch
from tourney.core import roles
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
        "gaming_day_starts": room.gaming_day_starts.strftime("%H:%M"),
        "operator_name": room.operator_name,
        "operator_address": room.operator_address,
        "operator_tax_number": room.operator_tax_number,
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


@router.patch("/rooms/{room_id}", response={200: RoomOut, **ERRORS})
def update_room(request, room_id: Id, payload: RoomPatch):
    """The room's gaming day and its operator (director)."""
    roles.require(request.auth, "director")
    changes = payload.dict(exclude_unset=True)
    if changes.get("gaming_day_starts"):
        changes["gaming_day_starts"] = datetime.time.fromisoformat(changes["gaming_day_starts"])
    room = room_settings_update(actor=request.auth, room_id=room_id, changes=changes)
    return room_out(room)


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
