"""Writes of blind structures: create, update, duplicate; and their reading into domain data.

A structure in use (docs/rules.md §1.4): the clock derives the current period from
the structure, so an edit must never change the period a tournament is playing or any period
it has played. `structure_update` therefore locks every tournament on the structure (tournament
rows first, in id order) and refuses with `structure_in_use` unless, for every clock that has
started, the periods up to and including its current one are unchanged; later periods, the
chips and the starting stack may change (e.g. adding levels during a long final). A finished
clock's structure is history: its periods cannot change at all. Built-in templates are
read-only (`structure_is_template`): duplicate one to change it.
"""

import time
from collections.abc import Iterable

from django.db import transaction
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.domain.clock import ClockState, advance
from clocks.domain.colorup import chip_warnings, color_up_suggestion
from clocks.domain.structures import (
    Chip,
    Period,
    StructureData,
    StructureError,
    period_rows,
    structure_payload,
    structure_row,
    total_seconds,
    unchanged_through,
    validate_structure,
)
from clocks.models import Clock, Structure, StructureLevel
from tourney.errors import Conflict, InvalidInput, NotFound
from tourney.models import Tournament
from tourney.services.audit import audit_record, audit_text
from tourney.services.events import event_append

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


def structure_data_from_payload(payload: dict) -> StructureData:
    """Turn the API's structure JSON into domain data (validated by the schema's types)."""
    return StructureData(
        name=payload["name"].strip(),
        chips=tuple(Chip(c["value"], c["color"].strip()) for c in payload.get("chips", [])),
        periods=tuple(
            Period(
                kind=p["kind"],
                duration_seconds=p["duration_seconds"],
                small_blind=p.get("small_blind", 0),
                big_blind=p.get("big_blind", 0),
                ante=p.get("ante", 0),
                color_up=tuple(sorted(p.get("color_up", ()))),
            )
            for p in payload["levels"]
        ),
        starting_stack=payload.get("starting_stack"),
        description=payload.get("description", "") or "",
    )


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


def structure_check(data: StructureData) -> dict:
    """What the editor shows as you type: the first error (or None), warnings, totals and the
    color-up suggestion, without saving anything."""
    error = None
    try:
        validate_structure(data)
    except StructureError as exc:
        error = {
            "code": exc.code,
            "detail": translated(exc.template, exc.params),
            "row": exc.row,
        }
    chips = [c.value for c in data.chips]
    return {
        "valid": error is None,
        "error": error,
        "warnings": [
            {"code": w.code, "detail": translated(w.message, w.params), "row": w.row}
            for w in chip_warnings(chips, data.periods, data.starting_stack)
        ],
        "total_seconds": total_seconds(data.periods),
        "level_count": sum(1 for p in data.periods if p.kind == "level"),
        "color_up_suggestion": suggestion_out(chips, data.periods),
    }


def suggestion_out(chips: Iterable[int], periods: tuple[Period, ...]) -> list[dict]:
    """The color-up suggestion per break: `position` (0-based period index), `break_number`
    (1-based) and `color_up` (chip values to remove then)."""
    return [
        {"position": index, "break_number": number, "color_up": list(values)}
        for number, (index, values) in enumerate(color_up_suggestion(chips, periods).items(), 1)
    ]


def _save(data: StructureData) -> Structure:
    structure = Structure.objects.create(**structure_row(data))
    StructureLevel.objects.bulk_create(
        StructureLevel(structure=structure, **row) for row in period_rows(data)
    )
    return structure


def _validated(data: StructureData) -> None:
    try:
        validate_structure(data)
    except StructureError as exc:
        raise structure_error(exc) from exc


def _summary(data: StructureData) -> dict:
    return {"name": data.name, "periods": len(data.periods), **structure_payload(data)}


@transaction.atomic
def structure_create(*, actor, data: StructureData) -> Structure:
    _validated(data)
    structure = _save(data)
    audit_record(
        actor=actor,
        action="structure.create",
        summary=audit_text("Created blind structure %(name)s", {"name": structure.name}),
        target=structure,
        after=_summary(data),
    )
    return structure


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
    _validated(data)
    return _save(data)


