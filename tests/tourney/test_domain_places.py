"""Finishing places, hand-for-hand ties and prize splits (docs/rules.md §11)."""

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.places import (
    Bust,
    Placing,
    award_prizes,
    places_for_busts,
    remaining_after,
    shared_prize,
)


def ranges(placings):
    """entry id -> (place, place_to)."""
    return {p.entry_id: (p.place, p.place_to) for p in placings}


# --- docs/rules.md §11.9 examples --------------------------------------------------------------


def test_example_1_larger_stack_places_higher():
    placings = places_for_busts(15, [Bust(2, 8_000, 1), Bust(1, 12_000, 1)])
    assert placings == (Placing(1, 14, 14), Placing(2, 15, 15))
    assert not placings[0].tied


def test_example_2_equal_stacks_tie_and_split_14th_and_15th():
    placings = places_for_busts(15, [Bust(1, 8_000, 1), Bust(2, 8_000, 2)])
    assert placings == (Placing(1, 14, 15), Placing(2, 14, 15))
    assert all(p.tied and p.sharers == 2 for p in placings)
    prizes = {14: 300, 15: 200}
    assert shared_prize(prizes, 14, 15, 2) == (250, 250)
    assert award_prizes(placings, prizes) == {1: 250, 2: 250}


def test_example_3_tda_hand_for_hand_three_busts_share_50th():
    busts = [Bust(7, 30_000, 1), Bust(8, 5_000, 2), Bust(9, 5_000, 2)]
    placings = places_for_busts(52, busts, hand_for_hand=True, h4h_mode="tda_rp8")
    assert ranges(placings) == {7: (50, 52), 8: (50, 52), 9: (50, 52)}
    prizes = {p: 100 for p in range(1, 51)}  # 50 paid; 51 and 52 pay nothing
    assert shared_prize(prizes, 50, 52, 3) == (34, 33, 33)
    assert award_prizes(placings, prizes) == {7: 34, 8: 33, 9: 33}


def test_example_4_wsop_busts_at_different_tables_tie_for_50th_51st():
    busts = [Bust(1, 40_000, 3), Bust(2, 10_000, 5)]
    placings = places_for_busts(51, busts, hand_for_hand=True, h4h_mode="wsop")
    assert placings == (Placing(1, 50, 51), Placing(2, 50, 51))
    assert award_prizes(placings, {50: 1_000}) == {1: 500, 2: 500}


# --- Normal play ---------------------------------------------------------------------------


def test_three_busts_with_a_tie_in_the_middle():
    busts = [Bust(1, 100, None), Bust(2, 500, None), Bust(3, 100, None), Bust(4, 50, None)]
    assert ranges(places_for_busts(10, busts)) == {
        2: (7, 7),
        1: (8, 9),
        3: (8, 9),
        4: (10, 10),
    }


def test_result_order_is_place_then_entry_id():
    busts = [Bust(9, 100, 1), Bust(3, 100, 1), Bust(5, 900, 1)]
    assert [p.entry_id for p in places_for_busts(20, busts)] == [5, 3, 9]


def test_unknown_stacks_all_tie():
    busts = [Bust(1, None, 1), Bust(2, None, 2), Bust(3, None, 1)]
    assert set(ranges(places_for_busts(3, busts)).values()) == {(1, 3)}


def test_single_bust_takes_the_last_place_whatever_is_missing():
    assert places_for_busts(27, [Bust(4, None, None)]) == (Placing(4, 27, 27),)
    assert places_for_busts(27, [Bust(4, None, None)], hand_for_hand=True, h4h_mode="wsop") == (
        Placing(4, 27, 27),
    )


def test_zero_stacks_are_allowed_and_rank_lowest():
    busts = [Bust(1, 0, 1), Bust(2, 10, 1)]
    assert ranges(places_for_busts(2, busts)) == {2: (1, 1), 1: (2, 2)}


def test_heads_up_everyone_busts_means_places_one_and_two():
    busts = [Bust(1, 5, 1), Bust(2, 5, 1)]
    assert set(ranges(places_for_busts(2, busts)).values()) == {(1, 2)}


def test_stacks_decide_even_when_hand_for_hand_is_off_across_tables():
    busts = [Bust(1, 100, 1), Bust(2, 200, 2)]
    assert ranges(places_for_busts(30, busts)) == {2: (29, 29), 1: (30, 30)}


# --- Hand-for-hand -------------------------------------------------------------------------


