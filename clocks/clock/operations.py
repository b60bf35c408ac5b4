"""Clock changes inside a use case's transaction (the tournament locked): storing the period
changes that are due and applying one operation, each with its audit entry, its `clock`
events and what follows for late registration (docs/rules.md §2.2).

These are operations: they open no transaction and follow no consequence in another
sub-domain but late registration's. The absent-player deadline, which eliminates players and
so replans the floor, is the automatic advance's (`clocks.clock.usecases`).
"""

import time
from collections.abc import Callable

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.selectors import (
    CLOCK_STATE,
    clock_out,
    clock_state,
    now_ms,
    state_dict,
    structure_periods,
)
from clocks.domain.clock import (
    AdvanceResult,
    ClockError,
    ClockState,
    PeriodChange,
    UndoRecord,
    advance,
    pending_at,
    restart,
    stop,
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
from clocks.structures.selectors import period_from_row
from infra.db.write_batch import WriteBatch
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, refusal
from tourney.events.log import event_append, event_new
from tourney.models import AuditEntry, Tournament
from tourney.tournaments.operations import registration_deadline_record, tournament_mark_running

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
    """Consequences of the clock moving on for late registration: closing or reopening."""
    registration_deadline_record(
        tournament=tournament, before=before, result=result, periods=periods, now_ms=now
    )


def _entered(change: PeriodChange, periods: list[Period]) -> ClockState:
    """The clock right after `change`: running the period it entered, from its scheduled
    instant, for that period's duration (what `advance` stored at that step)."""
    ends_at = change.scheduled_at_ms + periods[change.period_index].duration_seconds * 1000
    return ClockState("running", change.period_index, ends_at, None, change.version)


def _event(writes: WriteBatch | None, tournament: Tournament, payload: dict) -> None:
    """A `clock` event, appended now or (with `writes`) when they are sent."""
    if writes is None:
        event_append(tournament, "clock", payload)
    else:
        writes.insert(event_new(tournament, "clock", payload))


def clock_catch_up(
    tournament, clock: Clock, periods: list[Period], now: int, writes: WriteBatch | None = None
) -> AdvanceResult:
    """Store any period changes that are due and record one `clock` event per change, and
    late registration's closing or reopening. Returns the advance (`changed`, `state`).
    `writes` (held, `WriteBatch.held`): the clock's row and events go there."""
    state = clock_state(clock)
    result = advance(state, periods, now)
    if result.changed:
        clock_store(clock, state, result.state, writes)
        for change in result.changes:
            entered = _entered(change, periods)
            # Each change as it was at its instant: after a late catch-up over several periods,
            # the earlier ones are not shown as the final period (nor as already over).
            at = now if now < (entered.period_ends_at_ms or 0) else change.scheduled_at_ms
            snapshot = clock_out(tournament, view(entered, periods, at))
            _event(
                writes,
                tournament,
                {**snapshot, "reason": "advance", "scheduled_at_ms": change.scheduled_at_ms},
            )
        if result.overtime_at_ms is not None:  # the structure ran out: play goes on at its end
            _event(
                writes,
                tournament,
                {
                    **clock_out(tournament, view(result.state, periods, now)),
                    "reason": "advance",
                    "scheduled_at_ms": result.overtime_at_ms,
                },
            )
        _deadlines(tournament, state, result, periods, now)
    return result


def clock_apply(
    *,
    actor,
    tournament: Tournament,
    clock: Clock,
    periods: list[Period],
    now: int,
    before: ClockState,
    operation: str,
    seconds: int | None = None,
    period_index: int | None = None,
    expected_version: int | None = None,
) -> dict:
    """Apply start/pause/resume/next/previous/adjust/jump/undo to the clock caught up to
    `before` and return the clock as the API shows it. `expected_version` (undo): refuse
    unless the clock is still at that version, so an Undo offered after one change cannot
    take back someone else's later change."""
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
                raise Conflict("undo_stale", _("The clock has changed since; nothing was undone."))
            after = clock_undo_state(before, periods, now, _undo_record(tournament))
        else:
            after = OPERATIONS[operation](before, periods, now)
    except ClockError as exc:
        raise refusal(exc) from exc
    clock_store(clock, before, after)
    snapshot = clock_out(tournament, view(after, periods, now))
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


def clock_ensure(tournament: Tournament) -> Clock:
    """The tournament's clock row, made (pending) at its first change; the tournament locked."""
    clock, _created = Clock.objects.get_or_create(tournament=tournament)
    return clock


def clock_change(actor, tournament: Tournament, operation: str, seconds: int | None = None) -> dict:
    """A clock change that follows from another write (hand-for-hand pausing, resuming or
    taking a hand's time off the level): the due period changes first, then the operation."""
    clock = clock_ensure(tournament)
    periods = structure_periods(tournament.structure_id)
    now = now_ms()
    before = clock_catch_up(tournament, clock, periods, now).state
    return clock_apply(
        actor=actor,
        tournament=tournament,
        clock=clock,
        periods=periods,
        now=now,
        before=before,
        operation=operation,
        seconds=seconds,
    )


STOP = "clock.finish"


RESTART = "clock.finish_undo"


PENDING_AT = "clock.day2_level"


SUMMARIES = {
    STOP: gettext_noop("Clock stopped: the tournament is finished"),
    RESTART: gettext_noop("Clock running again: the bust-out that ended the tournament was undone"),
    PENDING_AT: gettext_noop("Clock set to start Day 2 at the flights' next level"),
}


def _state(clock: Clock) -> ClockState:
    return ClockState(
        clock.status,
        clock.period_index,
        clock.period_ends_at_ms,
        clock.paused_remaining_ms,
        clock.version,
    )


def _fields(state: ClockState) -> dict:
    return {
        "status": state.status,
        "period_index": state.period_index,
        "period_ends_at_ms": state.period_ends_at_ms,
        "paused_remaining_ms": state.paused_remaining_ms,
        "version": state.version,
    }


def _periods(tournament: Tournament) -> list[Period]:
    rows = StructureLevel.objects.filter(structure_id=tournament.structure_id)
    return [period_from_row(row) for row in rows.order_by("position")]


def _write(actor, tournament: Tournament, clock: Clock, action: str, before, after, periods, now):
    """Store `after` over `before` (the tournament lock serialises clock changes, and the
    version moves on, so a timer task carrying the old version does nothing), audit it with
    both states and tell the screens."""
    Clock.objects.filter(pk=clock.pk).update(**_fields(after))
    audit_record(
        actor=actor,
        action=action,
        summary=audit_text(SUMMARIES[action], {}),
        tournament=tournament,
        target=clock,
        before=_fields(before),
        after=_fields(after),
    )
    event_append(
        tournament, "clock", {**clock_out(tournament, view(after, periods, now)), "reason": action}
    )


def clock_stop_at_finish(*, actor, tournament: Tournament) -> None:
    """The winner is known: the clock finishes in the period being played (no more level
    changes, no timer fires). Audited with the state it stopped from, which the undo puts
    back."""
    clock = Clock.objects.filter(tournament=tournament).first()
    periods = _periods(tournament)
    if clock is None or not periods or clock.status == "finished":
        return
    now = time.time_ns() // 1_000_000
    before = _state(clock)
    # The stored state is what the undo restores: the clock is a function of it and the
    # time, so a running clock comes back in the period it would be in then.
    after = stop(before, periods, now)
    _write(actor, tournament, clock, STOP, before, after, periods, now)


def clock_pending_at(*, actor, tournament: Tournament, period_index: int) -> None:
    """The clock, not started yet, will start at period `period_index` (Day 2's level)."""
    clock = clock_ensure(tournament)
    periods = _periods(tournament)
    now = time.time_ns() // 1_000_000
    before = _state(clock)
    after = pending_at(before, periods, now, period_index)
    _write(actor, tournament, clock, PENDING_AT, before, after, periods, now)


def clock_restart_after_undo(*, actor, tournament: Tournament) -> bool:
    """The bust-out that finished the tournament is undone: the clock is back as if it had
    never stopped (docs/rules.md §11.7). False when it was not stopped by the finish or has
    changed since (e.g. reopened by the director): then it is left as it is."""
    clock = Clock.objects.filter(tournament=tournament).first()
    record = (
        AuditEntry.objects.filter(tournament=tournament, action__in=(STOP, RESTART))
        .order_by("-id")
        .values_list("action", "before", "after")
        .first()
    )
    if clock is None or record is None or record[0] != STOP:
        return False
    periods = _periods(tournament)
    if not periods:
        return False
    now = time.time_ns() // 1_000_000
    state = _state(clock)
    stopped_from = ClockState(**record[1])
    after = restart(state, periods, now, stopped_from, record[2]["version"])
    if after is None:
        return False
    _write(actor, tournament, clock, RESTART, state, after, periods, now)
    return True


def clock_store(
    clock: Clock, before: ClockState, after: ClockState, writes: WriteBatch | None = None
) -> None:
    """Compare-and-set: the row must still hold `before.version` (with `writes`: checked when
    they are sent, in the caller's transaction)."""
    clock.status, clock.period_index = after.status, after.period_index
    clock.period_ends_at_ms, clock.paused_remaining_ms = (
        after.period_ends_at_ms,
        after.paused_remaining_ms,
    )
    clock.version = after.version
    # the instance is as stored (what refresh_from_db would read, without reading it)
    refused = Conflict("clock_changed", _("The clock changed meanwhile; try again."))
    if writes is not None:
        writes.update_guarded(clock, CLOCK_STATE, {"version": before.version}, refused)
        return
    updated = Clock.objects.filter(pk=clock.pk, version=before.version).update(
        **{name: getattr(clock, name) for name in CLOCK_STATE}
    )
    if updated != 1:
        raise refused
