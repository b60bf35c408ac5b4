"""Blind structures."""

from django.http import JsonResponse
from django.shortcuts import get_object_or_404
from django.utils.text import slugify
from ninja import Router, Status

from clocks.clock.selectors import clock_view
from clocks.clock.usecases import clock_operate, structure_levels_add
from clocks.domain.structures import structure_payload
from clocks.models import Structure
from clocks.structures.schemas import (
    ClockAdjustIn,
    ClockJumpIn,
    ClockLevelsIn,
    ClockUndoIn,
    StructureCheckOut,
    StructureIn,
    StructureOut,
)
from clocks.structures.selectors import structure_data
from clocks.structures.usecases import (
    structure_check,
    structure_create,
    structure_data_from_payload,
    structure_update,
    suggestion_out,
)
from infra.web.schema_types import Id
from tourney.core import roles
from tourney.models import Tournament
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["structures"])
ERRORS = ERROR_RESPONSES


def structure_out(structure: Structure) -> dict:
    levels = []
    level_number = 0
    for p in structure.levels.all():
        if p.kind == "level":
            level_number += 1
        levels.append(
            {
                "kind": p.kind,
                "level": level_number if p.kind == "level" else None,
                "small_blind": p.small_blind,
                "big_blind": p.big_blind,
                "ante": p.ante,
                "duration_seconds": p.duration_seconds,
                "color_up": p.color_up,
            }
        )
    return {
        "id": structure.pk,
        "name": structure.name,
        "description": structure.description,
        "template": structure.template_key or None,
        "chips": structure.chips,
        "starting_stack": structure.starting_stack,
        "levels": levels,
        "total_seconds": sum(p["duration_seconds"] for p in levels),
        "color_up_suggestion": suggestion_out(
            [c["value"] for c in structure.chips], structure_data(structure).periods
        ),
    }


@router.get("/structures", response=list[StructureOut])
def list_structures(request):
    roles.require(request.auth, "read")
    return [structure_out(s) for s in Structure.objects.prefetch_related("levels")]


@router.get("/structures/{int:structure_id}", response={200: StructureOut, **ERRORS})
def get_structure(request, structure_id: Id):
    roles.require(request.auth, "read")
    return structure_out(get_object_or_404(Structure, pk=structure_id))


@router.post("/structures", response={201: StructureOut, **ERRORS})
def create_structure(request, payload: StructureIn):
    roles.require(request.auth, "director")
    data = structure_data_from_payload(payload.dict())
    return Status(201, structure_out(structure_create(actor=request.auth, data=data)))


@router.post("/structures/preview", response={200: StructureCheckOut, **ERRORS})
def preview_structure(request, payload: StructureIn):
    """Check a structure without saving it: the first error, warnings, totals and the
    color-up suggestion (the editor calls this as you type)."""
    roles.require(request.auth, "read")
    return structure_check(structure_data_from_payload(payload.dict()))


@router.put("/structures/{int:structure_id}", response={200: StructureOut, **ERRORS})
def update_structure(request, structure_id: Id, payload: StructureIn):
    """Replace a structure (same body as POST). 409 `structure_is_template` for built-in
    templates; 409 `structure_in_use` when a started tournament's current or past periods
    would change."""
    roles.require(request.auth, "director")
    data = structure_data_from_payload(payload.dict())
    return structure_out(structure_update(actor=request.auth, structure_id=structure_id, data=data))


@router.get("/structures/{int:structure_id}/export", response={200: StructureIn, **ERRORS})
def export_structure(request, structure_id: Id):
    """The structure as a `.json` download in the POST format (import it with POST)."""
    roles.require(request.auth, "read")
    structure = get_object_or_404(Structure, pk=structure_id)
    response = JsonResponse(
        structure_payload(structure_data(structure)),
        json_dumps_params={"indent": 2, "ensure_ascii": False},
    )
    filename = slugify(structure.name) or f"structure-{structure.pk}"
    response["Content-Disposition"] = f'attachment; filename="{filename}.json"'
    return response


@router.get("/tournaments/{tournament_id}/clock", response={200: dict, **ERRORS}, tags=["clock"])
def get_clock(request, tournament_id: Id):
    roles.require(request.auth, "read")
    return clock_view(get_object_or_404(Tournament, pk=tournament_id))


def _clock_route(operation: str, permission: str):
    def handler(request, tournament_id: Id):
        roles.require(request.auth, permission)
        return clock_operate(actor=request.auth, tournament_id=tournament_id, operation=operation)

    handler.__name__ = f"clock_{operation}"
    router.post(
        f"/tournaments/{{tournament_id}}/clock/{operation}",
        response={200: dict, **ERRORS},
        tags=["clock"],
        operation_id=f"clock_{operation}",
    )(handler)


for _operation, _permission in (
    ("start", "director"),
    ("pause", "floor"),
    ("resume", "floor"),
    ("next", "director"),
    ("previous", "director"),
):
    _clock_route(_operation, _permission)


@router.post(
    "/tournaments/{tournament_id}/clock/adjust", response={200: dict, **ERRORS}, tags=["clock"]
)
def clock_adjust(request, tournament_id: Id, payload: ClockAdjustIn):
    roles.require(request.auth, "director")
    return clock_operate(
        actor=request.auth, tournament_id=tournament_id, operation="adjust", seconds=payload.seconds
    )


@router.post(
    "/tournaments/{tournament_id}/clock/jump", response={200: dict, **ERRORS}, tags=["clock"]
)
def clock_jump(request, tournament_id: Id, payload: ClockJumpIn):
    """Go to the start of a period (0-based `period_index`), keeping running or paused."""
    roles.require(request.auth, "director")
    return clock_operate(
        actor=request.auth,
        tournament_id=tournament_id,
        operation="jump",
        period_index=payload.period_index,
    )


@router.post(
    "/tournaments/{tournament_id}/clock/levels", response={200: dict, **ERRORS}, tags=["clock"]
)
def clock_levels_add(request, tournament_id: Id, payload: ClockLevelsIn):
    """Add levels after the structure's last, carrying on its progression (docs/rules.md §1.9);
    a clock past the structure's end goes on into the first of them. Answers the clock."""
    roles.require(request.auth, "director")
    return structure_levels_add(
        actor=request.auth, tournament_id=tournament_id, count=payload.count
    )


@router.post(
    "/tournaments/{tournament_id}/clock/undo", response={200: dict, **ERRORS}, tags=["clock"]
)
def clock_undo(request, tournament_id: Id, payload: ClockUndoIn | None = None):
    """Undo the last manual clock change (pause, resume, next, previous, adjust, jump) as if it
    had not happened. 409 `nothing_to_undo`, or `undo_stale` once the clock moved on."""
    roles.require(request.auth, "director")
    return clock_operate(
        actor=request.auth,
        tournament_id=tournament_id,
        operation="undo",
        expected_version=payload.version if payload else None,
    )
