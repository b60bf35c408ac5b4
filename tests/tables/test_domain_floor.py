"""Balancing, breaking and the final table: docs/rules.md §5, §6, §7 and planner invariants."""

import random
from collections import Counter
from dataclasses import replace

import pytest

from tables.domain.balancing import plan_balance
from tables.domain.breaking import plan_table_break, table_to_break
from tables.domain.button import Blinds
from tables.domain.final_table import plan_final_table
from tables.domain.floor import floor_plan
from tables.domain.floor_field import (
    FloorPlan,
    FloorTable,
    Move,
    halted_tables,
    sits_out_at,
    tables_wanted,
    worst_seat,
)
from tests.tables.floor_tables import (
    RIMOC,
    SIX_MAX,
    TEN_MAX,
    ScriptedRandom,
    check_final_table,
    counts_after,
    floor_rules,
    full_table,
    seated_table,
)


def test_tables_wanted() -> None:
    rules = floor_rules()
    assert tables_wanted(0, True, rules) == 0
    assert tables_wanted(0, False, rules) == 0
    assert tables_wanted(9, True, rules) == 1
    assert tables_wanted(10, True, rules) == 2  # by size 10 fit one table, but keep 2
    assert tables_wanted(10, False, rules) == 1
    assert tables_wanted(18, True, rules) == 2
    assert tables_wanted(19, True, rules) == 3
    assert tables_wanted(19, False, rules) == 3
    with pytest.raises(ValueError):
        tables_wanted(-1, True, rules)


def test_rimoc_thresholds_keep_two_tables_at_ten_players() -> None:
    rules = floor_rules(seating=RIMOC)
    assert tables_wanted(10, False, rules) == 1
    assert tables_wanted(10, True, rules) == 2
    assert tables_wanted(11, True, rules) == 2
    assert tables_wanted(9, True, rules) == 1
    tables = [
        seated_table(1, 9, range(1, 6), Blinds(1, 2, 3)),
        seated_table(2, 9, range(1, 6), Blinds(1, 2, 3)),
    ]
    plan = floor_plan(tables, rules, True, 1, 9, random.Random(1))
    assert plan == FloorPlan()


# --- balancing (docs/rules.md §5) ---------------------------------------------------------


def test_rules_5_example_1_nine_six() -> None:
    t1 = full_table(1, 9, Blinds(3, 4, 5))  # next BB is P in s6
    t2 = seated_table(2, 9, [1, 2, 3, 5, 7, 9], Blinds(1, 2, 3))
    moves = plan_balance([t1, t2], floor_rules(), random.Random(1))
    assert moves == (Move(106, 1, 6, 2, 4, wait_hands=0, sits_out=False),)
    assert counts_after([t1, t2], moves) == [8, 7]


@pytest.mark.parametrize("not_dealt", ["between_btn_sb", "sb_or_btn_seat"])
def test_rules_5_example_2_ten_ten_seven(not_dealt: str) -> None:
    t1 = full_table(1, 10, Blinds(5, 6, 7))  # next BB s8
    t2 = full_table(2, 10, Blinds(1, 2, 3))  # next BB s4
    t3 = seated_table(3, 10, [1, 2, 4, 5, 7, 8, 10], Blinds(1, 2, 4))
    tables = [t1, t2, t3]
    rules = floor_rules(seating=TEN_MAX, not_dealt=not_dealt)

    moves = plan_balance(tables, rules, random.Random(1))
    assert moves == (Move(108, 1, 8, 3, 6, wait_hands=1, sits_out=False),)
    assert counts_after(tables, moves) == [9, 10, 8]

    moves = plan_balance(tables, replace(rules, balance_threshold=2), random.Random(1))
    assert moves == (
        Move(108, 1, 8, 3, 6, wait_hands=1, sits_out=False),
        Move(204, 2, 4, 3, 9, wait_hands=4, sits_out=False),
    )
    assert counts_after(tables, moves) == [9, 9, 9]


def test_rules_5_example_2_seat_waits() -> None:
    t3 = seated_table(3, 10, [1, 2, 4, 5, 7, 8, 10], Blinds(1, 2, 4))
    assert worst_seat(t3) == (6, 1)
    assert worst_seat(t3, taken={6}) == (9, 4)
    # s3 lies between BTN and SB: the longest wait, and not dealt in.
    assert worst_seat(replace(t3, unavailable=frozenset({6, 9}))) == (3, 6)


