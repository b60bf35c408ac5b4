"""A Hypothesis state machine of the pure clock (clocks/domain/clock.py): random operations at a
never-decreasing `now`, each checked against the rules by hand. Run as
`ClockMachine.TestCase` in test_domain_clock.py; test_clock_undo.py extends it with undo."""

import pytest
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from clocks.domain.clock import (
    MAX_REMAINING_MS,
    AdvanceResult,
    ClockError,
    ClockState,
    adjust,
    advance,
    jump_to,
    level_numbers,
    next_period,
    pause,
    played_index,
    previous_period,
    resume,
    start,
    view,
)
from clocks.domain.structures import Period
from tests.clocks.rimoc_evening import SEC

PERIODS = st.lists(
    st.builds(
        Period,
        kind=st.sampled_from(["level", "break"]),
        duration_seconds=st.integers(1, 600),
        small_blind=st.just(100),
        big_blind=st.just(200),
    ),
    min_size=1,
    max_size=8,
)


def played(status: str) -> str:
    """A transition from overtime keeps the clock running (play goes on)."""
    return "running" if status == "overtime" else status


class ClockMachine(RuleBasedStateMachine):
    """Random operations at a never-decreasing `now`, checked against the rules by hand."""

    @initialize(periods=PERIODS, now=st.integers(0, 2**41))
    def setup(self, periods: list[Period], now: int) -> None:
        self.periods = tuple(periods)
        self.durations = [p.duration_seconds * SEC for p in self.periods]
        self.now = now
        self.state = ClockState()
        self.added_ms = 0  # time added to the current period since it began
        self.seen_index = 0

    # -- helpers

    def _before(self):
        return view(self.state, self.periods, self.now)

    def _apply(self, fn, expected_code: str | None, *args) -> ClockState | None:
        old = self.state
        if expected_code is not None:
            with pytest.raises(ClockError) as info:
                fn(old, self.periods, self.now, *args)
            assert info.value.code == expected_code
            return None
        new = fn(old, self.periods, self.now, *args)
        caught_up = advance(old, self.periods, self.now).state
        assert new.version == caught_up.version + 1 > old.version
        # Acting on a late clock is the same as acting after the timer has caught up.
        assert new == fn(caught_up, self.periods, self.now, *args)
        self.state = new
        return new

    def _started_code(self, before) -> str | None:
        return {"pending": "clock_not_started", "finished": "clock_finished"}.get(before.status)

    # -- rules

    @rule(ms=st.one_of(st.integers(0, 5_000), st.integers(0, 1_200_000), st.just(7_200_000)))
    def time_passes(self, ms: int) -> None:
        self.now += ms

    @rule()
    def do_start(self) -> None:
        before = self._before()
        code = {"pending": None, "finished": "clock_finished"}.get(
            before.status, "clock_already_started"
        )  # overtime: started long ago
        if self._apply(start, code):
            assert self.state.period_ends_at_ms == self.now + before.remaining_ms

    @rule()
    def do_pause(self) -> None:
        before = self._before()
        code = {"running": None, "overtime": None, "finished": "clock_finished"}.get(
            before.status, "clock_not_running"
        )
        if self._apply(pause, code):
            assert self.state.paused_remaining_ms == before.remaining_ms
            assert self.state.period_index == before.period_index

    @rule()
    def do_resume(self) -> None:
        before = self._before()
        code = {"paused": None, "finished": "clock_finished"}.get(before.status, "clock_not_paused")
        if self._apply(resume, code):
            assert self.state.period_ends_at_ms == self.now + before.remaining_ms

    @rule()
    def do_next(self) -> None:
        before = self._before()
        code = self._started_code(before)
        if code is None and before.status == "overtime" and before.next_period_index is None:
            code = "no_next_period"
        if self._apply(next_period, code):
            self.added_ms = 0
            if before.next_period_index is None:
                # The last period ends now: overtime from this instant, or 0 left while paused.
                expected = "overtime" if before.status == "running" else "paused"
                assert self.state.status == expected
                assert self._before().remaining_ms == 0
            else:
                assert self.state.status == played(before.status)
                assert self.state.period_index == before.period_index + 1
                assert self._before().remaining_ms == self.durations[self.state.period_index]

    @rule()
    def do_previous(self) -> None:
        before = self._before()
        code = self._started_code(before)
        if code is None and before.period_index == 0:
            code = "no_previous_period"
        if self._apply(previous_period, code):
            self.added_ms = 0
            assert self.state.status == played(before.status)
            assert self.state.period_index == before.period_index - 1
            assert self._before().remaining_ms == self.durations[self.state.period_index]

    @rule(index=st.integers(-1, 8))
    def do_jump(self, index: int) -> None:
        before = self._before()
        code = "invalid_period" if not 0 <= index < len(self.periods) else None
        code = code or {"pending": "clock_not_started"}.get(before.status)
        if self._apply(jump_to, code, index):
            self.added_ms = 0
            expected = "paused" if before.status == "finished" else played(before.status)
            assert (self.state.status, self.state.period_index) == (expected, index)
            assert self._before().remaining_ms == self.durations[index]

    @rule(seconds=st.integers(-700, 700))
    def do_adjust(self, seconds: int) -> None:
        before = self._before()
        new_remaining = before.remaining_ms + seconds * SEC
        if seconds == 0:
            code = "invalid_adjustment"
        elif before.status == "finished":
            code = "clock_finished"
        elif not 0 <= new_remaining <= MAX_REMAINING_MS:
            code = "invalid_adjustment"
        else:
            code = None
        if self._apply(adjust, code, seconds):
            after = self._before()
            if before.status == "running" and new_remaining == 0:
                # Removing all the time left ends a running period now: the view has moved on.
                last = before.period_index == len(self.periods) - 1
                assert (
                    after.status == "overtime" if last else after.period_index > before.period_index
                )
                return
            if before.status == "overtime":  # the last level runs again for the time added
                assert after.status == "running"
            assert after.remaining_ms == new_remaining
            assert after.period_index == before.period_index
            self.added_ms += max(0, seconds * SEC)

    @rule()
    def do_advance(self) -> None:
        old = self.state
        result = advance(old, self.periods, self.now)
        steps = len(result.changes) + (result.overtime_at_ms is not None)
        assert result.state.version == old.version + steps
        if not result.changed:
            assert result.state == old
        expected_at = old.period_ends_at_ms
        for offset, change in enumerate(result.changes, start=1):
            # Consecutive periods, each entered exactly when the previous one was scheduled
            # to end: never skipped, never repeated, no drift.
            assert change.period_index == old.period_index + offset
            assert change.scheduled_at_ms == expected_at <= self.now
            assert change.version == old.version + offset
            expected_at += self.durations[change.period_index]
        if result.overtime_at_ms is not None:
            assert result.overtime_at_ms == expected_at <= self.now
            assert result.state.status == "overtime"
            assert result.state.period_ends_at_ms == expected_at
        elif result.changed:
            assert result.state.period_ends_at_ms == expected_at > self.now
        assert advance(result.state, self.periods, self.now) == AdvanceResult(result.state)
        self.state = result.state

    # -- invariants

    @invariant()
    def stored_state_is_well_formed(self) -> None:
        s = self.state
        if s.status in ("running", "overtime"):
            assert s.period_ends_at_ms is not None and s.paused_remaining_ms is None
            if s.status == "overtime":
                assert s.period_index == len(self.periods) - 1
        elif s.status == "paused":
            assert s.period_ends_at_ms is None and s.paused_remaining_ms is not None
        else:
            assert s.period_ends_at_ms is None
            if s.status == "finished":
                assert s.paused_remaining_ms is None
                assert s.period_index == len(self.periods) - 1
            else:
                assert s.period_index == 0

    @invariant()
    def view_is_consistent(self) -> None:
        shown = self._before()
        index = shown.period_index
        if index != self.seen_index:
            self.added_ms, self.seen_index = 0, index
        duration = self.durations[index]
        assert 0 <= shown.remaining_ms <= duration + self.added_ms
        numbers = level_numbers(self.periods)
        assert shown.level_number == numbers[played_index(self.periods, index, shown.status)]
        assert (shown.ends_at_ms is not None) == (shown.status in ("running", "overtime"))
        if shown.status == "overtime":
            assert shown.remaining_ms == 0 and shown.overtime_ms == self.now - shown.ends_at_ms
            assert shown.elapsed_ms == sum(self.durations) + shown.overtime_ms
            assert shown.planned_end_ms is None and shown.next_period_index is None
            return
        assert shown.overtime_ms is None
        if shown.status == "finished":
            assert shown.remaining_ms == 0 and shown.elapsed_ms == sum(self.durations)
            assert shown.planned_end_ms is None and shown.time_to_next_break_ms is None
            return
        if shown.status == "running":
            assert shown.ends_at_ms == self.now + shown.remaining_ms
            assert shown.remaining_ms > 0
        later = sum(self.durations[index + 1 :])
        assert shown.elapsed_ms == sum(self.durations[:index]) + max(
            0, duration - shown.remaining_ms
        )
        assert shown.planned_end_ms == self.now + shown.remaining_ms + later
        breaks = [i for i in range(index + 1, len(self.periods)) if self.periods[i].kind == "break"]
        expected = (
            shown.remaining_ms + sum(self.durations[index + 1 : breaks[0]]) if breaks else None
        )
        assert shown.time_to_next_break_ms == expected
        # A late timer is never wrong: the view does not depend on whether advance ran.
        caught_up = view(advance(self.state, self.periods, self.now).state, self.periods, self.now)
        assert {**shown.as_dict(), "version": 0} == {**caught_up.as_dict(), "version": 0}
