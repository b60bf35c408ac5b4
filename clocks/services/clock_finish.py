"""The clock of a finished tournament (docs/rules.md §1.4, §11.7): it stops when the last
bust-out leaves one player, and runs again when that bust-out is undone.

Called inside the bust-out's (or its undo's) transaction, the tournament row locked. Kept
apart from `clocks.services.clock`, which the bust-outs' own module is imported by (the
absent-player deadline), so that no import cycle joins them.
"""

import time

from django.utils.translation import gettext_noop

from clocks.domain.clock import ClockState, restart, stop, view
from clocks.domain.structures import Period
from clocks.models import Clock, StructureLevel
from clocks.services.clock_state import clock_out
from clocks.services.structures import period_from_row
from tourney.models import AuditEntry, Tournament
from tourney.services.audit import audit_record, audit_text
from tourney.services.events import event_append

STOP = "clock.finish"
RESTART = "clock.finish_undo"
SUMMARIES = {
    STOP: gettext_noop("Clock stopped: the tournament is finished"),
    RESTART: gettext_noop("Clock running again: the bust-out that ended the tournament was undone"),
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
