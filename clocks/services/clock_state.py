"""The clock's stored state and what is read from it: the structure's periods, the clock row,
the clock as screens show it, the compare-and-set that stores a change."""

import time

from django.utils.translation import gettext as _

from clocks.domain.clock import ClockState, view
from clocks.domain.structures import Period
from clocks.models import Clock, StructureLevel
from clocks.services.structures import period_from_row
from tourney.errors import Conflict
from tourney.models import Tournament


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def structure_periods(structure_id: int) -> list[Period]:
    return [
        period_from_row(row)
        for row in StructureLevel.objects.filter(structure_id=structure_id).order_by("position")
    ]


def clock_state(clock: Clock) -> ClockState:
    return ClockState(
        status=clock.status,
        period_index=clock.period_index,
        period_ends_at_ms=clock.period_ends_at_ms,
        paused_remaining_ms=clock.paused_remaining_ms,
        version=clock.version,
    )


def clock_for(tournament: Tournament) -> Clock:
    clock, _created = Clock.objects.get_or_create(tournament=tournament)
    return clock


def clock_store(clock: Clock, before: ClockState, after: ClockState) -> None:
    """Compare-and-set: the row must still hold `before.version`."""
    updated = Clock.objects.filter(pk=clock.pk, version=before.version).update(
        status=after.status,
        period_index=after.period_index,
        period_ends_at_ms=after.period_ends_at_ms,
        paused_remaining_ms=after.paused_remaining_ms,
        version=after.version,
    )
    if updated != 1:
        raise Conflict("clock_changed", _("The clock changed meanwhile; try again."))
    # the instance as stored (what refresh_from_db would read, without reading it)
    clock.status, clock.period_index = after.status, after.period_index
    clock.period_ends_at_ms, clock.paused_remaining_ms = (
        after.period_ends_at_ms,
        after.paused_remaining_ms,
    )
    clock.version = after.version


def state_dict(state: ClockState) -> dict:
    """The full stored clock, as audited before and after every change (undo reads it)."""
    return {
        "status": state.status,
        "period_index": state.period_index,
        "period_ends_at_ms": state.period_ends_at_ms,
        "paused_remaining_ms": state.paused_remaining_ms,
        "version": state.version,
    }


def clock_view(tournament: Tournament, now: int | None = None) -> dict:
    clock = clock_for(tournament)
    periods = structure_periods(tournament.structure_id)
    return view(clock_state(clock), periods, now if now is not None else now_ms()).as_dict()
