"""Issue 13 in the domain: the short-handed final table (docs/rules.md §7.1)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.floor import FloorRules, FloorTable, floor_plan
from tables.domain.seating import SeatingRules
from tourney.domain.house_rules import PROFILES, final_table_players, resolve_house_rules


@pytest.mark.parametrize("profile", sorted(PROFILES))
def test_six_max_final_table_is_seven_in_every_profile(profile: str) -> None:
    six_max = {"seats_per_table": 6}
    if PROFILES[profile].rules.table_thresholds:  # Rimóc's are for 9 seats a table
        six_max["table_thresholds"] = None
    assert final_table_players(resolve_house_rules(profile, six_max)) == 7


def test_full_ring_final_tables_keep_each_profile_value() -> None:
    sizes = {key: final_table_players(p.rules) for key, p in PROFILES.items()}
    assert sizes == {
        "tda2024": 9,
        "mirage": 9,
        "doyle": 10,
        "veszprem": 9,
        "rimoc": 9,
        "atlas": 9,
    }
    # TDA RP-9: an 8-handed event still goes to a 9-handed final table.
    assert final_table_players(resolve_house_rules("tda2024", {"seats_per_table": 8})) == 9


@given(
    profile=st.sampled_from(sorted(PROFILES)),
    seats=st.integers(min_value=7, max_value=12),
    short=st.integers(min_value=2, max_value=10),
)
def test_the_short_handed_size_applies_exactly_at_seven_seats_or_fewer(
    profile: str, seats: int, short: int
) -> None:
    rules = resolve_house_rules(
        profile,
        {
            "seats_per_table": seats,
            "short_handed_final_table_size": short,
            "table_thresholds": None,
        },
    )
    expected = short if seats <= 7 else rules.final_table_size
    assert final_table_players(rules) == expected


def _table(number: int, players: list[int], seats: int = 6) -> FloorTable:
    from tables.domain.button import Blinds

    occupied = {seat: number * 100 + seat for seat in players}
    first = min(players)
    return FloorTable(number, seats, occupied, blinds=Blinds(first, players[1], players[2]))


def test_the_planner_forms_a_seven_handed_final_table_from_two_tables_of_four() -> None:
    """docs/rules.md §7.5 example 3 with the size the doyle profile gives at six-max."""
    house = resolve_house_rules("doyle", {"seats_per_table": 6})
    rules = FloorRules(
        balance_threshold=house.balance_threshold,
        halt_threshold=house.halt_threshold,
        source_order="lowest_first",
        break_order="fixed_list",
        break_tiebreak="highest_first",
        final_table_size=final_table_players(house),
        seating=SeatingRules(None, 6, 10),
    )
    eight = [_table(1, [1, 2, 3, 4]), _table(2, [1, 2, 3, 4])]
    plan = floor_plan(eight, rules, True, None, 7, random.Random(3))
    assert plan.final_table is None and plan.breaks == ()
    seven = [_table(1, [1, 2, 3, 4]), _table(2, [1, 2, 4])]
    plan = floor_plan(seven, rules, True, None, 7, random.Random(3))
    assert plan.final_table is not None and len(plan.final_table.seats) == 7
