"""Blind structures."""

from django.shortcuts import get_object_or_404
from ninja import Router, Status

from clocks.models import Structure
from clocks.schemas import ClockAdjustIn, StructureIn, StructureOut
from clocks.services.clock import clock_operate, clock_view
from clocks.services.structures import structure_create, structure_data_from_payload
from tourney import roles
from tourney.models import Tournament
from tourney.schemas import ERROR_RESPONSES

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
    }


@router.get("/structures", response=list[StructureOut])
def list_structures(request):
    roles.require(request.auth, "read")
    return [structure_out(s) for s in Structure.objects.prefetch_related("levels")]


@router.get("/structures/{structure_id}", response={200: StructureOut, **ERRORS})
def get_structure(request, structure_id: int):
    roles.require(request.auth, "read")
    return structure_out(get_object_or_404(Structure, pk=structure_id))


@router.post("/structures", response={201: StructureOut, **ERRORS})
def create_structure(request, payload: StructureIn):
    roles.require(request.auth, "director")
    data = structure_data_from_payload(payload.dict())
    return Status(201, structure_out(structure_create(actor=request.auth, data=data)))


@router.get("/tournaments/{tournament_id}/clock", response={200: dict, **ERRORS}, tags=["clock"])
def get_clock(request, tournament_id: int):
    roles.require(request.auth, "read")
    return clock_view(get_object_or_404(Tournament, pk=tournament_id))


def _clock_route(operation: str, permission: str):
    def handler(request, tournament_id: int):
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
def clock_adjust(request, tournament_id: int, payload: ClockAdjustIn):
    roles.require(request.auth, "director")
    return clock_operate(
        actor=request.auth, tournament_id=tournament_id, operation="adjust", seconds=payload.seconds
    )
