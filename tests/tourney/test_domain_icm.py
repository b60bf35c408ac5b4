"""Deal calculators: ICM (exact and bounded), chip chop and rounding a deal to money."""

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.icm import (
    IcmError,
    chip_chop,
    deal_amounts,
    icm,
    icm_equities,
    transitions,
)


def harville_by_orders(stacks, prizes):
    """ICM by listing every finishing order (tiny fields only): an independent reference."""
    n = len(stacks)
    padded = list(prizes) + [0] * (n - len(prizes))
    equities = [0.0] * n
    for order in itertools.permutations(range(n)):
        chance, left = 1.0, sum(stacks)
        for player in order:
            chance *= stacks[player] / left
            left -= stacks[player]
        for place, player in enumerate(order):
            equities[player] += chance * padded[place]
    return equities


def test_classic_three_player_example():
    # 50/30/20 chips for 50/30/20: the chip leader's 38.39 is the textbook figure.
    equities = icm_equities([5_000, 3_000, 2_000], [50, 30, 20])
    assert equities == pytest.approx([38.392857, 32.75, 28.857143], abs=1e-6)


def test_two_players_get_second_prize_plus_a_chip_share_of_the_difference():
    equities = icm_equities([30_000, 10_000], [1_000, 600])
    assert equities == pytest.approx([600 + 400 * 0.75, 600 + 400 * 0.25])


def test_equal_stacks_share_equally_and_unpaid_places_pay_nothing():
    assert icm_equities([100] * 6, [300, 200, 100]) == pytest.approx([100.0] * 6)
    assert icm_equities([10, 20], [0, 0]) == (0.0, 0.0)


def test_agrees_with_the_definition_on_small_fields():
    stacks = [13, 7, 22, 1, 9]
    prizes = [500, 250, 125, 75]
    assert icm_equities(stacks, prizes) == pytest.approx(harville_by_orders(stacks, prizes))


def test_ten_and_more_players_are_exact():
    assert icm([1_000 + i for i in range(10)], list(range(1_000, 0, -100))).exact
    assert icm(list(range(1, 15)), list(range(14, 0, -1))).exact


def test_few_paid_places_keep_twenty_players_exact():
    result = icm(list(range(1_000, 21_000, 1_000)), [5_000, 3_000, 2_000])
    assert result.exact and result.depth == 3
    assert math.fsum(result.equities) == pytest.approx(10_000)


def test_twenty_players_every_place_paid_is_bounded():
    stacks = [(i * 7_919) % 50_000 + 1_000 for i in range(20)]
    prizes = list(range(2_000, 0, -100))
    result = icm(stacks, prizes)
    assert not result.exact
    assert 1 <= result.depth < 20
    assert math.fsum(result.equities) == pytest.approx(sum(prizes))
    assert all(0 <= bound <= prizes[result.depth] - prizes[-1] for bound in result.error_bounds)


@given(
    st.lists(st.integers(1, 10**6), min_size=1, max_size=9),
    st.data(),
)
def test_equities_sum_to_the_prize_pool(stacks, data):
    prizes = data.draw(
        st.lists(st.integers(0, 10**7), max_size=len(stacks)).map(lambda p: sorted(p, reverse=True))
    )
    equities = icm_equities(stacks, prizes)
    assert math.fsum(equities) == pytest.approx(sum(prizes), rel=1e-9, abs=1e-6)
    low = min([*prizes, 0] if len(prizes) < len(stacks) else prizes, default=0)
    high = max(prizes, default=0)
    slack = 1e-9 * max(1, high) * len(stacks)
    for equity in equities:
        assert low - slack <= equity <= high + slack
    # More chips never mean less equity (prizes do not rise by place).
    by_stack = sorted(zip(stacks, equities, strict=True))
    for (_, smaller), (_, larger) in itertools.pairwise(by_stack):
        assert smaller <= larger + slack


