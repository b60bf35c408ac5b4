"""The pace of a table from its hand reports (tourney.domain.penalties), for the end-time
estimate of a missed-hands penalty."""

from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.penalties import observed_seconds_per_hand


def test_median_gap_of_the_reports():
    assert observed_seconds_per_hand([0, 100, 190, 300, 420], default=120) == 105


def test_breaks_are_left_out_and_too_few_reports_give_the_default():
    # A 20-minute break between the third and fourth report is not a hand.
    assert observed_seconds_per_hand([0, 90, 180, 1380, 1470], default=120) == 90
    assert observed_seconds_per_hand([0, 90, 180], default=120) == 120
    assert observed_seconds_per_hand([], default=120) == 120


def test_the_pace_is_clamped():
    assert observed_seconds_per_hand([0, 1, 2, 3, 4], default=120) == 30
    assert observed_seconds_per_hand([0, 800, 1600, 2400], default=120, bounds=(30, 600)) == 600


@given(st.lists(st.floats(0, 100_000, allow_nan=False), max_size=30), st.floats(30, 900))
def test_the_pace_is_always_within_bounds(times, default):
    assert 30 <= observed_seconds_per_hand(times, default) <= 900
