"""Operating the blind clock: one transaction per change, compare-and-set on the version."""

import time
from collections.abc import Callable

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.domain.clock import (
    AdvanceResult,
    ClockError,
    ClockState,
    PeriodChange,
    UndoRecord,
    advance,
    view,
)
from clocks.domain.clock import adjust as clock_adjust_state
from clocks.domain.clock import jump_to as clock_jump_state
from clocks.domain.clock import next_period as clock_next_state
from clocks.domain.clock import pause as clock_pause_state
from clocks.domain.clock import previous_period as clock_previous_state
from clocks.domain.clock import resume as clock_resume_state
from clocks.domain.clock import start as clock_start_state
from clocks.domain.clock import undo as clock_undo_state
from clocks.domain.structures import Period
from clocks.models import Clock, StructureLevel
from clocks.services.structures import period_from_row
from tourney.errors import Conflict, InvalidInput, refusal
from tourney.models import AuditEntry, Tournament
from tourney.services.absence import absent_deadline_apply
from tourney.services.audit import audit_record, audit_text
from tourney.services.events import event_append
from tourney.services.locks import tournament_lock
from tourney.services.tournaments import registration_deadline_record, tournament_mark_running

Transition = Callable[[ClockState, list[Period], int], ClockState]

OPERATIONS: dict[str, Transition] = {
    "start": clock_start_state,
    "pause": clock_pause_state,
    "resume": clock_resume_state,
    "next": clock_next_state,
    "previous": clock_previous_state,
}


# Marked for translation; stored untranslated and translated when the log is read.
CLOCK_SUMMARIES = {
    "start": gettext_noop("Clock started"),
    "pause": gettext_noop("Clock paused"),
    "resume": gettext_noop("Clock resumed"),
    "next": gettext_noop("Clock moved to the next period"),
    "previous": gettext_noop("Clock moved back to the previous period"),
    "adjust": gettext_noop("Clock adjusted by %(seconds)+d seconds"),
    "jump": gettext_noop("Clock moved to level %(number)s"),
    "jump_break": gettext_noop("Clock moved to break %(number)s"),
    "undo": gettext_noop("Last clock change undone"),
}

# Manual changes that undo can take back; start is not one (it also starts the tournament:
# a mistaken start is paused, not undone), nor is undo itself (no redo).
UNDOABLE = ("pause", "resume", "next", "previous", "adjust", "jump")


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


def _store(clock: Clock, before: ClockState, after: ClockState) -> None:
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


def state_dict(state: ClockState) -> dict:
    """The full stored clock, as audited before and after every change (undo reads it)."""
    return {
        "status": state.status,
        "period_index": state.period_index,
        "period_ends_at_ms": state.period_ends_at_ms,
        "paused_remaining_ms": state.paused_remaining_ms,
        "version": state.version,
    }


def _undo_record(tournament: Tournament) -> UndoRecord | None:
    """The last manual clock change from the audit log, if undo may take it back."""
    last = (
        AuditEntry.objects.filter(tournament=tournament, action__startswith="clock.")
        .order_by("-id")
        .values_list("action", "before", "after")
        .first()
    )
    if last is None:
        return None
    action, before, after = last
    if action.removeprefix("clock.") not in UNDOABLE or "version" not in (before or {}):
        return None
    return UndoRecord(ClockState(**before), after["version"])


def _summary(operation: str, periods: list[Period], after: ClockState, seconds: int | None):
    """The audit summary; a jump names the level (or break) by the structure's numbering."""
    kind = periods[after.period_index].kind
    number = sum(1 for p in periods[: after.period_index + 1] if p.kind == kind)
    key = "jump_break" if operation == "jump" and kind == "break" else operation
    return audit_text(CLOCK_SUMMARIES[key], {"seconds": seconds or 0, "number": number})


def _deadlines(
    tournament, before: ClockState, result: AdvanceResult, periods: list[Period], now: int
) -> None:
    """Consequences of the clock moving on: late registration closing or reopening, and (on
    the automatic advance only) the absent-player deadline."""
    registration_deadline_record(
        tournament=tournament, before=before, result=result, periods=periods, now_ms=now
    )


def _entered(change: PeriodChange, periods: list[Period]) -> ClockState:
    """The clock right after `change`: running the period it entered, from its scheduled
    instant, for that period's duration (what `advance` stored at that step)."""
    ends_at = change.scheduled_at_ms + periods[change.period_index].duration_seconds * 1000
    return ClockState("running", change.period_index, ends_at, None, change.version)


def _catch_up(tournament, clock: Clock, periods: list[Period], now: int) -> ClockState:
    """Store any period changes that are due and record one `clock` event per change."""
    state = clock_state(clock)
    result = advance(state, periods, now)
    if result.changed:
        _store(clock, state, result.state)
        for change in result.changes:
            entered = _entered(change, periods)
            # Each change as it was at its instant: after a late catch-up over several periods,
            # the earlier ones are not shown as the final period (nor as already over).
            at = now if now < (entered.period_ends_at_ms or 0) else change.scheduled_at_ms
            snapshot = view(entered, periods, at).as_dict()
            event_append(
                tournament,
                "clock",
                {**snapshot, "reason": "advance", "scheduled_at_ms": change.scheduled_at_ms},
            )
        if result.finished_at_ms is not None:  # the last period ended: screens show the end
            event_append(
                tournament,
                "clock",
                {
                    **view(result.state, periods, now).as_dict(),
                    "reason": "advance",
                    "scheduled_at_ms": result.finished_at_ms,
                },
            )
        _deadlines(tournament, state, result, periods, now)
        absent_deadline_apply(tournament=tournament, state=result.state, periods=periods)
        clock.refresh_from_db()
    return result.state


