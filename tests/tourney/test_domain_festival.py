"""The festival's pure rules (docs/rules.md §15): worked examples and properties."""

import random

from hypothesis import given
from hypothesis import strategies as st

from tables.domain.seating import SeatingRules, TableSpec, draw_seats, draw_spread
from tourney.domain.festival import (
    Bag,
    Day1Bust,
    big_blinds,
    chip_ranks,
    counts_difference,
    counts_missing,
    counts_refusal,
    day1_places,
    day2_field,
    day_end_state,
    flight_entry_refusal,
    spread_order,
)


def test_worked_example_a_player_who_bags_twice_keeps_the_bigger_bag():
    # §15.2: Anna bags 61,000 in 1A and 88,500 in 1B; Béla bags 40,000 in 1A only.
    bags = [Bag(1, 10, 61_000, 0), Bag(2, 20, 40_000, 1), Bag(3, 10, 88_500, 2)]
    kept, set_aside = day2_field(bags, "keep_bigger")
    assert [b.entry_id for b in kept] == [2, 3]
    assert [b.entry_id for b in set_aside] == [1]


def test_equal_bags_keep_the_earlier():
    kept, set_aside = day2_field([Bag(5, 1, 50_000, 1), Bag(4, 1, 50_000, 0)], "keep_bigger")
    assert [b.entry_id for b in kept] == [4] and [b.entry_id for b in set_aside] == [5]


def test_flight_entry_refusals():
    assert (
        flight_entry_refusal("keep_bigger", bagged_elsewhere=True, playing_elsewhere=False) is None
    )
    assert (
        flight_entry_refusal("refuse_after_bag", bagged_elsewhere=True, playing_elsewhere=False)
        == "already_bagged"
    )
    assert (
        flight_entry_refusal("keep_bigger", bagged_elsewhere=False, playing_elsewhere=True)
        == "playing_another_flight"
    )


def test_worked_example_ranks_and_big_blinds():
    # §15.4: 125,000 and 125,000 share 1st; 98,000 is 3rd; at a 4,000 big blind 24.5 BB.
    ranks = chip_ranks({7: 98_000, 3: 125_000, 5: 125_000})
    assert [(r.rank, r.entry_id) for r in ranks] == [(1, 3), (1, 5), (3, 7)]
    assert big_blinds(98_000, 4_000) == 24.5
    assert big_blinds(12_345, 1_000) == 12.3
    assert big_blinds(5, None) is None


def test_counts_missing_difference_and_refusal():
    assert counts_missing([3, 1, 2], {1: 500, 2: None}) == [2, 3]
    assert counts_difference([100, 250], 400) == -50
    assert counts_refusal([(1, 5), (1, 6)], [1]) == "duplicate_entry"
    assert counts_refusal([(2, 5)], [1]) == "entry_not_counted"
    assert counts_refusal([(1, 5)], [1]) is None


bags_strategy = st.lists(
    st.tuples(st.integers(1, 8), st.integers(1, 10**6)), min_size=0, max_size=40
).map(lambda rows: [Bag(i + 1, p, c, i) for i, (p, c) in enumerate(rows)])


@given(bags_strategy)
def test_day2_field_keeps_one_bag_a_player_the_biggest_and_loses_none(bags):
    kept, set_aside = day2_field(bags, "keep_bigger")
    assert sorted(b.entry_id for b in kept + set_aside) == [b.entry_id for b in bags]
    assert len({b.player_id for b in kept}) == len(kept) == len({b.player_id for b in bags})
    for b in kept:
        assert b.chips == max(x.chips for x in bags if x.player_id == b.player_id)


@given(st.dictionaries(st.integers(1, 500), st.integers(1, 10**7), max_size=60))
def test_ranks_are_competition_ranks_in_chip_order(stacks):
    ranks = chip_ranks(stacks)
    assert [r.chips for r in ranks] == sorted(stacks.values(), reverse=True)
    for i, r in enumerate(ranks):
        assert r.rank == 1 + sum(1 for c in stacks.values() if c > r.chips)
        assert r.rank <= i + 1


def _draw(n, tables, seed):
    specs = [TableSpec(number=t, seats=9) for t in range(1, tables + 1)]
    rules = SeatingRules(table_thresholds=None, seats_per_table=9, single_table_seats=10)
    return draw_seats(list(range(1, n + 1)), specs, rules, random.Random(seed))


