"""The clock's stored state and what is read from it: the structure's periods, the clock row,
the clock as screens show it, the compare-and-set that stores a change."""

import functools
import json
import time

from django.db import connection

from clocks.domain.clock import ClockState, ClockView, view
from clocks.domain.structures import (
    Period,
)
from clocks.models import Clock, StructureLevel
from clocks.structures.selectors import PERIOD_COLUMNS, period_from_row, period_from_values
from tourney.models import Tournament
from tourney.tournaments.selectors import tournament_rules


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def structure_periods(structure_id: int) -> list[Period]:
    return [
        period_from_row(row)
        for row in StructureLevel.objects.filter(structure_id=structure_id).order_by("position")
    ]


def structures_periods(structure_ids) -> dict[int, list[Period]]:  # type: ignore[no-untyped-def]
    """`structure_periods` of several structures in one statement: structure id -> periods.
    The columns are read as plain values, not as models, and each distinct color-up list is
    parsed once per process (20 structures of 30 levels: 600 model instances and 600 JSON
    documents were 2/3 of the CPU of 20 level changes)."""
    periods: dict[int, list[Period]] = {int(structure_id): [] for structure_id in structure_ids}
    if not periods:
        return periods
    with connection.cursor() as cursor:
        cursor.execute(_levels_sql(len(periods)), list(periods))
        for structure_id, *values, color_up in cursor.fetchall():
            periods[structure_id].append(period_from_values(*values, _color_up(color_up)))
    return periods


@functools.cache
def _levels_sql(count: int) -> str:
    quote = connection.ops.quote_name
    columns = ", ".join(
        quote(StructureLevel._meta.get_field(name).column) for name in PERIOD_COLUMNS
    )
    places = ", ".join(["%s"] * count)
    return (
        f"SELECT {quote('structure_id')}, {columns} FROM {quote(StructureLevel._meta.db_table)}"
        f" WHERE {quote('structure_id')} IN ({places})"
        f" ORDER BY {quote('structure_id')}, {quote('position')}"
    )


def _color_up(stored: str | list) -> tuple[int, ...]:
    """A level's stored color-up, the chip values (JSON text, as the database gives it to a
    plain cursor)."""
    return _color_up_parsed(stored) if isinstance(stored, str) else tuple(stored)


@functools.lru_cache(maxsize=1024)
def _color_up_parsed(stored: str) -> tuple[int, ...]:
    return tuple(json.loads(stored))


def clock_state(clock: Clock) -> ClockState:
    return ClockState(
        status=clock.status,
        period_index=clock.period_index,
        period_ends_at_ms=clock.period_ends_at_ms,
        paused_remaining_ms=clock.paused_remaining_ms,
        version=clock.version,
    )


def clock_for(tournament: Tournament) -> Clock:
    """The tournament's stored clock; before its first change, an unsaved pending one (a read
    never writes: the clock's row is made by its first change, `clock_ensure`)."""
    return Clock.objects.filter(tournament=tournament).first() or Clock(tournament=tournament)


CLOCK_STATE = ("status", "period_index", "period_ends_at_ms", "paused_remaining_ms", "version")


def state_dict(state: ClockState) -> dict:
    """The full stored clock, as audited before and after every change (undo reads it)."""
    return {
        "status": state.status,
        "period_index": state.period_index,
        "period_ends_at_ms": state.period_ends_at_ms,
        "paused_remaining_ms": state.paused_remaining_ms,
        "version": state.version,
    }


def clock_out(tournament: Tournament, shown: ClockView) -> dict:
    """The clock as the API and the screens get it: the view, and what the house's clock shows
    once the structure has run out (`after_last_level`, docs/rules.md §1.4)."""
    return {**shown.as_dict(), "after_last_level": tournament_rules(tournament).after_last_level}


def clock_view(tournament: Tournament, now: int | None = None) -> dict:
    clock = clock_for(tournament)
    periods = structure_periods(tournament.structure_id)
    return clock_out(
        tournament, view(clock_state(clock), periods, now if now is not None else now_ms())
    )


def clocks_late(now: int | None = None) -> list[tuple[int, int]]:
    """(tournament_id, late_ms) of running clocks whose stored period ended more than
    TIMERS_LATE_AFTER_MS ago: the room's clock (derived from the stored one) is right, but its
    level changes and their consequences wait for a timer. Most late first."""
    now = now if now is not None else now_ms()
    late = Clock.objects.filter(
        status="running", period_ends_at_ms__lt=now - TIMERS_LATE_AFTER_MS
    ).order_by("period_ends_at_ms")
    return [(t, now - ends) for t, ends in late.values_list("tournament_id", "period_ends_at_ms")]


# A running clock whose stored period ended longer ago than this and was not advanced means its
# timers (the Celery worker and beat, or the embedded loop) are late or dead.
TIMERS_LATE_AFTER_MS = 2_000
