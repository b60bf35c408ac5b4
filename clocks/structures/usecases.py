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
from django.utils.translation import gettext as _

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
from clocks.structures.operations import structure_copy, structure_save, structure_validate
from clocks.structures.selectors import structure_data, translated
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, NotFound
from tourney.events.log import event_append
from tourney.models import Tournament


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


def _summary(data: StructureData) -> dict:
    return {"name": data.name, "periods": len(data.periods), **structure_payload(data)}


@transaction.atomic(durable=True)
def structure_create(*, actor, data: StructureData) -> Structure:
    structure_validate(data)
    structure = structure_save(data)
    audit_record(
        actor=actor,
        action="structure.create",
        summary=audit_text("Created blind structure %(name)s", {"name": structure.name}),
        target=structure,
        after=_summary(data),
    )
    return structure


@transaction.atomic(durable=True)
def structure_duplicate(*, actor, structure_id: int, name: str | None = None) -> Structure:
    """Copy a structure (a template or any other) under a new name; the copy is no template."""
    source = Structure.objects.filter(pk=structure_id).first()
    if source is None:
        raise NotFound(
            "structure_not_found",
            _("There is no blind structure with id %(id)s.") % {"id": structure_id},
        )
    copy_name = (name or "").strip() or _("Copy of %(name)s") % {"name": source.display_name}
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
    with transaction.atomic(durable=True):
        # Tournament rows first, in one order, so clock writes on them wait for this edit.
        tournaments = list(
            Tournament.objects.select_for_update(no_key=True)
            .filter(structure_id=structure_id)
            .order_by("pk")
        )
        structure = Structure.objects.select_for_update(no_key=True).filter(pk=structure_id).first()
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
        structure_validate(data)
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
    return existing or structure_save(data)
