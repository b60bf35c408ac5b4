"""Missed-hand penalties (docs/rules.md §10): worked examples, refusals and counting invariants."""

import datetime as _dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.penalties import (
    PenaltyError,
    gaming_day_ban_end,
    hands_elapsed_estimate,
    penalty_hands,
    penalty_remaining,
    penalty_time_estimate,
)


def test_example_1_nine_players_two_rounds_is_18_hands():
    assert penalty_hands("missed_rounds", 9, rounds=2) == 18


def test_example_2_six_players_one_round_is_6_hands_whatever_happens_later():
    total = penalty_hands("missed_rounds", 6, rounds=1)
    assert total == 6
    # Players joining later change nothing: the count is not recomputed from the table.
    assert penalty_remaining(total, hands_reported_since=2) == 4


def test_example_3_a_misdeal_and_its_redeal_count_once():
    # 3 hands reported since the start: hand, misdeal, redeal -> the counter dropped by 2.
    assert penalty_remaining(6, hands_reported_since=3, misdeals_since=1) == 4


def test_missed_hands_uses_the_house_fixed_hands_unless_given():
    assert penalty_hands("missed_hands", 9, fixed_hands=3) == 3
    assert penalty_hands("missed_hands", 9, hands=5, fixed_hands=3) == 5
    assert penalty_hands("warning", 9) == 0


@pytest.mark.parametrize(
    ("kwargs", "code"),
    [
        (
            {"kind": "missed_rounds", "players_at_table": 9, "rounds": 5, "rounds_max": 4},
            "too_many_rounds",
        ),
        ({"kind": "missed_rounds", "players_at_table": 9, "rounds": 0}, "bad_rounds"),
        ({"kind": "missed_rounds", "players_at_table": 9}, "bad_rounds"),
        ({"kind": "missed_rounds", "players_at_table": 0, "rounds": 1}, "bad_players"),
        ({"kind": "missed_hands", "players_at_table": 9}, "bad_hands"),
        ({"kind": "missed_hands", "players_at_table": 9, "hands": -2}, "bad_hands"),
        ({"kind": "disqualification", "players_at_table": 9}, "unknown_kind"),
    ],
)
def test_penalty_refusals(kwargs, code):
    with pytest.raises(PenaltyError) as error:
        penalty_hands(**kwargs)
    assert error.value.code == code
    assert error.value.message


def test_the_rounds_maximum_is_inclusive_and_named_in_the_message():
    assert penalty_hands("missed_rounds", 8, rounds=4, rounds_max=4) == 32
    with pytest.raises(PenaltyError) as error:
        penalty_hands("missed_rounds", 8, rounds=5, rounds_max=4)
    assert error.value.message == "At most 4 rounds can be given, not 5."


def test_remaining_refusals():
    with pytest.raises(PenaltyError) as error:
        penalty_remaining(6, hands_reported_since=1, misdeals_since=2)
    assert error.value.code == "bad_misdeals"
    with pytest.raises(PenaltyError) as error:
        penalty_remaining(6, hands_reported_since=-1)
    assert error.value.code == "negative"


def test_time_estimate_when_the_table_does_not_report():
    # 18 hands at 2 minutes a hand; after 25 minutes 12 whole hands are assumed played.
    assert penalty_time_estimate(18, 120) == 2_160
    played = hands_elapsed_estimate(25 * 60, 120)
    assert played == 12
    assert penalty_time_estimate(penalty_remaining(18, played), 120) == 720
    assert penalty_time_estimate(3, 100.5) == 302
    with pytest.raises(PenaltyError) as error:
        penalty_time_estimate(3, 0)
    assert error.value.code == "bad_pace"


@given(
    st.integers(1, 12),
    st.integers(1, 4),
    st.integers(0, 100),
    st.data(),
)
def test_remaining_counts_down_one_per_real_hand(players, rounds, reported, data):
    total = penalty_hands("missed_rounds", players, rounds=rounds, rounds_max=4)
    misdeals = data.draw(st.integers(0, reported))
    left = penalty_remaining(total, reported, misdeals)
    assert left == max(0, total - (reported - misdeals))
    # One more real hand never increases the count and lowers it by at most one.
    assert penalty_remaining(total, reported + 1, misdeals) in (left, left - 1, 0)
    # A misdeal and its redeal are two reports but one hand.
    assert penalty_remaining(total, reported + 2, misdeals + 1) == max(0, left - 1)


# --- the gaming day (docs/rules.md §10.4; Mirage 000:551) ------------------------------------

SIX = _dt.time(6, 0)


def test_a_days_ban_ends_at_the_next_boundary_of_the_gaming_day_in_play():
    assert gaming_day_ban_end(_dt.datetime(2026, 12, 5, 23, 30), SIX, 1) == _dt.datetime(
        2026, 12, 6, 6, 0
    )
    assert gaming_day_ban_end(_dt.datetime(2026, 12, 6, 2, 0), SIX, 1) == _dt.datetime(
        2026, 12, 6, 6, 0
    )
    assert gaming_day_ban_end(_dt.datetime(2026, 12, 6, 6, 0), SIX, 1) == _dt.datetime(
        2026, 12, 7, 6, 0
    )
    assert gaming_day_ban_end(_dt.datetime(2026, 12, 6, 2, 0), SIX, 3) == _dt.datetime(
        2026, 12, 8, 6, 0
    )
    midnight = _dt.time(0, 0)
    assert gaming_day_ban_end(_dt.datetime(2026, 12, 6, 2, 0), midnight, 1) == _dt.datetime(
        2026, 12, 7, 0, 0
    )


@given(
    now=st.datetimes(min_value=_dt.datetime(2020, 1, 1), max_value=_dt.datetime(2040, 1, 1)),
    starts=st.times(),
    days=st.integers(min_value=1, max_value=400),
)
def test_a_ban_ends_on_a_boundary_within_its_days(now, starts, days):
    end = gaming_day_ban_end(now, starts, days)
    assert end.time() == starts
    assert now < end <= now + _dt.timedelta(days=days)
    assert end - _dt.timedelta(days=1) <= now + _dt.timedelta(days=days - 1)
