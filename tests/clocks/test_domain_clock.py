"""The pure blind clock: transitions, refusals, the no-drift timer and docs/rules.md §1.4."""

import pytest
from hypothesis import HealthCheck, settings

from clocks.domain.clock import (
    MAX_REMAINING_MS,
    AdvanceResult,
    ClockError,
    ClockState,
    PeriodChange,
    adjust,
    advance,
    jump_to,
    level_numbers,
    next_period,
    pause,
    pending_at,
    planned_end_ms,
    previous_period,
    resume,
    start,
    stop,
    view,
)
from clocks.domain.structures import Period
from tests.clocks.clock_machine import ClockMachine
from tests.clocks.rimoc_evening import BREAK_1, L5, MIN, RIMOC, SEC, T0, at, started

SHORT = (Period("level", 60, 10, 20), Period("break", 30), Period("level", 90, 20, 40))


def refused(code: str, fn, *args) -> ClockError:
    with pytest.raises(ClockError) as info:
        fn(*args)
    assert info.value.code == code
    assert str(info.value)
    return info.value


# --- docs/rules.md §1.8 -------------------------------------------------------------------------


def test_rules_1_example_2_level_4_ends_at_20_then_break_1_then_level_5() -> None:
    state = started()
    assert view(state, RIMOC, T0).level_number == 1
    for minute, level in ((15, 2), (30, 3), (45, 4)):
        state = advance(state, RIMOC, at(19, minute)).state
        assert view(state, RIMOC, at(19, minute)).level_number == level
    level_4 = view(state, RIMOC, at(19, 45))
    assert (level_4.period.small_blind, level_4.period.big_blind) == (400, 800)
    assert level_4.ends_at_ms == at(20)
    assert level_4.next_period is not None and level_4.next_period.kind == "break"

    result = advance(state, RIMOC, at(20))
    assert result.changes == (PeriodChange(BREAK_1, at(20), state.version + 1),)
    brk = view(result.state, RIMOC, at(20))
    assert (brk.period.kind, brk.level_number, brk.ends_at_ms) == ("break", None, at(20, 10))
    assert brk.next_level_number == 5
    assert brk.next_period is not None
    assert (brk.next_period.small_blind, brk.next_period.big_blind) == (500, 1_000)

    result = advance(result.state, RIMOC, at(20, 10))
    assert [c.period_index for c in result.changes] == [L5]
    level_5 = view(result.state, RIMOC, at(20, 10))
    assert level_5.level_number == 5
    assert (level_5.period.small_blind, level_5.period.big_blind) == (500, 1_000)
    assert level_5.ends_at_ms == at(20, 25)


def test_level_numbers_skip_breaks() -> None:
    numbers = level_numbers(RIMOC)
    assert numbers[:6] == [1, 2, 3, 4, None, 5]
    assert [n for n in numbers if n is not None] == list(range(1, 17))
    assert numbers.count(None) == 4
    assert level_numbers([]) == []


def test_planned_end_of_the_rimoc_evening() -> None:
    # 16 levels x 15 min + 4 breaks x 10 min = 4 h 40 min.
    assert planned_end_ms(ClockState(), RIMOC, T0) == at(23, 40)
    state = started()
    assert planned_end_ms(state, RIMOC, at(21)) == at(23, 40)
    paused = pause(state, RIMOC, at(19, 5))
    assert planned_end_ms(paused, RIMOC, at(19, 35)) == at(23, 40) + 30 * MIN  # 30 min paused
    assert view(paused, RIMOC, at(19, 35)).planned_end_ms == at(23, 40) + 30 * MIN


# --- the timer ------------------------------------------------------------------------------


@pytest.mark.parametrize("periods", [RIMOC, SHORT])
def test_no_drift_when_every_advance_is_300_ms_late(periods) -> None:
    state = started(periods)
    expected_end = T0 + periods[0].duration_seconds * SEC
    for index in range(1, len(periods)):
        assert state.period_ends_at_ms == expected_end
        now = state.period_ends_at_ms + 300
        result = advance(state, periods, now)
        assert result.changes == (PeriodChange(index, expected_end, state.version + 1),)
        expected_end += periods[index].duration_seconds * SEC
        assert result.state.period_ends_at_ms == expected_end  # never now + duration
        assert view(result.state, periods, now).remaining_ms == (
            periods[index].duration_seconds * SEC - 300
        )
        state = result.state
    result = advance(state, periods, expected_end + 300)
    assert result.changes == ()
    assert result.overtime_at_ms == expected_end
    assert result.state == ClockState(
        "overtime", len(periods) - 1, expected_end, None, state.version + 1
    )


