"""Satellites (docs/rules.md §17): worked examples and the prize pool kept to the unit."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.satellites import (
    LEFTOVER_RULES,
    SatelliteError,
    SatellitePrize,
    satellite_over,
    satellite_prizes,
    seats_bought,
)

# §17.1: 37 entries at 10,000 to the prize pool; the target's buy-in and fee 50,000.
POOL, SEAT = 37 * 10_000, 50_000


def test_worked_example_37_players_buy_7_seats_and_leave_20000():
    assert seats_bought(POOL, SEAT) == (7, 20_000)


def test_worked_example_the_leftover_by_each_house_rule():
    seats = [SatellitePrize(p, SEAT, 0) for p in range(1, 8)]
    assert satellite_prizes(POOL, SEAT, "next_place") == [*seats, SatellitePrize(8, 0, 20_000)]
    assert satellite_prizes(POOL, SEAT, "partial_seat") == [*seats, SatellitePrize(8, 20_000, 0)]
    shared = satellite_prizes(POOL, SEAT, "shared")
    # 20,000 / 7 = 2,857 rest 1: 1st gets the odd unit
    assert [p.cash for p in shared] == [2_858, *([2_857] * 6)]
    assert all(p.ticket == SEAT for p in shared) and len(shared) == 7


def test_a_pool_under_one_seat_goes_to_first():
    assert satellite_prizes(30_000, SEAT, "next_place") == [SatellitePrize(1, 0, 30_000)]
    assert satellite_prizes(30_000, SEAT, "partial_seat") == [SatellitePrize(1, 30_000, 0)]
    assert satellite_prizes(0, SEAT, "shared") == []


def test_it_ends_when_the_players_left_equal_the_seats():
    assert not satellite_over(8, 7)
    assert satellite_over(7, 7)
    assert not satellite_over(1, 0)


@pytest.mark.parametrize(
    "args",
    [(100, 0, "shared"), (-1, 10, "shared"), (100, 10, "lottery"), (10**9, 1, "shared")],
)
def test_impossible_satellites_are_refused(args):
    with pytest.raises(SatelliteError):
        satellite_prizes(*args)


@given(
    st.integers(0, 10**8),
    st.integers(10**4, 10**7),
    st.sampled_from(LEFTOVER_RULES),
)
def test_the_tickets_and_the_cash_are_the_prize_pool(pool, seat, rule):
    prizes = satellite_prizes(pool, seat, rule)
    assert sum(p.ticket + p.cash for p in prizes) == pool
    assert [p.place for p in prizes] == list(range(1, len(prizes) + 1))
    seats, _rest = seats_bought(pool, seat)
    assert sum(1 for p in prizes if p.ticket == seat) == seats
