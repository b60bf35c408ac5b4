"""Rooms, the seat draw, tables and dealer hand reports."""

from django.shortcuts import get_object_or_404
from ninja import Router

from infra.web.schema_types import Id
from tables.seating.schemas import DrawOut, TableOut
from tables.seating.selectors import tournament_tables_layout
from tables.seating.usecases import seats_draw, seats_draw_undo
from tourney.core import roles
from tourney.models import Tournament
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["tables"])
ERRORS = ERROR_RESPONSES


@router.post("/tournaments/{tournament_id}/draw", response={200: DrawOut, **ERRORS})
def draw(request, tournament_id: Id):
    roles.require(request.auth, "director")
    return {"tables": seats_draw(actor=request.auth, tournament_id=tournament_id)}


@router.post("/tournaments/{tournament_id}/draw/undo", response={200: DrawOut, **ERRORS})
def draw_undo(request, tournament_id: Id):
    """Take the draw back before the start: every player unseated, the draw to make again;
    the answer is the chart (no table in play)."""
    roles.require(request.auth, "director")
    tournament = seats_draw_undo(actor=request.auth, tournament_id=tournament_id)
    return {"tables": tournament_tables_layout(tournament)}


@router.get("/tournaments/{tournament_id}/tables", response={200: list[TableOut], **ERRORS})
def tables(request, tournament_id: Id):
    roles.require(request.auth, "read")
    return tournament_tables_layout(get_object_or_404(Tournament, pk=tournament_id))
