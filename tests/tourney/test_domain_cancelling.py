"""The settlement of a cancelled event (docs/rules.md §18): worked examples and properties."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.cancelling import CancelError, cancel_shares, settlement_of


def test_before_the_start_it_is_always_a_refund():
    assert settlement_of(False, "chip_count", "equal") == "refund"
    assert settlement_of(True, "chip_count", None) == "chip_count"
    assert settlement_of(True, "chip_count", "equal") == "equal"
    with pytest.raises(CancelError) as refused:
        settlement_of(True, "chip_count", "coin_flip")
    assert refused.value.code == "invalid_settlement"


def test_example_2_chip_count_and_equal():
    stacks = {1: 80_000, 2: 48_000, 3: 32_000}
    assert cancel_shares("chip_count", stacks=stacks, prizes=[40_000]) == {
        1: 20_000, 2: 12_000, 3: 8_000,
    }  # fmt: skip
    assert cancel_shares("equal", stacks=stacks, prizes=[40_000]) == {
        1: 13_334, 2: 13_333, 3: 13_333,
    }  # fmt: skip
    assert cancel_shares("refund", stacks=stacks, prizes=[40_000]) == {}


def test_in_the_money_each_gets_the_lowest_prize_left_first():
    # §12.8 example 5's chip chop: 2,000 each, then 4,000 by chips.
    stacks = {1: 50_000, 2: 30_000, 3: 20_000}
    shares = cancel_shares("chip_count", stacks=stacks, prizes=[5_000, 3_000, 2_000, 1_000])
    assert shares == {1: 4_000, 2: 3_200, 3: 2_800}


def test_a_stack_not_counted_is_refused():
    with pytest.raises(CancelError) as refused:
        cancel_shares("chip_count", stacks={1: 10_000, 2: None}, prizes=[100])
    assert refused.value.code == "chips_not_counted"
    assert cancel_shares("equal", stacks={1: 10_000, 2: None}, prizes=[100]) == {1: 50, 2: 50}


@given(
    stacks=st.lists(st.integers(1, 10**7), min_size=1, max_size=30),
    prizes=st.lists(st.integers(0, 10**6), min_size=1, max_size=40),
    unit=st.sampled_from([1, 10, 100, 1000]),
    settlement=st.sampled_from(["chip_count", "equal"]),
)
def test_the_shares_add_up_and_a_bigger_stack_never_gets_less(stacks, prizes, unit, settlement):
    prizes = sorted(prizes, reverse=True)
    by_entry = dict(enumerate(stacks, start=1))
    shares = cancel_shares(settlement, stacks=by_entry, prizes=prizes, unit=unit)
    assert sum(shares.values()) == sum(prizes[: len(stacks)])
    assert all(v >= 0 for v in shares.values())
    if settlement == "chip_count":
        ordered = sorted(by_entry, key=lambda e: by_entry[e])
        for small, big in itertools.pairwise(ordered):
            if by_entry[big] > by_entry[small]:
                assert shares[big] >= shares[small]