def test_rules_5_example_3_nine_seven_no_move() -> None:
    tables = [full_table(1, 9, Blinds(1, 2, 3)), seated_table(2, 9, range(1, 8), Blinds(1, 2, 3))]
    assert plan_balance(tables, floor_rules(), random.Random(1)) == ()


def test_rules_5_example_4_eight_five_halts() -> None:
    rules = floor_rules()
    t1 = seated_table(1, 9, range(1, 9), Blinds(1, 2, 3))
    t2 = seated_table(2, 9, [1, 2, 4, 7, 8], Blinds(1, 2, 4))  # prevBB 4, s5 empty
    assert halted_tables([t1, t2], rules) == {2}
    assert halted_tables([t1, seated_table(2, 9, [1, 2, 4, 5, 8], Blinds(1, 2, 4))], rules) == set()
    assert halted_tables([t1, replace(t2, blinds=None)], rules) == set()
    t1_seven = seated_table(1, 9, range(1, 8), Blinds(1, 2, 3))
    assert halted_tables([t1_seven, t2], rules) == set()
    # The seat right after the BB wraps from the last seat to s1.
    t2_wrap = seated_table(2, 9, [2, 3, 5, 7, 9], Blinds(5, 7, 9))
    assert halted_tables([t1, t2_wrap], rules) == {2}
    # A seat reserved for a mover still on the way is physically empty: halt until they sit.
    # (The reserved seat counts: T2 is 6, so it takes a 9-player table to make it 3 short.)
    t2_pending = replace(t2, reserved=frozenset({5}))
    assert halted_tables([t1, t2_pending], rules) == set()
    assert halted_tables([full_table(1, 9, Blinds(1, 2, 3)), t2_pending], rules) == {2}


def test_floor_plan_halted_is_judged_with_movers_seated() -> None:
    t1 = seated_table(1, 9, range(1, 9), Blinds(6, 7, 8))  # next BB s1
    t2 = seated_table(2, 9, [1, 2, 4, 7, 8], Blinds(1, 2, 4))
    plan = floor_plan([t1, t2], floor_rules(), True, None, 9, random.Random(1))
    assert plan.moves == (Move(101, 1, 1, 2, 5, wait_hands=0, sits_out=False),)
    # After the move [7, 6]: nobody is 3 short any more.
    assert plan.halted == frozenset()
    plan = floor_plan([t1, t2], floor_rules(balance_threshold=4), True, None, 9, random.Random(1))
    assert plan.moves == ()
    assert plan.halted == {2}


def test_second_move_from_one_table_is_the_next_player_after() -> None:
    t1 = full_table(1, 9, Blinds(3, 4, 5))
    t2 = seated_table(2, 9, [1, 2, 3, 5], Blinds(1, 2, 3))
    moves = plan_balance([t1, t2], floor_rules(balance_threshold=2), random.Random(1))
    assert [(m.entry_id, m.from_seat) for m in moves] == [(106, 6), (107, 7)]
    # First mover becomes the BB (s4, between prevBB 3 and s5); the second waits behind s5.
    assert [(m.to_seat, m.wait_hands) for m in moves] == [(4, 0), (6, 2)]
    assert counts_after([t1, t2], moves) == [7, 6]


def test_source_and_destination_ties() -> None:
    tables = [
        full_table(1, 9, Blinds(1, 2, 3)),
        seated_table(2, 9, range(1, 7), Blinds(1, 2, 3)),
        full_table(3, 9, Blinds(1, 2, 3)),
        seated_table(4, 9, range(1, 7), Blinds(1, 2, 3)),
    ]
    low = plan_balance(tables, floor_rules(), random.Random(1))
    assert [(m.from_table, m.to_table) for m in low] == [(1, 2), (3, 4)]
    high = plan_balance(tables, floor_rules(source_order="highest_first"), random.Random(1))
    assert [(m.from_table, m.to_table) for m in high] == [(3, 4), (1, 2)]
    seen = set()
    for seed in range(40):
        moves = plan_balance(tables, floor_rules(source_order="random"), random.Random(seed))
        assert len(moves) == 2
        assert {m.from_table for m in moves} == {1, 3}
        assert {m.to_table for m in moves} == {2, 4}
        seen.add((moves[0].from_table, moves[0].to_table))
    assert seen == {(1, 2), (1, 4), (3, 2), (3, 4)}