def clock_view(tournament: Tournament, now: int | None = None) -> dict:
    clock = clock_for(tournament)
    periods = structure_periods(tournament.structure_id)
    return view(clock_state(clock), periods, now if now is not None else now_ms()).as_dict()


def clock_operate(
    *,
    actor,
    tournament_id: int,
    operation: str,
    seconds: int | None = None,
    period_index: int | None = None,
    expected_version: int | None = None,
) -> dict:
    """Apply start/pause/resume/next/previous/adjust/jump/undo and return the clock as the API
    shows it. `expected_version` (undo): refuse unless the clock is still at that version, so
    an Undo offered after one change cannot take back someone else's later change."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        clock = clock_for(tournament)
        periods = structure_periods(tournament.structure_id)
        now = now_ms()
        before = _catch_up(tournament, clock, periods, now)
        if operation == "start":
            tournament_mark_running(actor=actor, tournament=tournament)
        try:
            if operation == "adjust":
                if seconds is None:
                    raise InvalidInput("invalid_input", _("Say how many seconds to add."))
                after = clock_adjust_state(before, periods, now, seconds)
            elif operation == "jump":
                if period_index is None:
                    raise InvalidInput("invalid_input", _("Say which period to go to."))
                after = clock_jump_state(before, periods, now, period_index)
            elif operation == "undo":
                if expected_version is not None and expected_version != before.version:
                    raise Conflict(
                        "undo_stale", _("The clock has changed since; nothing was undone.")
                    )
                after = clock_undo_state(before, periods, now, _undo_record(tournament))
            else:
                after = OPERATIONS[operation](before, periods, now)
        except ClockError as exc:
            raise refusal(exc) from exc
        _store(clock, before, after)
        snapshot = view(after, periods, now).as_dict()
        audit_record(
            actor=actor,
            action=f"clock.{operation}",
            summary=_summary(operation, periods, after, seconds),
            tournament=tournament,
            target=clock,
            before=state_dict(before),
            after=state_dict(after),
        )
        event_append(tournament, "clock", {**snapshot, "reason": operation})
        _deadlines(tournament, before, AdvanceResult(after), periods, now)
    return snapshot


def clock_advance_one(
    tournament_id: int, expected_version: int | None = None, now: int | None = None
) -> int:
    """Advance one clock if due (and still at `expected_version`); returns the steps made."""
    now = now if now is not None else now_ms()
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        clock = clock_for(tournament)
        if expected_version is not None and clock.version != expected_version:
            return 0
        before = clock.version
        _catch_up(tournament, clock, structure_periods(tournament.structure_id), now)
        return clock.version - before


def clocks_ending_soon(
    within_ms: int, now: int | None = None, tournament_id: int | None = None
) -> list[tuple[int, int, int]]:
    """(tournament_id, version, ends_at_ms) of running clocks whose period ends soon (of one
    tournament's clock only, with `tournament_id`).

    The ticker schedules an on-time task for each; scheduling one twice is harmless because a
    task only acts while the version it carries is current.
    """
    now = now if now is not None else now_ms()
    clocks = Clock.objects.filter(
        status="running", period_ends_at_ms__gt=now, period_ends_at_ms__lte=now + within_ms
    )
    if tournament_id is not None:
        clocks = clocks.filter(tournament_id=tournament_id)
    return list(clocks.values_list("tournament_id", "version", "period_ends_at_ms"))


# A running clock whose stored period ended longer ago than this and was not advanced means its
# timers (the Celery worker and beat, or the embedded loop) are late or dead.
TIMERS_LATE_AFTER_MS = 2_000


def clocks_late(now: int | None = None) -> list[tuple[int, int]]:
    """(tournament_id, late_ms) of running clocks whose stored period ended more than
    TIMERS_LATE_AFTER_MS ago: the room's clock (derived from the stored one) is right, but its
    level changes and their consequences wait for a timer. Most late first."""
    now = now if now is not None else now_ms()
    late = Clock.objects.filter(
        status="running", period_ends_at_ms__lt=now - TIMERS_LATE_AFTER_MS
    ).order_by("period_ends_at_ms")
    return [(t, now - ends) for t, ends in late.values_list("tournament_id", "period_ends_at_ms")]


def clocks_advance_due(now: int | None = None) -> int:
    """Advance every running clock whose period has ended; idempotent. Returns changes made."""
    now = now if now is not None else now_ms()
    due = Clock.objects.filter(status="running", period_ends_at_ms__lte=now).values_list(
        "tournament_id", flat=True
    )
    changed = 0
    for tournament_id in list(due):
        try:
            changed += clock_advance_one(tournament_id, now=now)
        except Conflict:
            continue  # another ticker got there first: nothing lost, nothing doubled
    return changed
