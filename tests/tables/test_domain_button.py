"""Button and blinds between hands: docs/rules.md §4 and dead-button invariants."""

import itertools
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.button import (
    Blinds,
    first_hand_blinds,
    moving_button_blinds,
    next_big_blind_seat,
    next_hand_blinds,
    seats_not_dealt,
)


def test_first_hand_blinds_follow_the_button() -> None:
    assert first_hand_blinds(5, {1, 2, 5, 8, 9}, 9) == Blinds(5, 8, 9)
    assert first_hand_blinds(8, {1, 2, 5, 8, 9}, 9) == Blinds(8, 9, 1)
    assert first_hand_blinds(9, {1, 2, 5, 8, 9}, 9) == Blinds(9, 1, 2)


def test_first_hand_heads_up_button_posts_small_blind() -> None:
    assert first_hand_blinds(7, {3, 7}, 9) == Blinds(7, 7, 3)


def test_first_hand_rejects_empty_button_and_lone_player() -> None:
    with pytest.raises(ValueError):
        first_hand_blinds(4, {1, 2, 3}, 9)
    with pytest.raises(ValueError):
        first_hand_blinds(1, {1}, 9)
    with pytest.raises(ValueError):
        first_hand_blinds(1, {1, 10}, 9)


def test_rules_example_1_dead_small_blind_then_dead_button() -> None:
    # Seats 1, 2, 3, 5, 6, 8; hand N: BTN 1, SB 2, BB 3; s3 busts.
    hand_n = first_hand_blinds(1, {1, 2, 3, 5, 6, 8}, 9)
    assert hand_n == Blinds(1, 2, 3)
    occupied = {1, 2, 5, 6, 8}
    hand_n1 = next_hand_blinds(hand_n, occupied, 9)
    assert (hand_n1.button, hand_n1.small_blind, hand_n1.big_blind) == (2, None, 5)
    assert hand_n1.dead_small_blind == 3
    hand_n2 = next_hand_blinds(hand_n1, occupied, 9)
    assert hand_n2 == Blinds(3, 5, 6)  # dead button on s3


def test_rules_example_1_without_the_recorded_dead_small_blind_seat() -> None:
    # A caller that persisted only (button, small_blind, big_blind) gets the same answer.
    assert next_hand_blinds(Blinds(2, None, 5), {1, 2, 5, 6, 8}, 9) == Blinds(3, 5, 6)


def test_recorded_dead_small_blind_seat_places_the_button_exactly() -> None:
    # s3 and s4 were empty when s5 posted the BB and busted: the button belongs on s5.
    hand = next_hand_blinds(Blinds(1, 2, 5), {1, 2, 6, 8}, 9)
    assert hand == Blinds(2, None, 6, dead_small_blind=5)
    assert next_hand_blinds(hand, {1, 2, 6, 8}, 9) == Blinds(5, 6, 8)


def test_rules_example_2_button_busts_into_heads_up() -> None:
    # A s2 BTN, B s5 SB, C s8 BB; A busts: B is BB, C is BTN/SB.
    assert next_hand_blinds(Blinds(2, 5, 8), {5, 8}, 9) == Blinds(8, 8, 5)


def test_rules_example_3_big_blind_busts_into_heads_up() -> None:
    # Same table, C busts: A is BB, B is BTN/SB.
    assert next_hand_blinds(Blinds(2, 5, 8), {2, 5}, 9) == Blinds(5, 5, 2)


def test_heads_up_alternates() -> None:
    hand = Blinds(8, 8, 5)
    hand = next_hand_blinds(hand, {5, 8}, 9)
    assert hand == Blinds(5, 5, 8)
    assert next_hand_blinds(hand, {5, 8}, 9) == Blinds(8, 8, 5)


def test_rules_example_4_seats_between_button_and_small_blind_are_not_dealt() -> None:
    assert seats_not_dealt(Blinds(2, 5, 7), 9) == frozenset({3, 4})


def test_seats_not_dealt_wraps_and_is_empty_heads_up_or_adjacent() -> None:
    assert seats_not_dealt(Blinds(8, 2, 4), 9) == frozenset({9, 1})
    assert seats_not_dealt(Blinds(5, 5, 2), 9) == frozenset()
    assert seats_not_dealt(Blinds(1, 2, 3), 9) == frozenset()


def test_seats_not_dealt_without_small_blind_runs_to_the_big_blind() -> None:
    assert seats_not_dealt(Blinds(2, None, 5), 9) == frozenset({3, 4})


def test_leaving_heads_up_never_puts_button_on_big_blind() -> None:
    # Heads-up s1 BTN/SB, s5 BB; a newcomer takes s3. s1 is due the BB.
    hand = next_hand_blinds(Blinds(1, 1, 5), {1, 3, 5}, 9)
    assert hand == Blinds(3, 5, 1)
    # A newcomer after the BB instead: the ordinary rule already works.
    assert next_hand_blinds(Blinds(1, 1, 5), {1, 5, 7}, 9) == Blinds(1, 5, 7)


def test_next_big_blind_seat() -> None:
    assert next_big_blind_seat(Blinds(1, 2, 3), {1, 2, 3, 5}, 9) == 5
    assert next_big_blind_seat(Blinds(3, 5, 8), {1, 3, 5}, 9) == 1
    with pytest.raises(ValueError):
        next_big_blind_seat(Blinds(3, 5, 8), {5}, 9)


def test_one_player_left_is_an_error() -> None:
    with pytest.raises(ValueError):
        next_hand_blinds(Blinds(2, 5, 8), {5}, 9)


