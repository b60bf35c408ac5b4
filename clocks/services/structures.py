"""Writes of blind structures."""

from django.db import transaction

from clocks.domain.structures import (
    Chip,
    Period,
    StructureData,
    StructureError,
    period_rows,
    structure_row,
    validate_structure,
)
from clocks.models import Structure, StructureLevel
from tourney.errors import InvalidInput
from tourney.services.audit import audit_record, audit_text


def structure_data_from_payload(payload: dict) -> StructureData:
    """Turn the API.md structure JSON into domain data (validated by the schema's types)."""
    return StructureData(
        name=payload["name"],
        chips=tuple(Chip(c["value"], c["color"]) for c in payload.get("chips", [])),
        periods=tuple(
            Period(
                kind=p["kind"],
                duration_seconds=p["duration_seconds"],
                small_blind=p.get("small_blind", 0),
                big_blind=p.get("big_blind", 0),
                ante=p.get("ante", 0),
                color_up=tuple(p.get("color_up", ())),
            )
            for p in payload["levels"]
        ),
        starting_stack=payload.get("starting_stack"),
        description=payload.get("description", ""),
    )


def _save(data: StructureData) -> Structure:
    structure = Structure.objects.create(**structure_row(data))
    StructureLevel.objects.bulk_create(
        StructureLevel(structure=structure, **row) for row in period_rows(data)
    )
    return structure


@transaction.atomic
def structure_create(*, actor, data: StructureData) -> Structure:
    try:
        validate_structure(data)
    except StructureError as exc:
        raise InvalidInput(exc.code, str(exc)) from exc
    structure = _save(data)
    audit_record(
        actor=actor,
        action="structure.create",
        summary=audit_text("Created blind structure %(name)s", {"name": structure.name}),
        target=structure,
        after={"name": structure.name, "periods": len(data.periods)},
    )
    return structure


def structure_template_install(data: StructureData) -> Structure:
    """Create a built-in template once (idempotent by its key)."""
    existing = Structure.objects.filter(template_key=data.key).first()
    return existing or _save(data)