def test_advance_after_a_two_hour_outage_steps_with_scheduled_stamps() -> None:
    state = started()
    result = advance(state, RIMOC, at(21))
    stamps = [at(19, 15), at(19, 30), at(19, 45), at(20), at(20, 10), at(20, 25), at(20, 40)]
    stamps.append(at(20, 55))
    assert [(c.period_index, c.scheduled_at_ms) for c in result.changes] == list(
        zip(range(1, 9), stamps, strict=True)
    )
    assert [c.version for c in result.changes] == list(range(2, 10))
    assert result.state == ClockState("running", 8, at(21, 10), None, 9)
    assert result.overtime_at_ms is None and result.changed
    assert view(result.state, RIMOC, at(21)).level_number == 8
    # Idempotent: nothing more to do at the same instant.
    again = advance(result.state, RIMOC, at(21))
    assert again == AdvanceResult(result.state) and not again.changed


def test_past_the_whole_structure_play_goes_on_at_the_last_level() -> None:
    """docs/rules.md §1.4: the structure runs out at its scheduled end, 23:40 (the end of its
    last period, break 4); at 23:59 the room plays the last level, 16, 19 minutes past it, and
    no timer has anything more to do."""
    result = advance(started(), RIMOC, at(23, 59))
    assert [c.period_index for c in result.changes] == list(range(1, len(RIMOC)))
    assert result.overtime_at_ms == at(23, 40)
    assert result.state == ClockState("overtime", len(RIMOC) - 1, at(23, 40), None, 1 + len(RIMOC))
    shown = view(result.state, RIMOC, at(23, 59))
    assert (shown.status, shown.remaining_ms, shown.next_period) == ("overtime", 0, None)
    assert shown.level_number == 16 and shown.period == RIMOC[last_level_index()]
    assert shown.period_index == len(RIMOC) - 1 and shown.overtime_ms == 19 * MIN
    assert shown.elapsed_ms == 280 * MIN + 19 * MIN and shown.planned_end_ms is None
    assert shown.as_dict()["overtime_ms"] == 19 * MIN
    assert advance(result.state, RIMOC, at(23, 59)) == AdvanceResult(result.state)
    assert advance(result.state, RIMOC, at(23, 59) + 3600 * SEC).changed is False


def last_level_index() -> int:
    return max(i for i, p in enumerate(RIMOC) if p.kind == "level")


def test_in_overtime_pause_adjust_next_previous_and_stop() -> None:
    over = advance(started(), RIMOC, at(23, 50)).state
    last = len(RIMOC) - 1
    paused = pause(over, RIMOC, at(23, 50))
    assert paused == ClockState("paused", last, None, 0, over.version + 1)
    # resumed: the last level's time is up at once, overtime counts from the resume
    resumed = resume(paused, RIMOC, at(23, 55))
    assert view(resumed, RIMOC, at(23, 56)).overtime_ms == MIN
    more = adjust(over, RIMOC, at(23, 51), 120)  # two more minutes of the last level
    assert more == ClockState("running", last, at(23, 53), None, over.version + 1)
    refused("no_next_period", next_period, over, RIMOC, at(23, 51))
    refused("invalid_adjustment", adjust, over, RIMOC, at(23, 51), -60)
    assert previous_period(over, RIMOC, at(23, 51)) == ClockState(
        "running",
        last - 1,
        at(23, 51) + RIMOC[last - 1].duration_seconds * SEC,
        None,
        over.version + 1,
    )
    assert stop(over, RIMOC, at(23, 52)) == ClockState(
        "finished", last, None, None, over.version + 1
    )


def test_levels_added_in_overtime_are_reached_with_next() -> None:
    over = advance(started(SHORT), SHORT, T0 + 10 * MIN).state
    longer = (*SHORT, Period("level", 600, 1_000, 2_000))
    shown = view(over, longer, T0 + 11 * MIN)
    assert shown.status == "overtime" and shown.next_period == longer[-1]
    assert next_period(over, longer, T0 + 11 * MIN) == ClockState(
        "running", len(SHORT), T0 + 21 * MIN, None, over.version + 1
    )


def test_a_period_is_over_when_the_clock_reaches_zero() -> None:
    state = started()
    assert advance(state, RIMOC, at(19, 15) - 1) == AdvanceResult(state)
    assert advance(state, RIMOC, at(19, 15)).state.period_index == 1


@pytest.mark.parametrize("status", ["pending", "paused"])
def test_advance_leaves_a_clock_that_is_not_running_alone(status) -> None:
    state = ClockState() if status == "pending" else pause(started(), RIMOC, at(19, 1))
    assert advance(state, RIMOC, at(23, 59)) == AdvanceResult(state)