def _assert_clockwise_order(hand: Blinds, seats: int) -> None:
    """Going clockwise from the button, the SB position comes before the BB."""
    small_blind = hand.small_blind if hand.small_blind is not None else hand.dead_small_blind
    if small_blind is None or small_blind == hand.button:
        return
    assert (small_blind - hand.button) % seats < (hand.big_blind - hand.button) % seats, hand


@st.composite
def _table_and_busts(draw: st.DrawFn) -> tuple[int, frozenset[int], int, list[frozenset[int]]]:
    """A table, its first-hand button, and per hand the seats still occupied (busts only)."""
    seats = draw(st.integers(2, 10))
    occupied = frozenset(draw(st.sets(st.integers(1, seats), min_size=2, max_size=seats)))
    button = draw(st.sampled_from(sorted(occupied)))
    n_hands = draw(st.integers(1, 40))
    # The hand each player busts before (beyond n_hands: never); two random players survive.
    may_bust = draw(st.permutations(sorted(occupied)))[2:]
    bust_at = draw(st.lists(st.integers(1, 2 * n_hands), min_size=len(may_bust)))
    schedule = dict(zip(may_bust, bust_at, strict=False))
    history = [
        frozenset(seat for seat in occupied if schedule.get(seat, n_hands + 1) > hand)
        for hand in range(n_hands + 1)
    ]
    return seats, occupied, button, history


@given(_table_and_busts())
def test_every_player_posts_big_blind_once_per_orbit(
    case: tuple[int, frozenset[int], int, list[frozenset[int]]],
) -> None:
    seats, occupied, button, history = case
    hands = [first_hand_blinds(button, occupied, seats)]
    for occ in history[1:]:
        hands.append(next_hand_blinds(hands[-1], occ, seats))

    for index, (hand, occ) in enumerate(zip(hands, history, strict=True)):
        assert hand.big_blind in occ
        assert hand.button != hand.big_blind
        if len(occ) == 2:
            assert hand.button == hand.small_blind
        _assert_clockwise_order(hand, seats)
        if index:
            previous = hands[index - 1]
            assert hand.big_blind != previous.big_blind
            if len(occ) > 2:
                expected_sb = previous.big_blind if previous.big_blind in occ else None
                assert hand.small_blind == expected_sb

    big_blinds = [hand.big_blind for hand in hands]
    for player in occupied:
        turns = [i for i, seat in enumerate(big_blinds) if seat == player]
        for i, j in itertools.pairwise(turns):
            # Everyone still seated at hand j was seated throughout, and posted the BB once.
            between = big_blinds[i + 1 : j]
            for other in history[j] - {player}:
                assert between.count(other) == 1, (player, other, big_blinds)


@given(st.integers(2, 10), st.integers(0, 2**32), st.integers(1, 60))
def test_blinds_stay_valid_with_busts_and_newcomers(seats: int, seed: int, n_hands: int) -> None:
    rng = random.Random(seed)
    occ = frozenset(rng.sample(range(1, seats + 1), rng.randint(2, seats)))
    hand = first_hand_blinds(rng.choice(sorted(occ)), occ, seats)
    for _ in range(n_hands):
        # Each seat busts or fills with probability 1/4, so heads-up is entered and left often.
        new_occ = frozenset(
            seat for seat in range(1, seats + 1) if (seat in occ) != (rng.random() < 0.25)
        )
        if len(new_occ) < 2:
            continue
        previous, hand, occ = hand, next_hand_blinds(hand, new_occ, seats), new_occ
        assert hand.big_blind in occ
        assert hand.big_blind != previous.big_blind
        assert hand.button != hand.big_blind
        assert hand.small_blind is None or hand.small_blind in occ
        assert 1 <= hand.button <= seats
        assert hand.big_blind not in seats_not_dealt(hand, seats)
        _assert_clockwise_order(hand, seats)


def test_the_moving_button_skips_an_emptied_seat_and_the_blinds_follow() -> None:
    """Atlas 004:86 (docs/rules.md §4.1): BTN 2, SB 3, BB 5 at a 9-seat table with players in
    2, 3, 5, 7, 8. The small blind (3) busts: the moving button goes to 5, SB 7, BB 8; the
    dead button would have been at 3 (empty), no small blind, BB 7."""
    before = first_hand_blinds(2, {2, 3, 5, 7, 8}, 9)
    assert before == Blinds(2, 3, 5)
    after = {2, 5, 7, 8}
    assert moving_button_blinds(before, after, 9) == Blinds(5, 7, 8)
    assert next_hand_blinds(before, after, 9, dead_button=False) == Blinds(5, 7, 8)
    assert next_hand_blinds(before, after, 9) == Blinds(3, 5, 7)


@given(st.integers(2, 10), st.integers(0, 2**32), st.integers(1, 60))
def test_the_moving_button_is_always_on_a_player_and_in_order(
    seats: int, seed: int, n_hands: int
) -> None:
    rng = random.Random(seed)
    occ = frozenset(rng.sample(range(1, seats + 1), rng.randint(2, seats)))
    hand = first_hand_blinds(rng.choice(sorted(occ)), occ, seats)
    for _ in range(n_hands):
        if len(occ) > 2 and rng.random() < 0.3:
            occ = occ - {rng.choice(sorted(occ))}
        previous, hand = hand, next_hand_blinds(hand, occ, seats, dead_button=False)
        assert {hand.button, hand.big_blind} <= occ and hand.small_blind in occ
        _assert_clockwise_order(hand, seats)
        if previous.button in occ and len(occ) > 2:
            # Nobody left: the button moves exactly one player on.
            assert hand.button == next(
                s
                for s in [*range(previous.button + 1, seats + 1), *range(1, seats + 1)]
                if s in occ
            )
