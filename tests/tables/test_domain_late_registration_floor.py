"""The floor in the domain: the short-handed final table (docs/rules.md §7.1), a table back in
play (§4.7), recent movers (§5.4) and holding during late registration (§5.10)."""

import random
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.domain.balancing import plan_balance
from tables.domain.button import Blinds, first_hand_blinds, next_hand_blinds, restored_blinds
from tables.domain.floor import floor_plan
from tables.domain.floor_field import FloorRules, FloorTable
from tables.domain.seating import SeatingRules
from tourney.domain.house_rules import resolve_house_rules
from tourney.domain.house_rules_params import final_table_players
from tourney.domain.house_rules_profiles import PROFILES


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


# --- item 4: a table back in play, recent movers, holding during late registration ------------


@st.composite
def _restored_case(draw: st.DrawFn):
    seats = draw(st.integers(min_value=3, max_value=10))
    before = draw(st.sets(st.integers(1, seats), min_size=3, max_size=seats))
    button = draw(st.sampled_from(sorted(before)))
    previous = first_hand_blinds(button, before, seats)
    stored = next_hand_blinds(previous, before, seats)
    others = sorted(before - {stored.big_blind})
    gone = draw(st.sets(st.sampled_from(others), max_size=max(0, len(others) - 2)))
    now = before - {stored.big_blind} - gone
    return seats, previous, stored, now


@given(_restored_case())
def test_a_restored_table_never_has_its_big_blind_on_an_empty_seat(case) -> None:
    """docs/rules.md §4.7: the big blind of the restored table's next hand is a player, and the
    blinds are those the dead-button rule gives from the last hand with the players there."""
    seats, previous, stored, now = case
    restored = restored_blinds(stored, now, seats)
    assert restored.big_blind in now
    expected = next_hand_blinds(previous, now, seats)
    assert restored.big_blind == expected.big_blind
    assert restored.small_blind == expected.small_blind
    if len(now) == 2:
        assert restored.button == restored.small_blind
    else:
        assert restored.button != restored.big_blind


def test_a_restored_table_keeps_positions_whose_big_blind_is_seated() -> None:
    stored = Blinds(2, 3, 5)
    assert restored_blinds(stored, {1, 2, 3, 5}, 9) == stored


def test_rules_4_7_example_the_big_blind_busted_while_the_table_was_broken() -> None:
    """Seats 1, 2, 3, 5, 6, 8; last hand BTN 1, SB 2, BB 3, so the next is BTN 2, SB 3, BB 5.
    s5 busts meanwhile: BB 6, SB 3, button 2 (what the hand report would have said)."""
    stored = Blinds(2, 3, 5)
    assert restored_blinds(stored, {1, 2, 3, 6, 8}, 9) == Blinds(2, 3, 6)


LAST_HAND = Blinds(1, 2, 3)


def _nine(number: int, players: dict[int, int], recent=()) -> FloorTable:
    return FloorTable(number, 9, players, blinds=LAST_HAND, recent=frozenset(recent))


RULES = FloorRules(
    2, 3, "lowest_first", "fixed_list", "highest_first", 9, SeatingRules(None, 9, 10)
)


def test_a_player_moved_lately_is_not_moved_again_when_another_can_go() -> None:
    """docs/rules.md §5.4: T1's next big blind (s4) just arrived; s5 goes instead."""
    big = _nine(1, {s: 100 + s for s in range(1, 10)}, recent={104})
    small = _nine(2, {1: 1, 2: 2, 3: 3, 5: 5, 6: 6, 7: 7})
    (move,) = plan_balance([big, small], RULES, random.Random(1))
    assert (move.from_seat, move.entry_id) == (5, 105)


def test_when_everyone_moved_lately_the_next_big_blind_goes() -> None:
    everyone = {100 + s for s in range(1, 10)}
    big = _nine(1, {s: 100 + s for s in range(1, 10)}, recent=everyone)
    small = _nine(2, {1: 1, 2: 2, 3: 3, 5: 5, 6: 6, 7: 7})
    (move,) = plan_balance([big, small], RULES, random.Random(1))
    assert move.from_seat == 4


@given(st.sets(st.integers(1, 9), max_size=8))
def test_the_mover_is_never_a_recent_mover_while_another_player_can_go(recent_seats) -> None:
    big = _nine(1, {s: 100 + s for s in range(1, 10)}, recent={100 + s for s in recent_seats})
    small = _nine(2, {1: 1, 2: 2, 3: 3, 5: 5, 6: 6, 7: 7})
    (move,) = plan_balance([big, small], RULES, random.Random(1))
    assert move.entry_id not in big.recent


def _counts_tables(counts: list[int]) -> list[FloorTable]:
    return [
        _nine(n + 1, {s: (n + 1) * 100 + s for s in range(1, c + 1)}) for n, c in enumerate(counts)
    ]


def test_holding_during_late_registration_keeps_the_tables_and_balances_only_short_ones() -> None:
    """docs/rules.md §5.10: [6, 6, 5] (17 players fit 2 tables) breaks a table, unless the
    house holds during late registration; a table 3 short is still balanced (TDA 11-D)."""
    hold = replace(RULES, hold_breaks=True, balance_threshold=3)
    assert floor_plan(_counts_tables([6, 6, 5]), RULES, True, None, 9, random.Random(2)).breaks
    held = floor_plan(_counts_tables([6, 6, 5]), hold, True, None, 9, random.Random(2))
    assert held.breaks == () and held.moves == ()
    short = floor_plan(_counts_tables([8, 8, 5]), hold, True, None, 9, random.Random(2))
    assert short.breaks == () and len(short.moves) == 1
    # A table down to one player cannot deal: it breaks anyway.
    lone = floor_plan(_counts_tables([8, 8, 1]), hold, True, None, 9, random.Random(2))
    assert lone.breaks != ()