# --- view -----------------------------------------------------------------------------------


def test_view_past_ends_at_without_advance_shows_the_real_period() -> None:
    state = started()  # stored at L1, never advanced
    shown = view(state, RIMOC, at(20, 5))
    assert shown.period_index == BREAK_1 and shown.period.kind == "break"
    assert shown.level_number is None
    assert shown.remaining_ms == 5 * MIN and shown.ends_at_ms == at(20, 10)
    assert shown.next_level_number == 5
    assert shown.elapsed_ms == 65 * MIN
    assert shown.time_to_next_break_ms == 5 * MIN + 4 * 15 * MIN  # rest of break 1 + L5-L8
    assert shown.version == state.version  # the stored version
    caught_up = advance(state, RIMOC, at(20, 5)).state
    later = view(caught_up, RIMOC, at(20, 5))
    assert {**shown.as_dict(), "version": None} == {**later.as_dict(), "version": None}


def test_view_of_a_pending_clock() -> None:
    shown = view(ClockState(), RIMOC, T0)
    assert shown.status == "pending" and shown.period_index == 0 and shown.level_number == 1
    assert shown.remaining_ms == 15 * MIN and shown.ends_at_ms is None
    assert shown.elapsed_ms == 0 and shown.time_to_next_break_ms == 60 * MIN
    assert shown.as_dict() == {
        "status": "pending",
        "period_index": 0,
        "period": {
            "kind": "level",
            "level": 1,
            "small_blind": 100,
            "big_blind": 200,
            "ante": 0,
            "duration_seconds": 900,
        },
        "remaining_ms": 15 * MIN,
        "ends_at_ms": None,
        "server_time_ms": T0,
        "next_period": {
            "kind": "level",
            "level": 2,
            "small_blind": 200,
            "big_blind": 400,
            "ante": 0,
            "duration_seconds": 900,
        },
        "version": 0,
        "elapsed_ms": 0,
        "time_to_next_break_ms": 60 * MIN,
        "planned_end_ms": at(23, 40),
        "overtime_ms": None,
    }


def test_time_to_next_break_is_none_without_a_later_break() -> None:
    state = jump_to(started(), RIMOC, at(19, 1), len(RIMOC) - 1)  # Break 4, the last period
    assert view(state, RIMOC, at(19, 1)).time_to_next_break_ms is None
    assert view(started(SHORT), SHORT, T0).time_to_next_break_ms == 60 * SEC
    assert view(jump_to(started(SHORT), SHORT, T0, 2), SHORT, T0).time_to_next_break_ms is None


# --- transitions ----------------------------------------------------------------------------


def test_start_runs_period_0_from_now() -> None:
    state = start(ClockState(version=7), RIMOC, T0)
    assert state == ClockState("running", 0, at(19, 15), None, 8)


def test_pausing_freezes_the_remaining_time() -> None:
    state = pause(started(), RIMOC, at(19, 5))
    assert state == ClockState("paused", 0, None, 10 * MIN, 2)
    for later in (at(19, 30), at(22), at(23, 59)):
        shown = view(state, RIMOC, later)
        assert (shown.period_index, shown.remaining_ms, shown.ends_at_ms) == (0, 10 * MIN, None)
        assert advance(state, RIMOC, later) == AdvanceResult(state)
    resumed = resume(state, RIMOC, at(22))
    assert resumed == ClockState("running", 0, at(22, 10), None, 3)


def test_next_and_previous_keep_running_or_paused_with_full_duration() -> None:
    running = next_period(started(), RIMOC, at(19, 5))
    assert running == ClockState("running", 1, at(19, 20), None, 2)
    back = previous_period(running, RIMOC, at(19, 7))
    assert back == ClockState("running", 0, at(19, 22), None, 3)

    paused = pause(back, RIMOC, at(19, 8))
    assert next_period(paused, RIMOC, at(19, 9)) == ClockState("paused", 1, None, 15 * MIN, 5)
    assert previous_period(next_period(paused, RIMOC, at(19, 9)), RIMOC, at(19, 9)) == (
        ClockState("paused", 0, None, 15 * MIN, 6)
    )


def test_next_from_the_last_period_ends_it_now() -> None:
    last = jump_to(started(SHORT), SHORT, T0, 2)
    assert next_period(last, SHORT, T0 + 2 * SEC) == ClockState(
        "overtime", 2, T0 + 2 * SEC, None, last.version + 1
    )
    paused = pause(last, SHORT, T0 + SEC)
    assert next_period(paused, SHORT, T0 + 2 * SEC) == ClockState(
        "paused", 2, None, 0, paused.version + 1
    )