@transaction.atomic
def structure_duplicate(*, actor, structure_id: int, name: str | None = None) -> Structure:
    """Copy a structure (a template or any other) under a new name; the copy is no template."""
    source = Structure.objects.filter(pk=structure_id).first()
    if source is None:
        raise NotFound(
            "structure_not_found",
            _("There is no blind structure with id %(id)s.") % {"id": structure_id},
        )
    copy_name = (name or "").strip() or _("Copy of %(name)s") % {"name": source.name}
    structure = structure_copy(source, copy_name)
    data = structure_data(structure)
    audit_record(
        actor=actor,
        action="structure.duplicate",
        summary=audit_text(
            "Copied blind structure %(source)s as %(name)s",
            {"source": source.name, "name": structure.name},
        ),
        target=structure,
        before={"source_id": source.pk},
        after=_summary(data),
    )
    return structure


def _now_ms() -> int:
    return time.time_ns() // 1_000_000


def _played_through(clock: Clock | None, periods: tuple[Period, ...], now: int) -> int | None:
    """The last period index a tournament has entered (-1 = not started, None = finished)."""
    if clock is None or clock.status == "pending":
        return -1
    if clock.status == "finished":
        return None
    state = ClockState(
        status=clock.status,
        period_index=clock.period_index,
        period_ends_at_ms=clock.period_ends_at_ms,
        paused_remaining_ms=clock.paused_remaining_ms,
        version=clock.version,
    )
    caught_up = advance(state, periods, now).state  # a late timer does not hide a change
    return None if caught_up.status == "finished" else caught_up.period_index


def structure_locked_through(structure: Structure, now: int | None = None) -> int:
    """The highest period index any tournament on this structure has entered (-1: none), i.e.
    the rows the editor must keep as they are; a finished clock locks every row."""
    periods = structure_data(structure).periods
    now = now if now is not None else _now_ms()
    locked = -1
    clocks = Clock.objects.filter(tournament__structure=structure)
    for clock in clocks:
        through = _played_through(clock, periods, now)
        locked = max(locked, len(periods) - 1 if through is None else through)
    return locked


def structure_update(*, actor, structure_id: int, data: StructureData) -> Structure:
    """Replace a structure's name, chips, starting stack and periods (see the module docstring
    for what a structure in use allows)."""
    with transaction.atomic():
        # Tournament rows first, in one order, so clock writes on them wait for this edit.
        tournaments = list(
            Tournament.objects.select_for_update().filter(structure_id=structure_id).order_by("pk")
        )
        structure = Structure.objects.select_for_update().filter(pk=structure_id).first()
        if structure is None:
            raise NotFound(
                "structure_not_found",
                _("There is no blind structure with id %(id)s.") % {"id": structure_id},
            )
        if structure.template_key:
            raise Conflict(
                "structure_is_template",
                _("Built-in templates cannot change; duplicate this one and edit the copy."),
            )
        _validated(data)
        before = structure_data(structure)
        _check_in_use(tournaments, before.periods, data.periods)
        for field, value in structure_row(data).items():
            if field != "template_key":
                setattr(structure, field, value)
        structure.save(update_fields=["name", "description", "chips", "starting_stack"])
        StructureLevel.objects.filter(structure=structure).delete()
        StructureLevel.objects.bulk_create(
            StructureLevel(structure=structure, **row) for row in period_rows(data)
        )
        audit_record(
            actor=actor,
            action="structure.update",
            summary=audit_text("Changed blind structure %(name)s", {"name": structure.name}),
            target=structure,
            before=_summary(before),
            after=_summary(data),
        )
        for tournament in tournaments:
            if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
                continue
            # Screens hold the structure to flip periods on their own: tell them to refetch.
            event_append(
                tournament,
                "structure",
                {"structure_id": structure.pk, "reason": "updated", "name": structure.name},
            )
    return structure


def _check_in_use(
    tournaments: list[Tournament], old: tuple[Period, ...], new: tuple[Period, ...]
) -> None:
    clocks = {c.tournament_id: c for c in Clock.objects.filter(tournament__in=tournaments)}
    now = _now_ms()
    for tournament in tournaments:
        through = _played_through(clocks.get(tournament.pk), old, now)
        if through is None:
            allowed = unchanged_through(old, new, max(len(old), len(new)))
        else:
            allowed = through < 0 or unchanged_through(old, new, through)
        if not allowed:
            if through is None:
                detail = _(
                    "%(tournament)s has finished on this structure: its levels cannot change."
                ) % {"tournament": tournament.name}
            else:
                detail = _(
                    "%(tournament)s is playing row %(row)s of this structure: only the rows "
                    "after it can change."
                ) % {"tournament": tournament.name, "row": through + 1}
            raise Conflict("structure_in_use", detail)


def structure_template_install(data: StructureData) -> Structure:
    """Create a built-in template once (idempotent by its key)."""
    existing = Structure.objects.filter(template_key=data.key).first()
    return existing or _save(data)