def test_tda_hand_for_hand_ignores_stacks_and_unknown_tables():
    busts = [Bust(1, 900, None), Bust(2, 100, None)]
    placings = places_for_busts(40, busts, hand_for_hand=True)
    assert set(ranges(placings).values()) == {(39, 40)}


def test_wsop_all_at_one_table_orders_by_stack():
    busts = [Bust(1, 100, 4), Bust(2, 300, 4), Bust(3, 100, 4)]
    placings = places_for_busts(20, busts, hand_for_hand=True, h4h_mode="wsop")
    assert ranges(placings) == {2: (18, 18), 1: (19, 20), 3: (19, 20)}


def test_wsop_table_ranks_combine_across_tables():
    # Table 1: A 500, B 200; table 2: C 50, D 40. Ranks A1 B2 C1 D2.
    busts = [Bust(1, 500, 1), Bust(2, 200, 1), Bust(3, 50, 2), Bust(4, 40, 2)]
    placings = places_for_busts(60, busts, hand_for_hand=True, h4h_mode="wsop")
    assert ranges(placings) == {1: (57, 58), 3: (57, 58), 2: (59, 60), 4: (59, 60)}


def test_wsop_equal_stacks_share_a_rank_and_skip_the_next():
    # Table 1: A=B=300 (rank 1), C 100 (rank 3); table 2: D 200 (1), E 100 (2).
    busts = [
        Bust(1, 300, 1),
        Bust(2, 300, 1),
        Bust(3, 100, 1),
        Bust(4, 200, 2),
        Bust(5, 100, 2),
    ]
    placings = places_for_busts(50, busts, hand_for_hand=True, h4h_mode="wsop")
    assert ranges(placings) == {
        1: (46, 48),
        2: (46, 48),
        4: (46, 48),
        5: (49, 49),
        3: (50, 50),
    }


def test_wsop_unknown_stacks_at_two_tables_all_tie():
    busts = [Bust(1, None, 1), Bust(2, None, 1), Bust(3, None, 2)]
    placings = places_for_busts(10, busts, hand_for_hand=True, h4h_mode="wsop")
    assert set(ranges(placings).values()) == {(8, 10)}


def test_wsop_needs_every_table():
    with pytest.raises(ValueError, match="table"):
        places_for_busts(10, [Bust(1, 5, 1), Bust(2, 6, None)], hand_for_hand=True, h4h_mode="wsop")


def test_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="mode"):
        places_for_busts(10, [Bust(1, 5, 1), Bust(2, 6, 1)], hand_for_hand=True, h4h_mode="x")


# --- Validation ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("remaining", "busts", "match"),
    [
        (0, [Bust(1, 5, 1)], "remaining_before"),
        (5, [], "at least one"),
        (1, [Bust(1, 5, 1), Bust(2, 5, 1)], "only 1"),
        (5, [Bust(1, 5, 1), Bust(1, 6, 1)], "more than once"),
        (5, [Bust(1, -1, 1)], "negative"),
        (5, [Bust(1, 5, 1), Bust(2, None, 1)], "every bust or for none"),
    ],
)
def test_bad_input_is_refused(remaining, busts, match):
    with pytest.raises(ValueError, match=match):
        places_for_busts(remaining, busts)


def test_mixed_stacks_are_refused_in_hand_for_hand_too():
    with pytest.raises(ValueError, match="every bust or for none"):
        places_for_busts(9, [Bust(1, 5, 1), Bust(2, None, 2)], hand_for_hand=True)


def test_remaining_after():
    assert remaining_after(15, 2) == 13
    assert remaining_after(2, 2) == 0
    for before, busts in ((1, 2), (-1, 0), (5, -1)):
        with pytest.raises(ValueError):
            remaining_after(before, busts)


# --- shared_prize / award_prizes -----------------------------------------------------------


def test_shared_prize_leftover_goes_to_the_first_players():
    assert shared_prize({1: 10}, 1, 3, 3) == (4, 3, 3)
    assert shared_prize({1: 11}, 1, 3, 3) == (4, 4, 3)


def test_shared_prize_in_units_with_an_odd_remainder_to_the_first():
    # 1,050 in units of 100 among 2: 10 units -> 5 each; 50 left over to the first.
    assert shared_prize({4: 1_000, 5: 50}, 4, 5, 2, unit=100) == (550, 500)
    # 1,150 among 2 in units of 100: 11 units -> 6 and 5 units; 50 to the first.
    assert shared_prize({4: 1_100, 5: 50}, 4, 5, 2, unit=100) == (650, 500)


def test_shared_prize_of_unpaid_places_is_zero():
    assert shared_prize({1: 100}, 60, 62, 3) == (0, 0, 0)