def test_jump_to() -> None:
    state = started()
    assert jump_to(state, RIMOC, at(19, 1), L5) == ClockState("running", L5, at(19, 16), None, 2)
    restart = jump_to(state, RIMOC, at(19, 10), 0)  # the current index restarts the period
    assert restart == ClockState("running", 0, at(19, 25), None, 2)
    paused = pause(state, RIMOC, at(19, 1))
    assert jump_to(paused, RIMOC, at(19, 2), 3) == ClockState("paused", 3, None, 15 * MIN, 3)
    over = next_period(jump_to(state, RIMOC, T0, len(RIMOC) - 1), RIMOC, T0)
    assert over.status == "overtime"
    back = jump_to(over, RIMOC, at(19, 3), len(RIMOC) - 2)
    assert back == ClockState("running", len(RIMOC) - 2, at(19, 18), None, over.version + 1)
    finished = stop(over, RIMOC, at(19, 4))
    reopened = jump_to(finished, RIMOC, at(19, 5), len(RIMOC) - 2)
    assert reopened == ClockState("paused", len(RIMOC) - 2, None, 15 * MIN, finished.version + 1)


def test_adjust_a_running_clock() -> None:
    state = started()
    more = adjust(state, RIMOC, at(19, 5), 120)
    assert more == ClockState("running", 0, at(19, 17), None, 2)
    less = adjust(more, RIMOC, at(19, 6), -300)
    assert less == ClockState("running", 0, at(19, 12), None, 3)
    assert view(less, RIMOC, at(19, 6)).remaining_ms == 6 * MIN


def test_adjust_a_paused_clock() -> None:
    state = pause(started(), RIMOC, at(19, 5))
    assert adjust(state, RIMOC, at(19, 30), 60) == ClockState("paused", 0, None, 11 * MIN, 3)
    assert adjust(state, RIMOC, at(19, 30), -60) == ClockState("paused", 0, None, 9 * MIN, 3)


def test_adjust_a_pending_clock_then_start() -> None:
    state = adjust(ClockState(), RIMOC, T0 - MIN, 5 * 60)
    assert state == ClockState("pending", 0, None, 20 * MIN, 1)
    assert view(state, RIMOC, T0).remaining_ms == 20 * MIN
    assert start(state, RIMOC, T0) == ClockState("running", 0, at(19, 20), None, 2)


def test_removing_all_remaining_time_ends_the_period_now() -> None:
    state = adjust(started(), RIMOC, at(19, 5), -10 * 60)
    assert state.period_ends_at_ms == at(19, 5)
    assert view(state, RIMOC, at(19, 5)).period_index == 1
    result = advance(state, RIMOC, at(19, 5))
    assert [(c.period_index, c.scheduled_at_ms) for c in result.changes] == [(1, at(19, 5))]
    assert result.state.period_ends_at_ms == at(19, 20)


def test_transitions_on_a_late_clock_act_on_the_real_period() -> None:
    state = started()  # timer never ran; at 20:05 Break 1 has 5 minutes left
    paused = pause(state, RIMOC, at(20, 5))
    assert paused == ClockState("paused", BREAK_1, None, 5 * MIN, state.version + 4 + 1)
    assert paused == pause(advance(state, RIMOC, at(20, 5)).state, RIMOC, at(20, 5))
    assert next_period(state, RIMOC, at(20, 5)).period_index == L5
    assert previous_period(state, RIMOC, at(20, 5)).period_index == 3
    assert adjust(state, RIMOC, at(20, 5), 60).period_ends_at_ms == at(20, 11)
    assert pause(state, RIMOC, at(23, 40)).paused_remaining_ms == 0  # overtime, not over


# --- refusals -------------------------------------------------------------------------------


def _states() -> dict[str, ClockState]:
    running = started(SHORT)
    return {
        "pending": ClockState(),
        "running": running,
        "paused": pause(running, SHORT, T0 + SEC),
        "overtime": advance(running, SHORT, T0 + 10 * MIN).state,
        "finished": stop(running, SHORT, T0 + 2 * SEC),
    }