def test_unknown_source_button_names_nobody_and_counts_leavers() -> None:
    t1 = full_table(1, 9)
    t2 = seated_table(2, 9, range(1, 6), Blinds(1, 2, 3))
    moves = plan_balance([t1, t2], floor_rules(balance_threshold=2), random.Random(1))
    assert [(m.entry_id, m.from_seat) for m in moves] == [(None, None), (None, None)]
    assert [(m.to_seat, m.wait_hands) for m in moves] == [(6, 2), (7, 3)]
    assert counts_after([t1, t2], moves) == [7, 7]
    # A pending unnamed move already counts: [9 - 2 leaving, 5 + 2 reserved] is balanced.
    pending = [replace(t1, leaving=2), replace(t2, reserved=frozenset({6, 7}))]
    assert plan_balance(pending, floor_rules(balance_threshold=2), random.Random(1)) == ()


def test_pending_arrivals_count_as_seated_and_are_not_moved_again() -> None:
    # T2: a mover is on the way to s4 (between prevBB 3 and s5): the next one waits behind.
    t2 = seated_table(2, 9, [1, 2, 3, 5], Blinds(1, 2, 3), reserved=frozenset({4}))
    assert t2.count == 5
    assert t2.free_seats() == (6, 7, 8, 9)
    assert worst_seat(t2) == (6, 2)
    # T1: s9 is reserved for an arrival who would be next BB; the next seated player moves.
    t1 = seated_table(1, 9, range(1, 9), Blinds(6, 7, 8), reserved=frozenset({9}))
    moves = plan_balance([t1, t2], floor_rules(balance_threshold=4), random.Random(1))
    assert [(m.entry_id, m.from_seat, m.to_seat) for m in moves] == [(101, 1, 6)]


def test_unknown_destination_button_gets_a_random_free_seat() -> None:
    t1 = full_table(1, 9, Blinds(3, 4, 5))
    t2 = seated_table(2, 9, [1, 2, 3, 5, 7, 9])
    seats = set()
    for seed in range(60):
        (move,) = plan_balance([t1, t2], floor_rules(), random.Random(seed))
        assert (move.entry_id, move.wait_hands, move.sits_out) == (106, None, False)
        seats.add(move.to_seat)
    assert seats == {4, 6, 8}


def test_worst_seat_is_never_the_next_small_blind_unless_it_is_the_only_seat() -> None:
    # The BB of the hand in play (s3) busted: s3 is free but is the next SB seat.
    table = seated_table(2, 9, [1, 2, 5, 7, 9], Blinds(1, 2, 3))
    assert worst_seat(table) == (4, 0)
    only = seated_table(2, 9, [1, 2, 4, 5, 6, 7, 8, 9], Blinds(1, 2, 3))
    assert worst_seat(only) == (3, 8)
    with pytest.raises(ValueError):
        worst_seat(full_table(1, 9, Blinds(1, 2, 3)))
    with pytest.raises(ValueError):
        worst_seat(seated_table(2, 9, [1, 2]))  # button unknown needs rng


def test_worst_seat_tie_goes_to_first_seat_clockwise() -> None:
    # prevBB 3, next BB 6: s4 and s5 both make the mover BB next hand.
    table = seated_table(1, 9, [1, 2, 3, 6, 9], Blinds(1, 2, 3))
    assert worst_seat(table) == (4, 0)
    # prevBB 8, next BB 1 (wrapping): s9 makes the mover BB; without it s2 and s3 both wait
    # 2 (behind s9 and s1) and the first clockwise wins.
    table = seated_table(1, 9, [1, 4, 5, 6, 7, 8], Blinds(6, 7, 8))
    assert worst_seat(table) == (9, 0)
    assert worst_seat(table, taken={9}) == (2, 2)


def test_moved_player_sitting_out_under_doyles_rule() -> None:
    # T2's SB (s2) busted: next hand BB s4, SB s3, dead button on s2, the only free seat.
    t1 = full_table(1, 9, Blinds(3, 4, 5))
    t2 = seated_table(2, 9, [1, 3, 4, 5, 6, 7, 8], Blinds(1, 2, 3), unavailable=frozenset({9}))
    tda = plan_balance([t1, t2], floor_rules(balance_threshold=2), random.Random(1))
    doyle = plan_balance(
        [t1, t2], floor_rules(balance_threshold=2, not_dealt="sb_or_btn_seat"), random.Random(1)
    )
    assert [(m.to_seat, m.sits_out) for m in tda] == [(2, False)]
    assert [(m.to_seat, m.sits_out) for m in doyle] == [(2, True)]