def test_shared_prize_sharers_may_differ_from_the_range():
    assert shared_prize({1: 100, 2: 50}, 1, 2, 3) == (50, 50, 50)


@pytest.mark.parametrize(
    ("place", "place_to", "sharers", "unit", "prizes"),
    [
        (0, 1, 1, 1, {}),
        (3, 2, 1, 1, {}),
        (1, 1, 0, 1, {}),
        (1, 1, 1, 0, {}),
        (1, 2, 2, 1, {2: -5}),
    ],
)
def test_shared_prize_bad_input(place, place_to, sharers, unit, prizes):
    with pytest.raises(ValueError):
        shared_prize(prizes, place, place_to, sharers, unit)


def test_award_prizes_gives_leftover_in_placing_order():
    placings = [Placing(9, 1, 2), Placing(3, 1, 2), Placing(5, 3, 3)]
    assert award_prizes(placings, {1: 101, 2: 0, 3: 7}) == {9: 51, 3: 50, 5: 7}


def test_award_prizes_refuses_a_range_held_by_the_wrong_number_of_players():
    with pytest.raises(ValueError, match="held by 1"):
        award_prizes([Placing(1, 4, 5)], {4: 10})


# --- Invariants ----------------------------------------------------------------------------


@st.composite
def hands(draw):
    """(remaining_before, busts, hand_for_hand, mode) with all or no stacks given."""
    m = draw(st.integers(1, 8))
    n = draw(st.integers(m, 60))
    entries = draw(st.lists(st.integers(1, 10_000), min_size=m, max_size=m, unique=True))
    known = draw(st.booleans())
    stacks = [draw(st.integers(0, 6)) * 1_000 if known else None for _ in range(m)]
    tables = [draw(st.integers(1, 3)) for _ in range(m)]
    busts = [Bust(e, s, t) for e, s, t in zip(entries, stacks, tables, strict=True)]
    h4h = draw(st.booleans())
    mode = draw(st.sampled_from(["tda_rp8", "wsop"]))
    return n, busts, h4h, mode


@given(hands())
def test_ranges_partition_the_places_exactly(hand):
    n, busts, h4h, mode = hand
    placings = places_for_busts(n, busts, hand_for_hand=h4h, h4h_mode=mode)
    assert sorted(p.entry_id for p in placings) == sorted(b.entry_id for b in busts)
    holders = Counter((p.place, p.place_to) for p in placings)
    covered = []
    for (place, place_to), count in holders.items():
        assert count == place_to - place + 1
        covered.extend(range(place, place_to + 1))
    assert sorted(covered) == list(range(n - len(busts) + 1, n + 1))
    assert list(placings) == sorted(placings, key=lambda p: (p.place, p.entry_id))


@given(hands())
def test_larger_stack_never_places_worse_outside_hand_for_hand(hand):
    n, busts, _, _ = hand
    placings = ranges(places_for_busts(n, busts))
    for a in busts:
        for b in busts:
            if a.start_stack is not None and a.start_stack > b.start_stack:
                assert placings[a.entry_id][1] < placings[b.entry_id][0]
            if a.start_stack == b.start_stack:
                assert placings[a.entry_id] == placings[b.entry_id]


@given(hands())
def test_wsop_at_one_table_is_the_normal_order(hand):
    n, busts, _, _ = hand
    one_table = [Bust(b.entry_id, b.start_stack, 7) for b in busts]
    assert places_for_busts(n, one_table, hand_for_hand=True, h4h_mode="wsop") == places_for_busts(
        n, one_table
    )


@given(
    st.dictionaries(st.integers(1, 20), st.integers(0, 100_000), max_size=20),
    st.integers(1, 20),
    st.integers(0, 5),
    st.integers(1, 6),
    st.sampled_from([1, 5, 100, 1_000]),
)
def test_shared_prize_sums_to_the_total(prizes, place, extra, sharers, unit):
    place_to = place + extra
    shares = shared_prize(prizes, place, place_to, sharers, unit)
    total = sum(prizes.get(p, 0) for p in range(place, place_to + 1))
    assert len(shares) == sharers
    assert sum(shares) == total
    # Everyone but the first gets a multiple of the unit, and no two differ by more than one
    # unit apart from the first player's odd remainder.
    assert all(s % unit == 0 for s in shares[1:])
    rest = [shares[0] - total % unit, *shares[1:]]
    assert max(rest) - min(rest) <= unit
    assert rest == sorted(rest, reverse=True)