REFUSALS = [
    ("start", "running", "clock_already_started"),
    ("start", "paused", "clock_already_started"),
    ("start", "finished", "clock_finished"),
    ("pause", "pending", "clock_not_running"),
    ("pause", "paused", "clock_not_running"),
    ("pause", "finished", "clock_finished"),
    ("resume", "pending", "clock_not_paused"),
    ("resume", "running", "clock_not_paused"),
    ("resume", "finished", "clock_finished"),
    ("next", "pending", "clock_not_started"),
    ("next", "finished", "clock_finished"),
    ("previous", "pending", "clock_not_started"),
    ("previous", "finished", "clock_finished"),
    ("previous", "running", "no_previous_period"),
    ("previous", "paused", "no_previous_period"),
    ("adjust", "finished", "clock_finished"),
    ("start", "overtime", "clock_already_started"),
    ("resume", "overtime", "clock_not_paused"),
    ("next", "overtime", "no_next_period"),
    ("jump", "pending", "clock_not_started"),
]
OPS = {
    "start": start,
    "pause": pause,
    "resume": resume,
    "next": next_period,
    "previous": previous_period,
    "adjust": lambda s, p, n: adjust(s, p, n, 30),
    "jump": lambda s, p, n: jump_to(s, p, n, 1),
}


@pytest.mark.parametrize(("op", "status", "code"), REFUSALS)
def test_refusals(op, status, code) -> None:
    state = _states()[status]
    assert state.status == status
    refused(code, OPS[op], state, SHORT, T0 + 2 * SEC)


@pytest.mark.parametrize("seconds", [0, True, 1.5, "60"])
def test_adjust_refuses_zero_and_non_integers(seconds) -> None:
    refused("invalid_adjustment", adjust, started(), RIMOC, at(19, 5), seconds)


def test_adjust_refuses_removing_more_than_remains() -> None:
    error = refused("invalid_adjustment", adjust, started(), RIMOC, at(19, 5), -601)
    assert "10:00" in str(error) and "10:01" in str(error)
    paused = pause(started(), RIMOC, at(19, 5))
    refused("invalid_adjustment", adjust, paused, RIMOC, at(19, 6), -601)
    refused("invalid_adjustment", adjust, ClockState(), RIMOC, T0, -901)


def test_adjust_refuses_more_than_the_maximum() -> None:
    too_much = (MAX_REMAINING_MS - 15 * MIN) // SEC + 1
    refused("invalid_adjustment", adjust, ClockState(), RIMOC, T0, too_much)
    assert adjust(ClockState(), RIMOC, T0, too_much - 1).paused_remaining_ms == MAX_REMAINING_MS


@pytest.mark.parametrize("index", [-1, len(RIMOC), 1.0, None])
def test_jump_to_refuses_a_period_outside_the_structure(index) -> None:
    refused("invalid_period", jump_to, started(), RIMOC, at(19, 1), index)


@pytest.mark.parametrize(
    "fields",
    [
        {"status": "stopped"},
        {"status": "running"},
        {"status": "running", "period_ends_at_ms": 1, "paused_remaining_ms": 1},
        {"status": "paused"},
        {"status": "paused", "paused_remaining_ms": 1, "period_ends_at_ms": 1},
        {"status": "paused", "paused_remaining_ms": -1},
        {"status": "pending", "period_ends_at_ms": 1},
        {"status": "finished", "paused_remaining_ms": 0},
        {"period_index": -1},
        {"version": -1},
        {"status": "running", "period_ends_at_ms": 1.5},
    ],
)
def test_impossible_states_are_refused(fields) -> None:
    with pytest.raises(ClockError) as info:
        ClockState(**fields)
    assert info.value.code == "invalid_clock_state"


def test_state_and_structure_must_agree() -> None:
    beyond = ClockState("paused", 3, None, 1_000)
    refused("invalid_clock_state", view, beyond, SHORT, T0)
    refused("no_periods", start, ClockState(), (), T0)
    refused("invalid_structure", start, ClockState(), (Period("level", 0, 1, 2),), T0)
    with pytest.raises(TypeError):
        start(ClockState(), SHORT, T0 + 0.5)


# --- random sequences (tests/clocks/clock_machine.py) ---------------------------------------

TestClockMachine = ClockMachine.TestCase
TestClockMachine.settings = settings(
    max_examples=150,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def test_a_pending_clock_set_to_a_later_period_starts_there() -> None:
    """A Day 2 (docs/rules.md §15.5): set while pending, the clock starts at that period with
    its whole time; once started it cannot be set so."""
    pending = pending_at(ClockState(), RIMOC, at(19), 5)
    assert pending.status == "pending" and pending.period_index == 5
    running = start(pending, RIMOC, at(19, 1))
    assert running.period_index == 5
    assert running.period_ends_at_ms == at(19, 1) + RIMOC[5].duration_seconds * 1000
    with pytest.raises(ClockError):
        pending_at(running, RIMOC, at(19, 2), 1)
    with pytest.raises(ClockError):
        pending_at(ClockState(), RIMOC, at(19, 2), len(RIMOC))