def test_no_destination_with_a_free_seat_stops_balancing() -> None:
    t1 = full_table(1, 9, Blinds(1, 2, 3))
    t2 = seated_table(2, 9, range(1, 6), Blinds(1, 2, 3), unavailable=frozenset(range(6, 10)))
    assert plan_balance([t1, t2], floor_rules(), random.Random(1)) == ()
    t3 = seated_table(3, 9, range(1, 8), Blinds(1, 2, 3))
    # T2 cannot take anyone; T3 is 2 short of T1, under the threshold of 3.
    assert plan_balance([t1, t2, t3], floor_rules(), random.Random(1)) == ()
    moves = plan_balance([t1, t2, t3], floor_rules(balance_threshold=2), random.Random(1))
    assert [(m.from_table, m.to_table) for m in moves] == [(1, 3)]


def test_sits_out_at() -> None:
    blinds = Blinds(3, 5, 6)
    assert [s for s in range(1, 10) if sits_out_at(s, blinds, 9, "between_btn_sb")] == [4]
    assert [s for s in range(1, 10) if sits_out_at(s, blinds, 9, "sb_or_btn_seat")] == [3, 4, 5]
    no_sb = Blinds(2, None, 5, dead_small_blind=3)
    assert [s for s in range(1, 10) if sits_out_at(s, no_sb, 9, "between_btn_sb")] == [3, 4]
    assert [s for s in range(1, 10) if sits_out_at(s, no_sb, 9, "sb_or_btn_seat")] == [2, 3, 4]
    assert not sits_out_at(4, None, 9, "between_btn_sb")
    assert not sits_out_at(4, None, 9, "sb_or_btn_seat")


# --- breaking (docs/rules.md §6) ----------------------------------------------------------


def test_rules_6_example_1_break_the_smallest_table() -> None:
    t1 = seated_table(1, 9, [1, 2, 3, 5, 6, 7, 9], Blinds(1, 2, 3))  # free: s4, s8
    t2 = seated_table(2, 9, [3, 4, 5, 7, 8, 9], Blinds(3, 4, 5))  # free: s1, s2, s6
    t3 = seated_table(3, 9, range(1, 6), Blinds(1, 2, 3))
    tables = [t1, t2, t3]
    assert tables_wanted(18, True, floor_rules()) == 2
    assert table_to_break(tables, floor_rules(), random.Random(1)) == 3

    # T3 s1..s5 are dealt 7c, Ad, 2s, Kh, Ks; the seat cards stay in their shown order.
    rng = ScriptedRandom(["7c", "Ad", "2s", "Kh", "Ks"], order=range(5))
    result = plan_table_break(tables, 3, rng)
    assert result.table == 3
    assert result.seat_pool == ((1, 4), (1, 8), (2, 1), (2, 2), (2, 6))
    assert result.scrambled == result.seat_pool
    drawn = [(s.entry_id, s.card.code, s.to_table, s.to_seat) for s in result.seats]
    assert drawn == [
        (302, "Ad", 1, 4),
        (305, "Ks", 1, 8),
        (304, "Kh", 2, 1),
        (301, "7c", 2, 2),
        (303, "2s", 2, 6),
    ]
    plan = floor_plan(tables, floor_rules(), True, None, 9, random.Random(7))
    assert len(plan.breaks) == 1 and plan.breaks[0].table == 3
    assert Counter(s.to_table for s in plan.breaks[0].seats) == {1: 2, 2: 3}
    assert plan.moves == () and plan.final_table is None


def test_break_seat_cards_go_out_in_scrambled_order() -> None:
    t1 = seated_table(1, 9, range(1, 7), Blinds(1, 2, 3))
    t2 = seated_table(2, 9, range(1, 3), Blinds(1, 1, 2))
    # Two seats from three free ones (7, 8, 9) are drawn at random, then shuffled by [1, 0].
    rng = ScriptedRandom(["2c", "As"], order=[1, 0])
    result = plan_table_break([t1, t2], 2, rng)
    assert result.scrambled == (result.seat_pool[1], result.seat_pool[0])
    assert [(s.entry_id, s.to_seat) for s in result.seats] == [
        (202, result.scrambled[0][1]),
        (201, result.scrambled[1][1]),
    ]