def test_worked_example_the_biggest_stacks_sit_at_different_tables():
    # §15.5: 22 survivors at 3 tables (8, 7, 7): the 3 biggest one a table, the next 3 too.
    stacks = {e: 1_000 * e for e in range(1, 23)}
    order = spread_order(stacks)
    spread = draw_spread(_draw(22, 3, 1), order, random.Random(2))
    table_of = {a.entry_id: a.table_number for a in spread.assignments}
    assert len({table_of[e] for e in order[:3]}) == 3
    assert len({table_of[e] for e in order[3:6]}) == 3


@given(st.integers(2, 120), st.integers(0, 10**6))
def test_the_spread_keeps_the_draws_tables_and_seats_and_deals_round_by_round(n, seed):
    tables = max(1, -(-n // 9))
    draw = _draw(n, tables + 1, seed)
    order = list(range(n, 0, -1))
    spread = draw_spread(draw, order, random.Random(seed + 1))
    assert sorted((a.table_number, a.seat) for a in spread.assignments) == sorted(
        (a.table_number, a.seat) for a in draw.assignments
    )
    assert sorted(a.entry_id for a in spread.assignments) == sorted(order)
    table_of = {a.entry_id: a.table_number for a in spread.assignments}
    used = len(draw.table_counts)
    # each run of `used` biggest stacks sits at different tables (while every table has room)
    low = min(draw.table_counts.values())
    for start in range(0, low * used, used):
        assert len({table_of[e] for e in order[start : start + used]}) == used


def test_day_end_state_before_at_and_after_the_last_level():
    # §15.3: the day ends after level 10
    assert day_end_state(9, 10, 10) is None
    assert day_end_state(10, 11, 10) == "last"
    assert day_end_state(None, 11, 10) == "played"  # the break after level 10
    assert day_end_state(None, 8, 10) is None  # an earlier break
    assert day_end_state(11, 12, 10) == "played"


def test_worked_example_day_1_players_in_the_money():
    # §15.5: 2 players in Day 2, 5 places paid. Out in the flights, latest first: Ede (1B),
    # then Dóra and Cili in one hand of 1A, then Bori (1B), then Anna (1A).
    busts = [
        Day1Bust(entry_id=1, player_id=10, hand=(1, 1), order=0),  # Anna
        Day1Bust(entry_id=2, player_id=20, hand=(2, 1), order=1),  # Bori
        Day1Bust(entry_id=3, player_id=30, hand=(1, 2), order=2),  # Cili
        Day1Bust(entry_id=4, player_id=40, hand=(1, 2), order=3),  # Dóra
        Day1Bust(entry_id=5, player_id=50, hand=(2, 2), order=4),  # Ede
    ]
    assert day1_places(busts, [99, 98], field=2, paid=5) == [
        (5, 3, 3),
        (3, 4, 5),
        (4, 4, 5),
    ]
    assert day1_places(busts, [99, 98], field=2, paid=2) == []
    # Ede also plays Day 2 (re-entered and bagged): his bust gives no place
    assert day1_places(busts, [99, 50], field=2, paid=3) == [(3, 3, 4), (4, 3, 4)]


@given(
    st.lists(st.tuples(st.integers(1, 12), st.integers(1, 4)), max_size=30),
    st.integers(0, 10),
    st.integers(0, 40),
)
def test_day1_places_follow_the_day_2_field_without_gaps(rows, field, paid):
    """Places start right after the Day-2 field, each hand's range follows the last with no
    gap, every range starts at a paid place, and a player has one place at most."""
    busts = [Day1Bust(i + 1, p, (1, h), i) for i, (p, h) in enumerate(rows)]
    places = day1_places(busts, [], field, paid)
    players = {b.entry_id: b.player_id for b in busts}
    assert len({players[e] for e, _p, _t in places}) == len(places)
    ranges = sorted({(p, t) for _e, p, t in places})
    expected = field + 1
    for place, place_to in ranges:
        assert place == expected and place <= paid and place_to >= place
        assert sum(1 for _e, p, _t in places if p == place) == place_to - place + 1
        expected = place_to + 1
