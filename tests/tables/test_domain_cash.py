"""The cash floor's rules (docs/rules.md §20), worked examples and properties."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.cash import (
    CASH_PROFILES,
    CashRules,
    Sitter,
    Waiter,
    away_expired,
    blinds_missed,
    call_expired,
    call_expires_at,
    cash_clock,
    list_after_pass,
    list_order,
    must_move_next,
    new_player_blind,
    next_to_call,
    seat_candidates,
    table_from_list,
)
from tourney.domain.house_rules import PROFILES

RULES = CashRules()
MIN = 60_000


def w(player: int, since: int, key: int | None = None) -> Waiter:
    return Waiter(player_id=player, since_ms=since, key=key if key is not None else player)


def ids(waiters) -> list[int]:
    return [x.player_id for x in waiters]


def test_every_house_has_its_cash_rules():
    assert set(CASH_PROFILES) == set(PROFILES)
    assert CASH_PROFILES["mirage"].clock_after_seconds == 180
    assert CASH_PROFILES["mirage"].clock_seconds == 60


def test_the_list_is_in_the_order_players_came():
    # §20.7 example 1: Kovács at 20:00, Nagy at 20:01, Szabó at 20:01 after him (row order)
    assert ids(list_order([w(3, 60, key=9), w(1, 0), w(2, 60, key=5)])) == [1, 2, 3]


def test_the_next_to_call_skips_the_called_the_seated_and_the_banned():
    waiting = [w(1, 0), w(2, 1), w(3, 2), w(4, 3)]
    assert next_to_call(waiting).player_id == 1
    assert next_to_call(waiting, called=[1], seated_in_game=[2], banned=[3]).player_id == 4
    assert next_to_call(waiting, called=[1, 2, 3, 4]) is None


def test_a_call_runs_its_minutes_and_the_last_second_is_in_time():
    assert call_expires_at(0, RULES) == 5 * MIN
    assert not call_expired(0, 5 * MIN, RULES)
    assert call_expired(0, 5 * MIN + 1, RULES)


def test_passed_over_to_the_end_or_off():
    waiting = [w(1, 0), w(2, 10), w(3, 20)]
    assert ids(list_after_pass(waiting, 1, 15, RULES)) == [2, 3, 1]
    off = CashRules(passed_to="off")
    assert ids(list_after_pass(waiting, 1, 15, off)) == [2, 3]
    assert ids(list_after_pass(waiting, 9, 15, RULES)) == [1, 2, 3]  # not on it: unchanged


def test_table_changes_before_or_after_the_list():
    changes, waiting = [w(7, 50)], [w(1, 0), w(7, 5), w(2, 10)]
    assert ids(seat_candidates(changes, waiting, RULES)) == [7, 1, 2]
    after = CashRules(table_change="after_list")
    assert ids(seat_candidates(changes, waiting, after)) == [1, 7, 2]


def test_the_longest_at_a_must_move_table_moves_first():
    at = [Sitter(1, seat=4, seated_ms=300), Sitter(2, seat=7, seated_ms=100), Sitter(3, 2, 100)]
    assert must_move_next(at).player_id == 3  # 100 ms, the lower seat
    assert must_move_next([]) is None


def test_a_new_player_between_the_button_and_the_big_blind_waits_for_the_button():
    # 9 seats, button 3, small blind 4, big blind 5
    assert new_player_blind(4, 3, 5, 9) == "wait_for_button"
    assert new_player_blind(6, 3, 5, 9) == "post_or_wait"
    assert new_player_blind(2, 3, 5, 9) == "post_or_wait"
    # round the end: button 8, big blind 1 (small blind 9)
    assert new_player_blind(9, 8, 1, 9) == "wait_for_button"
    assert new_player_blind(2, 8, 1, 9) == "post_or_wait"
    with pytest.raises(ValueError):
        new_player_blind(10, 3, 5, 9)


def test_an_away_player_owes_the_blinds_that_passed_him():
    owed = blinds_missed(frozenset(), True, 5, 4, 5)
    assert owed == {"big"}
    assert blinds_missed(owed, True, 5, 5, 6) == {"big", "small"}
    assert blinds_missed(frozenset(), False, 5, 4, 5) == frozenset()


def test_a_seat_is_held_for_the_houses_minutes():
    assert not away_expired(0, 15 * MIN, RULES)
    assert away_expired(0, 15 * MIN + 1, RULES)


def test_a_new_table_from_an_interest_list():
    waiting = [w(p, p) for p in range(1, 12)]
    assert table_from_list(waiting[:5], 9, RULES, random.Random(1)) is None
    seated = table_from_list(waiting, 9, RULES, random.Random(1))
    assert [p for p, _ in seated] == list(range(1, 10))
    assert sorted(s for _, s in seated) == list(range(1, 10))


def test_the_cash_clock_180_then_60():
    assert cash_clock(0, None, 179_001, RULES) == ("thinking", 1)
    assert cash_clock(0, None, 180_000, RULES) == ("may_call", 0)
    assert cash_clock(0, 200_000, 200_000, RULES) == ("called", 60)
    assert cash_clock(0, 200_000, 260_000, RULES) == ("called", 0)
    assert cash_clock(0, 200_000, 260_001, RULES) == ("expired", 0)


waiters = st.lists(
    st.builds(Waiter, st.integers(1, 40), st.integers(0, 10**6), st.integers(1, 10**6)),
    max_size=30,
    unique_by=lambda x: x.player_id,
)


@given(waiters, st.integers(1, 40), st.integers(0, 2 * 10**6), st.sampled_from(["end", "off"]))
def test_a_pass_keeps_everybody_elses_order(waiting, player, now, passed_to):
    rules = CashRules(passed_to=passed_to)
    after = list_after_pass(waiting, player, now, rules)
    others = [x for x in ids(list_order(waiting)) if x != player]
    assert [x for x in ids(after) if x != player] == others
    on = player in ids(waiting)
    assert ids(after).count(player) == (1 if on and passed_to == "end" else 0)
    if on and passed_to == "end":
        assert ids(after)[-1] == player


@given(waiters, waiters, st.sampled_from(["before_list", "after_list"]))
def test_a_seat_is_offered_to_each_player_once(changes, waiting, order):
    out = ids(seat_candidates(changes, waiting, CashRules(table_change=order)))
    assert len(out) == len(set(out)) and set(out) == set(ids(changes)) | set(ids(waiting))


@given(st.integers(2, 10).flatmap(lambda n: st.tuples(*(st.integers(1, n),) * 3, st.just(n))))
def test_exactly_the_seats_after_the_button_up_to_the_big_blind_wait(case):
    seat, button, big, seats = case
    waits = new_player_blind(seat, button, big, seats) == "wait_for_button"
    clockwise = [(button + i - 1) % seats + 1 for i in range(1, seats + 1)]
    before_big = clockwise[: clockwise.index(big)] if big != button else []
    assert waits == (seat in before_big)


@given(waiters, st.integers(2, 10), st.integers(0, 2**32))
def test_a_table_from_a_list_seats_its_first_players_once_each(waiting, seats, seed):
    out = table_from_list(waiting, seats, RULES, random.Random(seed))
    if len(waiting) < RULES.open_table_at:
        assert out is None
        return
    assert [p for p, _ in out] == ids(list_order(waiting))[:seats]
    assert len({s for _, s in out}) == len(out) and all(1 <= s <= seats for _, s in out)


def test_the_button_and_the_blinds_move_among_the_players_dealt_in():
    from tables.domain.cash import hand_positions

    assert hand_positions([1, 3, 5, 8], None, 9) == (1, 3, 5)
    assert hand_positions([1, 3, 5, 8], 1, 9) == (3, 5, 8)
    assert hand_positions([1, 3, 5, 8], 8, 9) == (1, 3, 5)
    assert hand_positions([2, 7], 2, 9) == (7, 7, 2)  # heads-up: the button posts the small
    with pytest.raises(ValueError):
        hand_positions([4], 4, 9)


def test_an_away_player_owes_the_blinds_that_passed_over_him():
    from tables.domain.cash import blinds_passed

    # 9 seats; the blinds move from SB 3 / BB 4 to SB 5 / BB 6 while seat 5 is away and skipped:
    # in fact SB 4 / BB 6, the big blind passed over 5
    assert blinds_passed([5], (3, 4), (4, 6), 9) == {5: frozenset({"big"})}
    # the next hand the small blind jumps him (4 -> 6): he owes the small blind as well
    assert blinds_passed([5], (4, 6), (6, 7), 9) == {5: frozenset({"small"})}
    assert blinds_passed([5], (3, 4), (6, 7), 9) == {5: frozenset({"big", "small"})}
    assert blinds_passed([2], (3, 4), (4, 6), 9) == {}


@given(
    st.integers(2, 10).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(1, n), min_size=2, unique=True),
            st.none() | st.integers(1, n),
            st.just(n),
        )
    )
)
def test_the_positions_are_seats_dealt_in_and_the_big_blind_follows_the_small(case):
    from tables.domain.cash import hand_positions

    dealt, button, seats = case
    b, sb, bb = hand_positions(dealt, button, seats)
    assert {b, sb, bb} <= set(dealt) and bb != sb
    if len(dealt) > 2:
        assert len({b, sb, bb}) == 3
