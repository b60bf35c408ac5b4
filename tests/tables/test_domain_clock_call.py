"""Calling the clock (docs/rules.md §9)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.clock_call import (
    CLOCK_CALL_TOO_EARLY,
    ClockCallError,
    ClockCallRules,
    ClockCallStatus,
    ClockCallTimes,
    acted_in_time,
    clock_call_start,
    clock_call_status,
    expiry_outcome,
)
from tourney.domain.house_rules_profiles import PROFILES

T0 = 1_700_000_000_000


def profile_rules(key: str) -> ClockCallRules:
    """The clock-call rules of a house-rules profile, as the service maps them."""
    rules = PROFILES[key].rules
    return ClockCallRules(
        min_elapsed_seconds=rules.clock_min_elapsed_seconds,
        seconds=rules.clock_seconds,
        final_table_seconds=rules.ft_clock_seconds,
        countdown_seconds=rules.countdown_seconds,
        expiry_no_bet=rules.expiry_no_bet,
    )


MIRAGE = profile_rules("mirage")
TDA = profile_rules("tda2024")
DOYLE = profile_rules("doyle")


# --- docs/rules.md §9.5 examples ---------------------------------------------------------------


def test_example_1_mirage_facing_a_bet_after_95_s_30_s_then_fold():
    times = clock_call_start(MIRAGE, called_at_ms=T0, final_table=False, elapsed_seconds=95)
    assert times == ClockCallTimes(
        seconds=30, countdown_seconds=0, ends_at_ms=T0 + 30_000, countdown_from_ms=T0 + 30_000
    )
    assert clock_call_status(times, T0 + 30_001).phase == "expired"
    assert expiry_outcome(MIRAGE, facing_bet=True) == "fold"


def test_example_2_mirage_final_table_no_bet_60_s_then_check():
    times = clock_call_start(MIRAGE, called_at_ms=T0, final_table=True, elapsed_seconds=95)
    assert times.seconds == 60
    assert times.ends_at_ms == T0 + 60_000
    assert clock_call_status(times, T0 + 59_999) == ClockCallStatus("running", 1)
    assert expiry_outcome(MIRAGE, facing_bet=False) == "check"


def test_example_3_tda_25_plus_5_acting_at_exactly_30_s_is_valid():
    times = clock_call_start(TDA, called_at_ms=T0, final_table=False)
    assert times == ClockCallTimes(
        seconds=25, countdown_seconds=5, ends_at_ms=T0 + 30_000, countdown_from_ms=T0 + 25_000
    )
    assert clock_call_status(times, T0 + 30_000) == ClockCallStatus("countdown", 0)
    assert acted_in_time(times, T0 + 30_000)
    assert not acted_in_time(times, T0 + 30_001)
    assert clock_call_status(times, T0 + 30_001) == ClockCallStatus("expired", 0)


# --- Start ---------------------------------------------------------------------------------


def test_doyle_30_s_then_a_10_s_countdown_and_fold_even_without_a_bet():
    times = clock_call_start(DOYLE, called_at_ms=T0, final_table=True)
    assert (times.countdown_from_ms, times.ends_at_ms) == (T0 + 30_000, T0 + 40_000)
    assert times.called_at_ms == T0 and times.total_ms == 40_000
    assert expiry_outcome(DOYLE, facing_bet=False) == "fold"
    assert expiry_outcome(DOYLE, facing_bet=True) == "fold"


def test_too_early_is_refused_with_a_translatable_message():
    with pytest.raises(ClockCallError) as caught:
        clock_call_start(MIRAGE, called_at_ms=T0, final_table=False, elapsed_seconds=89)
    error = caught.value
    assert isinstance(error, ValueError)
    assert error.code == CLOCK_CALL_TOO_EARLY == "clock_call_too_early"
    assert error.params == {"minimum": 90, "elapsed": 89}
    assert "%(minimum)d" in error.message and error.template == error.message
    assert str(error) == error.message % error.params
    assert "90" in str(error) and "89" in str(error)


def test_exactly_the_minimum_is_allowed():
    clock_call_start(MIRAGE, called_at_ms=T0, final_table=False, elapsed_seconds=90)


def test_unknown_elapsed_time_skips_the_minimum():
    times = clock_call_start(MIRAGE, called_at_ms=T0, final_table=False, elapsed_seconds=None)
    assert times.seconds == 30


def test_no_minimum_allows_an_immediate_call():
    clock_call_start(TDA, called_at_ms=T0, final_table=False, elapsed_seconds=0)


def test_negative_elapsed_is_a_programming_error():
    with pytest.raises(ValueError) as caught:
        clock_call_start(TDA, called_at_ms=T0, final_table=False, elapsed_seconds=-1)
    assert not isinstance(caught.value, ClockCallError)


@pytest.mark.parametrize(
    "fields",
    [
        {"min_elapsed_seconds": -1},
        {"seconds": 0},
        {"final_table_seconds": 0},
        {"countdown_seconds": -1},
        {"expiry_no_bet": "muck"},
    ],
)
def test_bad_rules_are_refused(fields):
    values = {
        "min_elapsed_seconds": 0,
        "seconds": 25,
        "final_table_seconds": 25,
        "countdown_seconds": 5,
        "expiry_no_bet": "check",
        **fields,
    }
    with pytest.raises(ValueError):
        ClockCallRules(**values)


# --- Status --------------------------------------------------------------------------------


def test_phases_through_a_tda_call():
    times = clock_call_start(TDA, called_at_ms=T0, final_table=False)
    assert clock_call_status(times, T0) == ClockCallStatus("running", 30_000)
    assert clock_call_status(times, T0 + 24_999) == ClockCallStatus("running", 5_001)
    assert clock_call_status(times, T0 + 25_000) == ClockCallStatus("countdown", 5_000)
    assert clock_call_status(times, T0 + 29_500) == ClockCallStatus("countdown", 500)
    assert clock_call_status(times, T0 + 99_000) == ClockCallStatus("expired", 0)


def test_without_a_countdown_the_last_instant_is_still_running():
    times = clock_call_start(MIRAGE, called_at_ms=T0, final_table=False)
    assert clock_call_status(times, T0 + 30_000) == ClockCallStatus("running", 0)


def test_a_skewed_now_before_the_call_shows_the_full_time():
    times = clock_call_start(TDA, called_at_ms=T0, final_table=False)
    assert clock_call_status(times, T0 - 5_000) == ClockCallStatus("running", 30_000)


rules_strategy = st.builds(
    ClockCallRules,
    min_elapsed_seconds=st.integers(0, 120),
    seconds=st.integers(1, 120),
    final_table_seconds=st.integers(1, 120),
    countdown_seconds=st.integers(0, 15),
    expiry_no_bet=st.sampled_from(["check", "fold"]),
)


@given(rules_strategy, st.booleans(), st.integers(-200_000, 200_000))
def test_status_invariants(rules, final_table, offset_ms):
    times = clock_call_start(rules, called_at_ms=T0, final_table=final_table)
    assert times.ends_at_ms - times.countdown_from_ms == rules.countdown_seconds * 1_000
    assert times.called_at_ms == T0
    now = T0 + offset_ms
    status = clock_call_status(times, now)
    assert 0 <= status.remaining_ms <= times.total_ms
    assert (status.phase == "expired") == (not acted_in_time(times, now))
    if status.phase != "expired":
        assert status.remaining_ms == min(times.ends_at_ms - now, times.total_ms)
    if status.phase == "countdown":
        assert status.remaining_ms <= rules.countdown_seconds * 1_000
