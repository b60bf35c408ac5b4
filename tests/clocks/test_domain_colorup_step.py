"""Which chips a break removes, the new smallest chip D, the odd-chip unit and k; chips found
after the race (docs/rules.md §1.8 example 3, §8.8 example 5)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.domain.chip_race import ChipRaceError, found_chips_exchange
from clocks.domain.colorup import color_up_break_for, color_up_step
from clocks.domain.structures import TEMPLATES

RIMOC = TEMPLATES["rimoc-championship"]
CHIPS = [c.value for c in RIMOC.chips]
PERIODS = list(RIMOC.periods)


def test_rimoc_break_2_removes_100s_and_500s_together_counted_in_100s():
    step = color_up_step(CHIPS, PERIODS, 9)
    assert (step.removed, step.denomination, step.unit, step.k) == ((100, 500), 1_000, 100, 10)


def test_rimoc_break_4_counts_1000s_in_500s_for_2500s():
    step = color_up_step(CHIPS, PERIODS, 19)
    assert (step.removed, step.denomination, step.unit, step.k) == ((1_000,), 2_500, 500, 5)


def test_no_step_at_a_level_or_a_break_without_a_color_up():
    assert color_up_step(CHIPS, PERIODS, 0) is None
    assert color_up_step(CHIPS, PERIODS, 4) is None  # break 1 removes nothing
    assert color_up_step(CHIPS, PERIODS, 99) is None


def test_the_break_a_color_up_belongs_to():
    assert color_up_break_for(PERIODS, 9, override=False) == 9
    assert color_up_break_for(PERIODS, 10, override=False) is None
    assert color_up_break_for(PERIODS, 10, override=True) == 9  # late: the one just over
    assert color_up_break_for(PERIODS, 2, override=True) == 9  # early: the next one
    assert color_up_break_for(PERIODS, 25, override=True) == 19


def test_example_5_found_chips():
    found = found_chips_exchange(700, 500)
    assert (found.exchanged, found.removed) == (500, 200)
    with pytest.raises(ChipRaceError):
        found_chips_exchange(0, 500)


@given(st.integers(1, 10**7), st.integers(1, 10**5))
def test_found_chips_are_exchanged_at_equal_value_and_lose_less_than_a_chip(value, d):
    found = found_chips_exchange(value, d)
    assert found.exchanged % d == 0 and found.exchanged + found.removed == value
    assert 0 <= found.removed < d
