"""Championship points and standings: the formulas, ties sharing points, best-of rounds;
hypothesis: points never increase with a worse place."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.seasons import (
    FORMULAS,
    PointsRule,
    RoundResult,
    SeasonError,
    place_points,
    points_for,
    standings,
    validate_rule,
)


def test_formulas():
    assert place_points(PointsRule("linear"), 1, 20, 3) == 20
    assert place_points(PointsRule("linear"), 20, 20, 3) == 1
    assert place_points(PointsRule("table", (25, 18, 15)), 2, 20, 3) == 18
    assert place_points(PointsRule("table", (25, 18, 15)), 4, 20, 3) == 0
    assert place_points(PointsRule("sqrt"), 1, 100, 12) == 100
    assert place_points(PointsRule("sqrt"), 4, 100, 12) == 50
    assert place_points(PointsRule("sqrt"), 13, 100, 12) == 0


def test_tied_players_share_the_points_of_their_places():
    rule = PointsRule("table", (25, 18, 15, 12))
    assert points_for(rule, 3, 4, 10, 4) == 1_350  # (15 + 12) / 2 = 13.50
    assert points_for(PointsRule("linear"), 14, 15, 15, 2) == 150


def test_points_table_refusals():
    for table, code in (
        ((), "points_table_empty"),
        ((10, 12), "points_table_order"),
        ((10, -1), "points_negative"),
    ):
        with pytest.raises(SeasonError) as error:
            validate_rule(PointsRule("table", table))
        assert error.value.code == code
    with pytest.raises(SeasonError):
        validate_rule(PointsRule("golf"))  # type: ignore[arg-type]


def test_standings_count_the_best_rounds_and_share_ranks():
    results = [
        RoundResult("ann", 1, 1_000),
        RoundResult("ann", 2, 200),
        RoundResult("ann", 3, 900),
        RoundResult("bob", 1, 800),
        RoundResult("bob", 2, 1_100),
        RoundResult("cy", 2, 1_900),
        RoundResult("cy", 3, 0),
        RoundResult("dee", 3, 300),
        RoundResult("dee", 3, 1_000),  # re-entry: the best counts
    ]
    table = standings(results, best_of=2, names={"ann": "Ann"})
    assert [(s.rank, s.player, s.total) for s in table] == [
        (1, "cy", 1_900),
        (1, "bob", 1_900),
        (1, "ann", 1_900),
        (4, "dee", 1_000),
    ]
    by = {s.player: s for s in table}
    assert by["ann"].total == 1_900 and by["ann"].counted == (1, 3)
    assert by["bob"].total == 1_900 and by["cy"].total == 1_900
    assert by["dee"].total == 1_000 and by["dee"].rounds == {3: 1_000}
    # Same total, same rank; listed by the best single round (cy 19, bob 11, ann 10).
    assert standings(results)[0].player == "ann"  # all rounds: 21


@given(
    st.sampled_from(FORMULAS),
    st.lists(st.integers(0, 1_000), min_size=1, max_size=30),
    st.integers(1, 300),
    st.integers(1, 40),
)
def test_points_never_increase_with_a_worse_place(formula, table, entries, paid):
    rule = PointsRule(formula, tuple(sorted(table, reverse=True)))
    validate_rule(rule)
    paid = min(paid, entries)
    points = [points_for(rule, p, p, entries, paid) for p in range(1, entries + 1)]
    assert all(b <= a for a, b in itertools.pairwise(points))


@given(
    st.sampled_from(FORMULAS),
    st.lists(st.integers(0, 1_000), min_size=1, max_size=30),
    st.integers(2, 120),
    st.data(),
)
def test_ties_share_points_and_stay_between_their_places(formula, table, entries, data):
    rule = PointsRule(formula, tuple(sorted(table, reverse=True)))
    place = data.draw(st.integers(1, entries - 1))
    place_to = data.draw(st.integers(place + 1, entries))
    shared = points_for(rule, place, place_to, entries, entries)
    assert points_for(rule, place_to, place_to, entries, entries) <= shared
    assert shared <= points_for(rule, place, place, entries, entries)
    # A worse shared range never gets more.
    if place_to < entries:
        assert points_for(rule, place + 1, place_to + 1, entries, entries) <= shared
