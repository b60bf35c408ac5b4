"""Routes of entries: register, list, unregister, assign a seat, absent and arrived."""

from django.shortcuts import get_object_or_404
from ninja import Status

from infra.web.schema_types import Id, Line
from tourney.absence.usecases import entry_mark_absent
from tourney.core import roles
from tourney.models import Entry, Tournament
from tourney.registration.usecases import entry_register, entry_unregister
from tourney.system.schemas import (
    ERROR_RESPONSES,
    EntryIn,
    EntryOut,
    SeatAssignIn,
    entry_out,
)
from tourney.tournaments.api import router


@router.post(
    "/tournaments/{tournament_id}/entries",
    response={201: EntryOut, **ERROR_RESPONSES},
    tags=["entries"],
)
def register_entry(request, tournament_id: Id, payload: EntryIn):
    roles.require(request.auth, "desk")
    entry = entry_register(
        actor=request.auth,
        tournament_id=tournament_id,
        player_id=payload.player_id,
        method="ticket" if payload.ticket_id else payload.method,
        ticket_id=payload.ticket_id,
    )
    return Status(201, entry_out(entry))


@router.get("/tournaments/{tournament_id}/entries", response=list[EntryOut], tags=["entries"])
def list_entries(request, tournament_id: Id, status: Line | None = None):
    roles.require(request.auth, "read")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "tournament_table"
    )
    if status:
        entries = entries.filter(status=status)
    return [entry_out(e) for e in entries.order_by("number")]


@router.delete(
    "/tournaments/{tournament_id}/entries/{entry_id}",
    response={204: None, **ERROR_RESPONSES},
    tags=["entries"],
)
def unregister_entry(request, tournament_id: Id, entry_id: Id):
    roles.require(request.auth, "desk")
    entry_unregister(actor=request.auth, tournament_id=tournament_id, entry_id=entry_id)
    return Status(204, None)


@router.post(
    "/tournaments/{tournament_id}/entries/{entry_id}/seat",
    response={200: EntryOut, **ERROR_RESPONSES},
    tags=["entries"],
)
def assign_seat(request, tournament_id: Id, entry_id: Id, payload: SeatAssignIn):
    from tables.seating.usecases import entry_seat_assign

    roles.require(request.auth, "floor")
    entry = entry_seat_assign(
        actor=request.auth,
        tournament_id=tournament_id,
        entry_id=entry_id,
        table_number=payload.table,
        seat=payload.seat,
    )
    return entry_out(entry)


def _absence_route(action: str, absent: bool):
    def handler(request, tournament_id: Id, entry_id: Id):
        roles.require(request.auth, "floor")
        entry = entry_mark_absent(
            actor=request.auth, tournament_id=tournament_id, entry_id=entry_id, absent=absent
        )
        return entry_out(entry)

    handler.__name__ = f"entry_{action}"
    handler.__doc__ = (
        "Mark a seated entry absent; `arrived` undoes it."
        if absent
        else "Mark an absent entry arrived (undoes `absent`)."
    )
    router.post(
        f"/tournaments/{{tournament_id}}/entries/{{entry_id}}/{action}",
        response={200: EntryOut, **ERROR_RESPONSES},
        tags=["entries"],
        operation_id=f"entry_{action}",
    )(handler)


_absence_route("absent", True)
_absence_route("arrived", False)
