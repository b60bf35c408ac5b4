"""Reads of blind structures: a stored structure as domain data, its periods, and the
refusals of a structure's rules in the reader's language."""

from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.domain.structures import (
    Chip,
    Period,
    StructureData,
    StructureError,
)
from clocks.models import Structure, StructureLevel
from tourney.core.errors import InvalidInput


def period_from_row(row: StructureLevel) -> Period:
    """A stored structure row as the domain's period."""
    return period_from_values(*(getattr(row, name) for name in PERIOD_COLUMNS))


# A level's columns that make its period, in `period_from_values`'s order.
PERIOD_COLUMNS = ("kind", "duration_seconds", "small_blind", "big_blind", "ante", "color_up")


def period_from_values(kind, duration_seconds, small_blind, big_blind, ante, color_up) -> Period:  # type: ignore[no-untyped-def]
    """A stored structure row's PERIOD_COLUMNS as the domain's period."""
    return Period(
        kind=kind,
        duration_seconds=duration_seconds,
        small_blind=small_blind,
        big_blind=big_blind,
        ante=ante,
        color_up=tuple(color_up),
    )


def structure_data(structure: Structure) -> StructureData:
    """The stored structure as domain data (periods in playing order)."""
    return StructureData(
        name=structure.name,
        chips=tuple(Chip(c["value"], c["color"]) for c in structure.chips),
        periods=tuple(
            # Meta orders by position; uses a prefetch
            period_from_row(row)
            for row in structure.levels.all()
        ),
        starting_stack=structure.starting_stack,
        description=structure.description,
        key=structure.template_key,
    )


# The domain's English templates, marked here so that makemessages collects them; the service
# shows them translated (the domain may not import Django).
MESSAGES = [
    gettext_noop("A structure needs a name."),
    gettext_noop("Chip values must be positive and distinct."),
    gettext_noop("At most %(max)s chips."),
    gettext_noop("The starting stack must be positive."),
    gettext_noop("A structure needs at least one level."),
    gettext_noop("At most %(max)s levels and breaks."),
    gettext_noop("Row %(row)s: the duration must be more than 0 and at most 6 hours."),
    gettext_noop("Row %(row)s: chips %(chips)s are not in the chip set."),
    gettext_noop("Row %(row)s: chips %(chips)s are already colored up at an earlier break."),
    gettext_noop("Row %(row)s: this break would color up every chip; keep at least one."),
    gettext_noop("Row %(row)s: the small blind must be more than 0."),
    gettext_noop("Row %(row)s: the big blind must be at least the small blind."),
    gettext_noop("Row %(row)s: the ante must be between 0 and the big blind."),
    gettext_noop("Row %(row)s: the blinds must not go down from one level to the next."),
    gettext_noop("The starting stack of %(amount)s cannot be made from the chip set."),
    gettext_noop("Row %(row)s: %(amounts)s cannot be made from the chips in play then."),
]


def _shown(value: object) -> object:
    """Chip amounts as the venue writes them (40,000 / 40 000); lists comma-separated."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return number_format(value, force_grouping=True)
    if isinstance(value, list | tuple):
        return ", ".join(str(_shown(v)) for v in value)
    return value


def translated(template: str, params: dict[str, object]) -> str:
    """A domain message in the reader's language; row numbers stay plain."""
    shown = {k: (v if k in ("row", "level", "max") else _shown(v)) for k, v in params.items()}
    return _(template) % shown if shown else _(template)


def structure_error(exc: StructureError) -> InvalidInput:
    return InvalidInput(exc.code, translated(exc.template, exc.params))