@given(
    st.lists(st.integers(1, 10_000), min_size=2, max_size=9),
    st.integers(1, 400),
    st.data(),
)
def test_the_truncated_estimate_stays_within_its_bound(stacks, budget, data):
    prizes = data.draw(
        st.lists(st.integers(0, 10_000), min_size=1, max_size=len(stacks)).map(
            lambda p: sorted(p, reverse=True)
        )
    )
    exact = icm(stacks, prizes)
    estimate = icm(stacks, prizes, max_transitions=budget)
    assert estimate.depth >= 1 or not any(prizes)
    assert math.fsum(estimate.equities) == pytest.approx(sum(prizes), rel=1e-9, abs=1e-6)
    for true, approx, bound in zip(
        exact.equities, estimate.equities, estimate.error_bounds, strict=True
    ):
        assert abs(true - approx) <= bound + 1e-6 * max(1, sum(prizes))
    if estimate.exact:
        assert estimate.equities == pytest.approx(exact.equities)


def test_transitions_counts_the_exact_work():
    assert transitions(3, 3) == 3 + 3 * 2 + 3 * 1
    assert transitions(10, 10) == 10 * 2**9


@pytest.mark.parametrize(
    ("stacks", "prizes", "code"),
    [
        ([], [], "bad_stack"),
        ([100, 0], [10], "bad_stack"),
        ([100, 50], [10, -1], "negative_prize"),
        ([100, 50], [30, 20, 10], "too_many_prizes"),
    ],
)
def test_refusals(stacks, prizes, code):
    with pytest.raises(IcmError) as error:
        icm_equities(stacks, prizes)
    assert error.value.code == code
    with pytest.raises(IcmError):
        chip_chop(stacks, prizes)


# --- Chip chop and rounding --------------------------------------------------------------------


def test_chip_chop_pays_the_lowest_prize_then_splits_by_chips():
    # Everyone gets 20; the other 40 goes 50/30/20 by chips.
    assert chip_chop([5_000, 3_000, 2_000], [50, 30, 20]) == pytest.approx([40, 32, 28])
    # Fewer prizes than players: the floor is 0, it is all by chips.
    assert chip_chop([1, 1, 2], [100, 60]) == pytest.approx([40, 40, 80])


def test_deal_amounts_round_to_the_unit_and_add_up():
    equities = icm_equities([5_000, 3_000, 2_000], [500_000, 300_000, 200_000])
    amounts = deal_amounts(equities, 1_000_000, 1_000)
    assert amounts == (384_000, 327_000, 289_000)
    assert deal_amounts([1, 1, 1], 1_000, 100) == (400, 300, 300)
    assert deal_amounts([1, 1, 1], 1_050, 100) == (450, 300, 300)
    assert deal_amounts([0, 0], 0) == (0, 0)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (([1, 2], 100, 0), "bad_unit"),
        (([1, 2], -1, 1), "negative"),
        (([1, -2], 100, 1), "bad_equity"),
        (([], 100, 1), "bad_equity"),
        (([0, 0], 100, 1), "no_equity"),
    ],
)
def test_deal_amount_refusals(args, code):
    with pytest.raises(IcmError) as error:
        deal_amounts(*args)
    assert error.value.code == code


@given(
    st.lists(st.floats(0, 1e9, allow_nan=False), min_size=1, max_size=12).filter(
        lambda e: sum(e) > 0
    ),
    st.integers(0, 10**12),
    st.sampled_from([1, 10, 500, 1_000, 100_000]),
)
def test_deal_amounts_sum_to_the_pool_and_follow_the_equities(equities, pool, unit):
    amounts = deal_amounts(equities, pool, unit)
    assert sum(amounts) == pool
    top = max(range(len(equities)), key=lambda i: (equities[i], -i))
    for i, amount in enumerate(amounts):
        assert amount >= 0
        assert (amount - (pool % unit if i == top else 0)) % unit == 0
        # Within one unit of the exact split (the top also takes the part below a unit).
        exact = equities[i] / math.fsum(equities) * (pool - pool % unit)
        assert abs(amount - exact) <= unit + (pool % unit if i == top else 0) + 1e-3
    for i, j in itertools.permutations(range(len(equities)), 2):
        if equities[i] > equities[j]:
            assert amounts[i] >= amounts[j]
