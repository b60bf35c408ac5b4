"""Writes of blind structures inside a use case's transaction: saving a checked structure and
copying one (the caller audits)."""

from collections.abc import Iterable

from clocks.domain.structures import (
    Period,
    StructureData,
    StructureError,
    period_rows,
    structure_row,
    validate_structure,
)
from clocks.models import Structure, StructureLevel
from clocks.structures.selectors import structure_data, structure_error


def structure_copy(source: Structure, name: str, periods_added: Iterable[Period] = ()) -> Structure:
    """A copy of `source` named `name` (no template), with `periods_added` after its periods.
    An operation: the caller's transaction, its audit."""
    original = structure_data(source)
    data = StructureData(
        name=name[:120],
        chips=original.chips,
        periods=original.periods + tuple(periods_added),
        starting_stack=original.starting_stack,
        description=original.description,
    )
    structure_validate(data)
    return structure_save(data)


def structure_save(data: StructureData) -> Structure:
    structure = Structure.objects.create(**structure_row(data))
    StructureLevel.objects.bulk_create(
        StructureLevel(structure=structure, **row) for row in period_rows(data)
    )
    return structure


def structure_validate(data: StructureData) -> None:
    try:
        validate_structure(data)
    except StructureError as exc:
        raise structure_error(exc) from exc
