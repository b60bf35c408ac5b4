"""Color-ups and chip races at the breaks (docs/rules.md §8): per table, with undo."""

from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema, Status

from clocks.color_ups.schemas import (
    ColorUpFoundIn,
    ColorUpFoundOut,
    ColorUpIn,
    ColorUpOut,
    ColorUpStatusOut,
)
from clocks.color_ups.selectors import color_up_preview, color_ups_status
from clocks.color_ups.usecases import (
    color_up_confirm,
    color_up_found,
    color_up_run,
    color_up_undo,
)
from infra.web.schema_types import Id, PeriodIndex
from tables.dealer_links.selectors import require_color_up_at, require_floor_at
from tourney.core import roles
from tourney.models import Tournament
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["color-ups"])
ERRORS = ERROR_RESPONSES
BASE = "/tournaments/{tournament_id}/color-ups"


def _seats(payload: ColorUpIn) -> list[dict]:
    return [s.dict() for s in payload.seats]


class StatusQuery(Schema):
    period_index: PeriodIndex | None = None


@router.get(BASE, response={200: ColorUpStatusOut, **ERRORS})
def color_ups(request, tournament_id: Id, filters: Query[StatusQuery]):
    """The current break's color-up (or the break at `?period_index=`): each table open,
    dealt (a race waiting for its confirmation) or done."""
    roles.require(request.auth, "read")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return color_ups_status(tournament, period_index=filters.period_index)


@router.post(f"{BASE}/preview", response={200: ColorUpOut, **ERRORS})
def preview_color_up(request, tournament_id: Id, payload: ColorUpIn):
    """Nothing saved: a round-up's new stacks, or a race's plan (cards per seat, chips to
    race; the outcome as well when `cards` are given)."""
    require_floor_at(request.auth, tournament_id, payload.table)
    if payload.override:
        roles.require(request.auth, "director")
    return color_up_preview(
        get_object_or_404(Tournament, pk=tournament_id),
        table_number=payload.table,
        seats=_seats(payload),
        method=payload.method,
        cards=payload.cards,
        override=payload.override,
        period_index=payload.period_index,
    )


@router.post(BASE, response={201: ColorUpOut, **ERRORS})
def run_color_up(request, tournament_id: Id, payload: ColorUpIn):
    """Color up one table: who gets a chip, the cards dealt, the stacks after and the change
    of the chips in play."""
    require_floor_at(request.auth, tournament_id, payload.table)
    if payload.override:
        roles.require(request.auth, "director")
    row = color_up_run(
        actor=request.auth,
        tournament_id=tournament_id,
        table_number=payload.table,
        seats=_seats(payload),
        method=payload.method,
        cards=payload.cards,
        confirm=payload.confirm,
        override=payload.override,
        period_index=payload.period_index,
    )
    return Status(201, row)


@router.post(f"{BASE}/{{color_up_id}}/confirm", response={200: ColorUpOut, **ERRORS})
def confirm_color_up(request, tournament_id: Id, color_up_id: Id):
    require_color_up_at(request.auth, tournament_id, color_up_id)
    return color_up_confirm(
        actor=request.auth, tournament_id=tournament_id, color_up_id=color_up_id
    )


@router.post(f"{BASE}/{{color_up_id}}/undo", response={200: ColorUpOut, **ERRORS})
def undo_color_up(request, tournament_id: Id, color_up_id: Id):
    roles.require(request.auth, "floor")
    return color_up_undo(actor=request.auth, tournament_id=tournament_id, color_up_id=color_up_id)


@router.post(f"{BASE}/{{color_up_id}}/found", response={200: ColorUpFoundOut, **ERRORS})
def found_chips(request, tournament_id: Id, color_up_id: Id, payload: ColorUpFoundIn):
    """Removed-colour chips found later (TDA 24-C): exchanged at equal value, the rest below
    the new smallest chip leaves play."""
    require_color_up_at(request.auth, tournament_id, color_up_id)
    return color_up_found(
        actor=request.auth,
        tournament_id=tournament_id,
        color_up_id=color_up_id,
        seat=payload.seat,
        value=payload.value,
    )
