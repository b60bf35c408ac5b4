"""Color-up (docs/rules.md §8): round-up and chip-race worked examples, refusals and invariants."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.domain.chip_race import (
    ChipRaceError,
    chip_race,
    plan_race,
    race_chip_count,
    round_up_stacks,
)
from tables.domain.cards import Card


def cards(*codes: str) -> tuple[Card, ...]:
    return tuple(Card.from_code(code) for code in codes)


# --- Method A ----------------------------------------------------------------------------------


def test_example_1_round_up_to_500():
    result = round_up_stacks({1: 1_100, 2: 12_300, 3: 12_500, 4: 200}, 500)
    assert result.new_stacks == {1: 1_500, 2: 12_500, 3: 12_500, 4: 500}
    assert result.increases == {1: 400, 2: 200, 3: 0, 4: 300}
    assert result.total_increase == 900


def test_example_2_round_up_when_500s_and_1000s_go():
    assert round_up_stacks({1: 7_500}, 1_000).new_stacks == {1: 8_000}
    assert round_up_stacks({1: 11_000}, 5_000).new_stacks == {1: 15_000}


def test_round_up_leaves_an_empty_stack_empty_and_refuses_bad_input():
    assert round_up_stacks({1: 0}, 500).new_stacks == {1: 0}
    with pytest.raises(ChipRaceError) as error:
        round_up_stacks({1: -100}, 500)
    assert error.value.code == "negative"
    with pytest.raises(ChipRaceError) as error:
        round_up_stacks({1: 100}, 0)
    assert error.value.code == "bad_denomination"


@given(st.dictionaries(st.integers(1, 10), st.integers(0, 10**7)), st.integers(1, 10**5))
def test_round_up_never_lowers_and_lands_on_the_chip(stacks, denomination):
    result = round_up_stacks(stacks, denomination)
    for seat, stack in stacks.items():
        assert result.new_stacks[seat] % denomination == 0
        assert 0 <= result.new_stacks[seat] - stack < denomination
    assert result.total_increase == sum(result.new_stacks.values()) - sum(stacks.values())


# --- Race chip count ---------------------------------------------------------------------------


def test_example_4_race_chip_count_by_rounding():
    assert race_chip_count(13, 5, "half_up") == 3
    assert race_chip_count(13, 5, "down") == 2
    assert race_chip_count(12, 5, "half_up") == 2
    assert race_chip_count(12, 5, "up") == 3
    assert race_chip_count(10, 5, "up") == 2
    assert race_chip_count(0, 5, "up") == 0


def test_half_up_with_an_even_k_rounds_the_exact_half_up():
    assert race_chip_count(2, 4, "half_up") == 1
    assert race_chip_count(1, 4, "half_up") == 0


@pytest.mark.parametrize(
    ("args", "code"),
    [((5, 1, "up"), "bad_k"), ((5, 5, "nearest"), "bad_rounding"), ((-1, 5, "up"), "negative")],
)
def test_race_chip_count_refusals(args, code):
    with pytest.raises(ChipRaceError) as error:
        race_chip_count(*args)
    assert error.value.code == code


# --- The race: example 3 ------------------------------------------------------------------------

EXAMPLE_ODD = {1: 3, 4: 4, 7: 2, 9: 1}
EXAMPLE_HELD = {1: 12, 4: 3, 7: 0, 9: 20}
EXAMPLE_CARDS = {
    1: cards("2c", "5d", "Kh"),
    4: cards("Ks", "3c", "4c", "7h"),
    7: cards("9d", "2d"),
    9: cards("Ac"),
}


def test_example_3_race_with_an_extra_chip():
    race = chip_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "extra", cards=EXAMPLE_CARDS)
    assert race.plan.total_odd == 10
    assert race.plan.race_chips == 2
    assert race.deal_order == (1, 4, 7, 9)
    assert race.ranking == (9, 4, 1, 7)
    assert race.winners == (9, 4)
    assert race.zero_stack_chips == (7,)
    assert race.extra_chips == 1
    assert race.new_chips == {1: 12, 4: 4, 7: 1, 9: 21}
    assert race.awarded == (4, 7, 9)
    # 10 x 100 removed, 3 x 500 added (100 = old_value).
    race_in_money = chip_race(
        EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "extra", cards=EXAMPLE_CARDS, old_value=100
    )
    assert race_in_money.chips_removed_value == 1_000
    assert race_in_money.chips_added_value == 1_500
    assert race_in_money.chips_in_play_change == 500


def test_example_3_from_the_pool_seat_7_is_paid_first_and_not_dealt():
    plan = plan_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "from_pool")
    assert plan.pooled_seats == (7,)
    assert plan.chips_to_race == 1
    assert plan.deal_order == (1, 4, 9)
    assert plan.cards_needed == {1: 3, 4: 4, 9: 1}
    recorded = {seat: EXAMPLE_CARDS[seat] for seat in plan.deal_order}
    race = chip_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "from_pool", cards=recorded)
    assert race.winners == (9,)
    assert race.zero_stack_chips == (7,)
    assert race.extra_chips == 0
    assert race.new_chips == {1: 12, 4: 3, 7: 1, 9: 21}
    assert race.chips_in_play_change == 0


def test_deal_starts_at_the_start_seat_and_goes_clockwise():
    plan = plan_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "extra", start_seat=5)
    assert plan.deal_order == (7, 9, 1, 4)


def test_virtual_deal_gives_o_distinct_cards_in_deal_order():
    race = chip_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "extra", rng=random.Random(7))
    assert {seat: len(c) for seat, c in race.cards.items()} == {1: 3, 4: 4, 7: 2, 9: 1}
    assert list(race.cards) == [1, 4, 7, 9]
    dealt = [card for hand in race.cards.values() for card in hand]
    assert len(set(dealt)) == 10
    assert len(race.winners) == 2
    best = sorted(race.cards, key=lambda seat: max(race.cards[seat]), reverse=True)
    assert race.winners == tuple(best[:2])


def test_no_cards_when_the_outcome_is_decided():
    # O = 1 of k = 5 rounds down to no chip: nobody wins; the zero stack gets its chip.
    nobody = chip_race({3: 1}, {3: 0}, 5, "half_up", "extra")
    assert nobody.plan.deal_order == () and nobody.winners == ()
    assert nobody.new_chips == {3: 1} and nobody.extra_chips == 1
    # O = 3 of k = 5 rounds up to one chip for the single racer.
    everyone = chip_race({3: 3, 5: 0}, {3: 2, 5: 8}, 5, "half_up", "extra")
    assert everyone.winners == (3,) and everyone.new_chips == {3: 3, 5: 8}


def test_more_zero_stacks_than_chips_from_the_pool_are_extra():
    race = chip_race({1: 1, 2: 1, 3: 1}, {}, 5, "half_up", "from_pool")
    assert race.winners == ()
    assert race.zero_stack_chips == (1, 2, 3)
    assert race.plan.race_chips == 1
    assert race.extra_chips == 2


# --- Refusals ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("odd", "held", "k", "code"),
    [
        ({1: 5}, {1: 1}, 5, "odd_chips_too_many"),
        ({1: -1}, {1: 1}, 5, "negative"),
        ({1: 1}, {1: -1}, 5, "negative"),
        ({0: 1}, {}, 5, "bad_seat"),
        ({1: 1}, {}, 1, "bad_k"),
        ({s: 9 for s in range(1, 7)}, {}, 10, "too_many_cards"),
    ],
)
def test_plan_refusals(odd, held, k, code):
    with pytest.raises(ChipRaceError) as error:
        chip_race(odd, held, k, "half_up", "extra", rng=random.Random(1))
    assert error.value.code == code
    assert error.value.message


def test_odd_chips_too_many_names_the_seats():
    with pytest.raises(ChipRaceError) as error:
        plan_race({2: 5, 1: 7, 3: 4}, {}, 5, "up", "extra")
    assert error.value.params == {"seats": "1, 2", "k": 5}
    assert "1, 2" in error.value.message


def test_recorded_cards_must_match_the_odd_chips():
    short = {**EXAMPLE_CARDS, 4: cards("Ks", "3c", "4c")}
    with pytest.raises(ChipRaceError) as error:
        chip_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "extra", cards=short)
    assert error.value.code == "card_count"
    stray = {**EXAMPLE_CARDS, 2: cards("Qd")}
    with pytest.raises(ChipRaceError) as error:
        chip_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "extra", cards=stray)
    assert error.value.code == "card_count"


def test_a_card_recorded_twice_is_refused():
    twice = {**EXAMPLE_CARDS, 9: cards("Kh")}
    with pytest.raises(ChipRaceError) as error:
        chip_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "extra", cards=twice)
    assert error.value.code == "duplicate_card"
    assert "K♥" in error.value.message


def test_a_deal_needs_cards_or_a_random_source():
    with pytest.raises(ChipRaceError) as error:
        chip_race(EXAMPLE_ODD, EXAMPLE_HELD, 5, "half_up", "extra")
    assert error.value.code == "no_deal"


# --- Invariants ----------------------------------------------------------------------------------


@st.composite
def tables(draw):
    k = draw(st.integers(2, 10))
    seats = draw(st.lists(st.integers(1, 10), min_size=1, max_size=10, unique=True))
    odd = {seat: draw(st.integers(0, k - 1)) for seat in seats}
    held = {seat: draw(st.integers(0, 3)) for seat in seats}
    # Stay within one deck: the plan refuses more than 52 cards.
    while sum(odd.values()) > 52:
        seat = max(odd, key=odd.get)
        odd[seat] -= 1
    return k, odd, held


@given(
    tables(),
    st.sampled_from(["half_up", "up", "down"]),
    st.sampled_from(["extra", "from_pool"]),
    st.integers(1, 10),
    st.randoms(use_true_random=False),
)
def test_race_invariants(table, rounding, zero_stack, start_seat, rng):
    k, odd, held = table
    race = chip_race(
        odd, held, k, rounding, zero_stack, rng=rng, start_seat=start_seat, old_value=25
    )
    d = k * 25
    for seat in odd:
        had_chips = odd[seat] > 0 or held[seat] > 0
        # Nobody is raced out, nobody gets more than one chip.
        assert race.new_chips[seat] >= (1 if had_chips else 0)
        assert race.new_chips[seat] - held[seat] in (0, 1)
        if odd[seat] == 0:
            assert race.new_chips[seat] == held[seat]
    # The chips in play change by the rounding only, plus one D chip per extra chip.
    rounding_change = race.chips_in_play_change - race.extra_chips * d
    assert rounding_change == (race.plan.race_chips * k - race.plan.total_odd) * 25
    assert -d < rounding_change < d
    if rounding == "down":
        assert rounding_change <= 0
    if rounding == "up":
        assert rounding_change >= 0
    assert race.extra_chips >= 0
    given_chips = sum(race.new_chips.values()) - sum(held.values())
    assert given_chips == race.plan.race_chips + race.extra_chips
    assert race.chips_added_value == given_chips * d


@given(tables(), st.randoms(use_true_random=False))
def test_recorded_cards_give_the_same_result_as_the_same_virtual_deal(table, rng):
    k, odd, held = table
    virtual = chip_race(odd, held, k, "half_up", "extra", rng=rng)
    recorded = chip_race(odd, held, k, "half_up", "extra", cards=virtual.cards)
    assert recorded.winners == virtual.winners
    assert recorded.new_chips == virtual.new_chips