@pytest.mark.parametrize("break_order", ["fewest_players", "fixed_list"])
def test_rules_6_example_2_six_six_six_highest_first(break_order: str) -> None:
    tables = [seated_table(n, 9, range(1, 7), Blinds(1, 2, 3)) for n in (1, 2, 3)]
    rules = floor_rules(break_order=break_order, break_tiebreak="highest_first")
    assert table_to_break(tables, rules, random.Random(1)) == 3
    plan = floor_plan(tables, rules, True, None, 9, random.Random(3))
    (result,) = plan.breaks
    assert result.table == 3
    assert Counter(s.to_table for s in result.seats) == {1: 3, 2: 3}
    assert plan.moves == ()


def test_break_order_choices() -> None:
    tables = [
        seated_table(1, 9, range(1, 5)),
        seated_table(2, 9, range(1, 7)),
        seated_table(3, 9, range(1, 5)),
        seated_table(4, 9, range(1, 8)),
    ]
    rng = random.Random(1)
    assert table_to_break(tables, floor_rules(), rng) == 1
    assert table_to_break(tables, floor_rules(break_tiebreak="highest_first"), rng) == 3
    assert table_to_break(tables, floor_rules(break_order="fixed_list"), rng) == 1
    fixed_high = floor_rules(break_order="fixed_list", break_tiebreak="highest_first")
    assert table_to_break(tables, fixed_high, rng) == 4
    fewest_random = floor_rules(break_tiebreak="random")
    assert {table_to_break(tables, fewest_random, random.Random(s)) for s in range(30)} == {1, 3}
    any_table = floor_rules(break_order="random")
    assert {table_to_break(tables, any_table, random.Random(s)) for s in range(60)} == {1, 2, 3, 4}


def test_rules_6_example_3_drawn_between_button_and_small_blind_sits_out() -> None:
    # T1's next hand: BTN s3, SB s5 (prevBB), BB s6; s4 is the only free seat.
    t1 = seated_table(1, 9, [1, 2, 3, 5, 6, 7, 8, 9], Blinds(2, 3, 5))
    t2 = seated_table(2, 9, [4], None)
    for not_dealt in ("between_btn_sb", "sb_or_btn_seat"):
        result = plan_table_break([t1, t2], 2, random.Random(1), not_dealt)
        assert [(s.to_table, s.to_seat, s.sits_out) for s in result.seats] == [(1, 4, True)]


def test_break_spreads_over_the_smallest_tables_and_respects_free_seats() -> None:
    t1 = seated_table(1, 9, range(1, 9), Blinds(1, 2, 3))  # 8, one free seat
    t2 = seated_table(2, 9, range(1, 4), Blinds(1, 2, 3))  # 3
    t3 = seated_table(3, 9, range(1, 6), Blinds(1, 2, 3))  # 5
    t4 = seated_table(
        4, 9, range(1, 6), Blinds(1, 2, 3), unavailable=frozenset(range(7, 10))
    )  # 5 + 1
    t5 = seated_table(5, 9, range(1, 8), Blinds(1, 2, 3))  # breaks: 7 players
    result = plan_table_break([t1, t2, t3, t4, t5], 5, random.Random(2))
    assert Counter(s.to_table for s in result.seats) == {2: 4, 3: 2, 4: 1}
    with pytest.raises(ValueError, match="free seats"):
        plan_table_break([full_table(1, 9), t5], 5, random.Random(2))


def test_floor_plan_skips_a_break_the_others_cannot_seat() -> None:
    # Rimóc thresholds say 1 table for 10 players, but a 9-seat table cannot hold them.
    tables = [seated_table(1, 9, range(1, 6), Blinds(1, 2, 3)), seated_table(2, 9, range(1, 6))]
    plan = floor_plan(tables, floor_rules(seating=RIMOC), False, None, 9, random.Random(1))
    assert plan.breaks == ()


def test_floor_plan_breaks_several_tables_without_moving_anyone_twice() -> None:
    tables = [
        seated_table(1, 9, range(1, 8), Blinds(1, 2, 3)),
        seated_table(2, 9, range(1, 8), Blinds(1, 2, 3)),
        seated_table(3, 9, range(1, 3), Blinds(1, 1, 2)),
        seated_table(4, 9, range(1, 3), Blinds(1, 1, 2)),
    ]  # 18 players: 2 tables
    rules = floor_rules(break_order="fixed_list", break_tiebreak="lowest_first")
    plan = floor_plan(tables, rules, True, None, 9, random.Random(5))
    assert [b.table for b in plan.breaks] == [1, 2]
    moved = [s.entry_id for b in plan.breaks for s in b.seats]
    assert len(moved) == len(set(moved)) == 14
    assert {s.to_table for b in plan.breaks for s in b.seats} == {3, 4}
    assert plan.moves == ()


# --- final table (docs/rules.md §7) -------------------------------------------------------


def test_rules_7_example_1_nine_max_redraw_at_nine() -> None:
    tables = [
        seated_table(1, 9, range(1, 6), Blinds(1, 2, 3)),
        seated_table(2, 9, range(1, 6), Blinds(1, 2, 3)),
    ]
    assert floor_plan(tables, floor_rules(), True, 1, 9, random.Random(1)) == FloorPlan()
    busted = [tables[0], seated_table(2, 9, range(1, 5), Blinds(1, 2, 3))]
    plan = floor_plan(busted, floor_rules(), True, 2, 9, random.Random(1))
    check_final_table(plan, busted, 2, 9)
    assert len(plan.final_table.seats) == 9


def test_rules_7_example_2_doyle_final_table_at_ten() -> None:
    tables = [seated_table(1, 10, range(1, 6), Blinds(1, 2, 3)), seated_table(2, 10, range(1, 6))]
    rules = floor_rules(final_table_size=10, seating=TEN_MAX)
    plan = floor_plan(tables, rules, True, None, 10, random.Random(2))
    check_final_table(plan, tables, 1, 10)
    assert len(plan.final_table.seats) == 10


def test_rules_7_example_3_six_max_seven_handed_final() -> None:
    rules = floor_rules(final_table_size=7, seating=SIX_MAX)
    tables = [
        seated_table(1, 6, range(1, 5), Blinds(1, 2, 3)),
        seated_table(2, 6, range(1, 5), Blinds(1, 2, 3)),
    ]
    assert tables_wanted(8, True, rules) == 2
    assert floor_plan(tables, rules, True, 1, 7, random.Random(1)) == FloorPlan()
    busted = [tables[0], seated_table(2, 6, range(1, 4), Blinds(1, 2, 3))]
    plan = floor_plan(busted, rules, True, 1, 7, random.Random(1))
    check_final_table(plan, busted, 1, 7)
    assert len(plan.final_table.seats) == 7


def test_final_table_without_redraw_breaks_down_to_one_table() -> None:
    tables = [
        seated_table(1, 9, range(1, 6), Blinds(1, 2, 3)),
        seated_table(2, 9, range(1, 5), Blinds(1, 2, 3)),
    ]
    plan = floor_plan(tables, floor_rules(ft_redraw=False), True, None, 9, random.Random(1))
    assert plan.final_table is None
    assert [b.table for b in plan.breaks] == [2]


def test_plan_final_table_skips_unavailable_seats_and_checks_room() -> None:
    host = seated_table(1, 10, range(1, 5), unavailable=frozenset({2, 7}))
    other = seated_table(2, 10, range(1, 5))
    for seed in range(20):
        final = plan_final_table([host, other], 1, 10, random.Random(seed))
        assert {s.to_seat for s in final.seats} == {1, 3, 4, 5, 6, 8, 9, 10}
    with pytest.raises(ValueError):
        plan_final_table([host, other], 1, 9, random.Random(1))
    with pytest.raises(ValueError):
        plan_final_table([host, other], 3, 10, random.Random(1))


def test_final_table_seats_are_uniform() -> None:
    tables = [seated_table(1, 9, [1, 2]), seated_table(2, 9, [5])]
    seen = Counter()
    for seed in range(3000):
        final = plan_final_table(tables, 1, 9, random.Random(seed))
        seen.update((s.entry_id, s.to_seat) for s in final.seats)
    assert len(seen) == 27
    assert min(seen.values()) > 3000 / 9 * 0.75


def test_floor_table_validates_and_copies() -> None:
    occupied = {1: 11, 2: 12}
    table = FloorTable(1, 9, occupied)
    occupied[3] = 13
    assert table.count == 2
    assert table.free_seats() == (3, 4, 5, 6, 7, 8, 9)
    with pytest.raises(ValueError):
        FloorTable(1, 9, {10: 1})
    with pytest.raises(ValueError):
        FloorTable(1, 9, {1: 1}, reserved=frozenset({1}))
    with pytest.raises(ValueError):
        FloorTable(1, 9, {1: 1}, leaving=2)


# --- invariants over random table states -------------------------------------------------
