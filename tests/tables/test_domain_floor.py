"""Balancing, breaking and the final table: docs/rules.md §5, §6, §7 and planner invariants."""

import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tables.domain.button import Blinds, first_hand_blinds, next_big_blind_seat, next_hand_blinds
from tables.domain.cards import Card
from tables.domain.floor import (
    FloorPlan,
    FloorRules,
    FloorTable,
    Move,
    floor_plan,
    halted_tables,
    plan_balance,
    plan_final_table,
    plan_table_break,
    sits_out_at,
    table_to_break,
    tables_wanted,
    worst_seat,
)
from tables.domain.seating import SeatingRules

NINE_MAX = SeatingRules(table_thresholds=None, seats_per_table=9, single_table_seats=10)
TEN_MAX = SeatingRules(table_thresholds=None, seats_per_table=10, single_table_seats=10)
SIX_MAX = SeatingRules(table_thresholds=None, seats_per_table=6, single_table_seats=6)
RIMOC = SeatingRules(table_thresholds=(10, 18, 27), seats_per_table=9, single_table_seats=10)


def _rules(**changes: object) -> FloorRules:
    base = FloorRules(
        balance_threshold=3,
        halt_threshold=3,
        source_order="lowest_first",
        break_order="fewest_players",
        break_tiebreak="lowest_first",
        final_table_size=9,
        seating=NINE_MAX,
    )
    return replace(base, **changes)


def _table(
    number: int,
    seats: int,
    occupied: Iterable[int],
    blinds: Blinds | None = None,
    **extra: object,
) -> FloorTable:
    """A table whose player in seat s has entry id 100 * number + s."""
    return FloorTable(
        number, seats, {s: 100 * number + s for s in occupied}, blinds=blinds, **extra
    )


def _full(number: int, seats: int, blinds: Blinds | None = None) -> FloorTable:
    return _table(number, seats, range(1, seats + 1), blinds)


def _counts_after(tables: Sequence[FloorTable], moves: Sequence[Move]) -> list[int]:
    counts = {t.number: t.count for t in tables}
    for move in moves:
        counts[move.from_table] -= 1
        counts[move.to_table] += 1
    return [counts[t.number] for t in tables]


class ScriptedRandom(random.Random):
    """A seeded Random whose deck draws (and optionally shuffles) are scripted by the test."""

    def __init__(self, cards: Sequence[str], order: Sequence[int] | None = None) -> None:
        super().__init__(0)
        self.cards = [Card.from_code(code) for code in cards]
        self.order = order

    def shuffle(self, x: list) -> None:  # type: ignore[override]
        if self.order is not None:
            x[:] = [x[i] for i in self.order]

    def sample(self, population, k, *, counts=None):  # type: ignore[no-untyped-def, override]
        if len(population) == 52:
            assert k <= len(self.cards)
            return self.cards[:k]
        return super().sample(population, k, counts=counts)


# --- table count (docs/rules.md §3.1, §7.3) -----------------------------------------------


def test_tables_wanted() -> None:
    rules = _rules()
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
    rules = _rules(seating=RIMOC)
    assert tables_wanted(10, False, rules) == 1
    assert tables_wanted(10, True, rules) == 2
    assert tables_wanted(11, True, rules) == 2
    assert tables_wanted(9, True, rules) == 1
    tables = [
        _table(1, 9, range(1, 6), Blinds(1, 2, 3)),
        _table(2, 9, range(1, 6), Blinds(1, 2, 3)),
    ]
    plan = floor_plan(tables, rules, True, 1, 9, random.Random(1))
    assert plan == FloorPlan()


# --- balancing (docs/rules.md §5) ---------------------------------------------------------


def test_rules_5_example_1_nine_six() -> None:
    t1 = _full(1, 9, Blinds(3, 4, 5))  # next BB is P in s6
    t2 = _table(2, 9, [1, 2, 3, 5, 7, 9], Blinds(1, 2, 3))
    moves = plan_balance([t1, t2], _rules(), random.Random(1))
    assert moves == (Move(106, 1, 6, 2, 4, wait_hands=0, sits_out=False),)
    assert _counts_after([t1, t2], moves) == [8, 7]


@pytest.mark.parametrize("not_dealt", ["between_btn_sb", "sb_or_btn_seat"])
def test_rules_5_example_2_ten_ten_seven(not_dealt: str) -> None:
    t1 = _full(1, 10, Blinds(5, 6, 7))  # next BB s8
    t2 = _full(2, 10, Blinds(1, 2, 3))  # next BB s4
    t3 = _table(3, 10, [1, 2, 4, 5, 7, 8, 10], Blinds(1, 2, 4))
    tables = [t1, t2, t3]
    rules = _rules(seating=TEN_MAX, not_dealt=not_dealt)

    moves = plan_balance(tables, rules, random.Random(1))
    assert moves == (Move(108, 1, 8, 3, 6, wait_hands=1, sits_out=False),)
    assert _counts_after(tables, moves) == [9, 10, 8]

    moves = plan_balance(tables, replace(rules, balance_threshold=2), random.Random(1))
    assert moves == (
        Move(108, 1, 8, 3, 6, wait_hands=1, sits_out=False),
        Move(204, 2, 4, 3, 9, wait_hands=4, sits_out=False),
    )
    assert _counts_after(tables, moves) == [9, 9, 9]


def test_rules_5_example_2_seat_waits() -> None:
    t3 = _table(3, 10, [1, 2, 4, 5, 7, 8, 10], Blinds(1, 2, 4))
    assert worst_seat(t3) == (6, 1)
    assert worst_seat(t3, taken={6}) == (9, 4)
    # s3 lies between BTN and SB: the longest wait, and not dealt in.
    assert worst_seat(replace(t3, unavailable=frozenset({6, 9}))) == (3, 6)


def test_rules_5_example_3_nine_seven_no_move() -> None:
    tables = [_full(1, 9, Blinds(1, 2, 3)), _table(2, 9, range(1, 8), Blinds(1, 2, 3))]
    assert plan_balance(tables, _rules(), random.Random(1)) == ()


def test_rules_5_example_4_eight_five_halts() -> None:
    rules = _rules()
    t1 = _table(1, 9, range(1, 9), Blinds(1, 2, 3))
    t2 = _table(2, 9, [1, 2, 4, 7, 8], Blinds(1, 2, 4))  # prevBB 4, s5 empty
    assert halted_tables([t1, t2], rules) == {2}
    assert halted_tables([t1, _table(2, 9, [1, 2, 4, 5, 8], Blinds(1, 2, 4))], rules) == set()
    assert halted_tables([t1, replace(t2, blinds=None)], rules) == set()
    t1_seven = _table(1, 9, range(1, 8), Blinds(1, 2, 3))
    assert halted_tables([t1_seven, t2], rules) == set()
    # The seat right after the BB wraps from the last seat to s1.
    t2_wrap = _table(2, 9, [2, 3, 5, 7, 9], Blinds(5, 7, 9))
    assert halted_tables([t1, t2_wrap], rules) == {2}
    # A seat reserved for a mover still on the way is physically empty: halt until they sit.
    # (The reserved seat counts: T2 is 6, so it takes a 9-player table to make it 3 short.)
    t2_pending = replace(t2, reserved=frozenset({5}))
    assert halted_tables([t1, t2_pending], rules) == set()
    assert halted_tables([_full(1, 9, Blinds(1, 2, 3)), t2_pending], rules) == {2}


def test_floor_plan_halted_is_judged_with_movers_seated() -> None:
    t1 = _table(1, 9, range(1, 9), Blinds(6, 7, 8))  # next BB s1
    t2 = _table(2, 9, [1, 2, 4, 7, 8], Blinds(1, 2, 4))
    plan = floor_plan([t1, t2], _rules(), True, None, 9, random.Random(1))
    assert plan.moves == (Move(101, 1, 1, 2, 5, wait_hands=0, sits_out=False),)
    # After the move [7, 6]: nobody is 3 short any more.
    assert plan.halted == frozenset()
    plan = floor_plan([t1, t2], _rules(balance_threshold=4), True, None, 9, random.Random(1))
    assert plan.moves == ()
    assert plan.halted == {2}


def test_second_move_from_one_table_is_the_next_player_after() -> None:
    t1 = _full(1, 9, Blinds(3, 4, 5))
    t2 = _table(2, 9, [1, 2, 3, 5], Blinds(1, 2, 3))
    moves = plan_balance([t1, t2], _rules(balance_threshold=2), random.Random(1))
    assert [(m.entry_id, m.from_seat) for m in moves] == [(106, 6), (107, 7)]
    # First mover becomes the BB (s4, between prevBB 3 and s5); the second waits behind s5.
    assert [(m.to_seat, m.wait_hands) for m in moves] == [(4, 0), (6, 2)]
    assert _counts_after([t1, t2], moves) == [7, 6]


def test_source_and_destination_ties() -> None:
    tables = [
        _full(1, 9, Blinds(1, 2, 3)),
        _table(2, 9, range(1, 7), Blinds(1, 2, 3)),
        _full(3, 9, Blinds(1, 2, 3)),
        _table(4, 9, range(1, 7), Blinds(1, 2, 3)),
    ]
    low = plan_balance(tables, _rules(), random.Random(1))
    assert [(m.from_table, m.to_table) for m in low] == [(1, 2), (3, 4)]
    high = plan_balance(tables, _rules(source_order="highest_first"), random.Random(1))
    assert [(m.from_table, m.to_table) for m in high] == [(3, 4), (1, 2)]
    seen = set()
    for seed in range(40):
        moves = plan_balance(tables, _rules(source_order="random"), random.Random(seed))
        assert len(moves) == 2
        assert {m.from_table for m in moves} == {1, 3}
        assert {m.to_table for m in moves} == {2, 4}
        seen.add((moves[0].from_table, moves[0].to_table))
    assert seen == {(1, 2), (1, 4), (3, 2), (3, 4)}


def test_unknown_source_button_names_nobody_and_counts_leavers() -> None:
    t1 = _full(1, 9)
    t2 = _table(2, 9, range(1, 6), Blinds(1, 2, 3))
    moves = plan_balance([t1, t2], _rules(balance_threshold=2), random.Random(1))
    assert [(m.entry_id, m.from_seat) for m in moves] == [(None, None), (None, None)]
    assert [(m.to_seat, m.wait_hands) for m in moves] == [(6, 2), (7, 3)]
    assert _counts_after([t1, t2], moves) == [7, 7]
    # A pending unnamed move already counts: [9 - 2 leaving, 5 + 2 reserved] is balanced.
    pending = [replace(t1, leaving=2), replace(t2, reserved=frozenset({6, 7}))]
    assert plan_balance(pending, _rules(balance_threshold=2), random.Random(1)) == ()


def test_pending_arrivals_count_as_seated_and_are_not_moved_again() -> None:
    # T2: a mover is on the way to s4 (between prevBB 3 and s5): the next one waits behind.
    t2 = _table(2, 9, [1, 2, 3, 5], Blinds(1, 2, 3), reserved=frozenset({4}))
    assert t2.count == 5
    assert t2.free_seats() == (6, 7, 8, 9)
    assert worst_seat(t2) == (6, 2)
    # T1: s9 is reserved for an arrival who would be next BB; the next seated player moves.
    t1 = _table(1, 9, range(1, 9), Blinds(6, 7, 8), reserved=frozenset({9}))
    moves = plan_balance([t1, t2], _rules(balance_threshold=4), random.Random(1))
    assert [(m.entry_id, m.from_seat, m.to_seat) for m in moves] == [(101, 1, 6)]


def test_unknown_destination_button_gets_a_random_free_seat() -> None:
    t1 = _full(1, 9, Blinds(3, 4, 5))
    t2 = _table(2, 9, [1, 2, 3, 5, 7, 9])
    seats = set()
    for seed in range(60):
        (move,) = plan_balance([t1, t2], _rules(), random.Random(seed))
        assert (move.entry_id, move.wait_hands, move.sits_out) == (106, None, False)
        seats.add(move.to_seat)
    assert seats == {4, 6, 8}


def test_worst_seat_is_never_the_next_small_blind_unless_it_is_the_only_seat() -> None:
    # The BB of the hand in play (s3) busted: s3 is free but is the next SB seat.
    table = _table(2, 9, [1, 2, 5, 7, 9], Blinds(1, 2, 3))
    assert worst_seat(table) == (4, 0)
    only = _table(2, 9, [1, 2, 4, 5, 6, 7, 8, 9], Blinds(1, 2, 3))
    assert worst_seat(only) == (3, 8)
    with pytest.raises(ValueError):
        worst_seat(_full(1, 9, Blinds(1, 2, 3)))
    with pytest.raises(ValueError):
        worst_seat(_table(2, 9, [1, 2]))  # button unknown needs rng


def test_worst_seat_tie_goes_to_first_seat_clockwise() -> None:
    # prevBB 3, next BB 6: s4 and s5 both make the mover BB next hand.
    table = _table(1, 9, [1, 2, 3, 6, 9], Blinds(1, 2, 3))
    assert worst_seat(table) == (4, 0)
    # prevBB 8, next BB 1 (wrapping): s9 makes the mover BB; without it s2 and s3 both wait
    # 2 (behind s9 and s1) and the first clockwise wins.
    table = _table(1, 9, [1, 4, 5, 6, 7, 8], Blinds(6, 7, 8))
    assert worst_seat(table) == (9, 0)
    assert worst_seat(table, taken={9}) == (2, 2)


def test_moved_player_sitting_out_under_doyles_rule() -> None:
    # T2's SB (s2) busted: next hand BB s4, SB s3, dead button on s2, the only free seat.
    t1 = _full(1, 9, Blinds(3, 4, 5))
    t2 = _table(2, 9, [1, 3, 4, 5, 6, 7, 8], Blinds(1, 2, 3), unavailable=frozenset({9}))
    tda = plan_balance([t1, t2], _rules(balance_threshold=2), random.Random(1))
    doyle = plan_balance(
        [t1, t2], _rules(balance_threshold=2, not_dealt="sb_or_btn_seat"), random.Random(1)
    )
    assert [(m.to_seat, m.sits_out) for m in tda] == [(2, False)]
    assert [(m.to_seat, m.sits_out) for m in doyle] == [(2, True)]


def test_no_destination_with_a_free_seat_stops_balancing() -> None:
    t1 = _full(1, 9, Blinds(1, 2, 3))
    t2 = _table(2, 9, range(1, 6), Blinds(1, 2, 3), unavailable=frozenset(range(6, 10)))
    assert plan_balance([t1, t2], _rules(), random.Random(1)) == ()
    t3 = _table(3, 9, range(1, 8), Blinds(1, 2, 3))
    # T2 cannot take anyone; T3 is 2 short of T1, under the threshold of 3.
    assert plan_balance([t1, t2, t3], _rules(), random.Random(1)) == ()
    moves = plan_balance([t1, t2, t3], _rules(balance_threshold=2), random.Random(1))
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
    t1 = _table(1, 9, [1, 2, 3, 5, 6, 7, 9], Blinds(1, 2, 3))  # free: s4, s8
    t2 = _table(2, 9, [3, 4, 5, 7, 8, 9], Blinds(3, 4, 5))  # free: s1, s2, s6
    t3 = _table(3, 9, range(1, 6), Blinds(1, 2, 3))
    tables = [t1, t2, t3]
    assert tables_wanted(18, True, _rules()) == 2
    assert table_to_break(tables, _rules(), random.Random(1)) == 3

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
    plan = floor_plan(tables, _rules(), True, None, 9, random.Random(7))
    assert len(plan.breaks) == 1 and plan.breaks[0].table == 3
    assert Counter(s.to_table for s in plan.breaks[0].seats) == {1: 2, 2: 3}
    assert plan.moves == () and plan.final_table is None


def test_break_seat_cards_go_out_in_scrambled_order() -> None:
    t1 = _table(1, 9, range(1, 7), Blinds(1, 2, 3))
    t2 = _table(2, 9, range(1, 3), Blinds(1, 1, 2))
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
    tables = [_table(n, 9, range(1, 7), Blinds(1, 2, 3)) for n in (1, 2, 3)]
    rules = _rules(break_order=break_order, break_tiebreak="highest_first")
    assert table_to_break(tables, rules, random.Random(1)) == 3
    plan = floor_plan(tables, rules, True, None, 9, random.Random(3))
    (result,) = plan.breaks
    assert result.table == 3
    assert Counter(s.to_table for s in result.seats) == {1: 3, 2: 3}
    assert plan.moves == ()


def test_break_order_choices() -> None:
    tables = [
        _table(1, 9, range(1, 5)),
        _table(2, 9, range(1, 7)),
        _table(3, 9, range(1, 5)),
        _table(4, 9, range(1, 8)),
    ]
    rng = random.Random(1)
    assert table_to_break(tables, _rules(), rng) == 1
    assert table_to_break(tables, _rules(break_tiebreak="highest_first"), rng) == 3
    assert table_to_break(tables, _rules(break_order="fixed_list"), rng) == 1
    fixed_high = _rules(break_order="fixed_list", break_tiebreak="highest_first")
    assert table_to_break(tables, fixed_high, rng) == 4
    fewest_random = _rules(break_tiebreak="random")
    assert {table_to_break(tables, fewest_random, random.Random(s)) for s in range(30)} == {1, 3}
    any_table = _rules(break_order="random")
    assert {table_to_break(tables, any_table, random.Random(s)) for s in range(60)} == {1, 2, 3, 4}


def test_rules_6_example_3_drawn_between_button_and_small_blind_sits_out() -> None:
    # T1's next hand: BTN s3, SB s5 (prevBB), BB s6; s4 is the only free seat.
    t1 = _table(1, 9, [1, 2, 3, 5, 6, 7, 8, 9], Blinds(2, 3, 5))
    t2 = _table(2, 9, [4], None)
    for not_dealt in ("between_btn_sb", "sb_or_btn_seat"):
        result = plan_table_break([t1, t2], 2, random.Random(1), not_dealt)
        assert [(s.to_table, s.to_seat, s.sits_out) for s in result.seats] == [(1, 4, True)]


def test_break_spreads_over_the_smallest_tables_and_respects_free_seats() -> None:
    t1 = _table(1, 9, range(1, 9), Blinds(1, 2, 3))  # 8, one free seat
    t2 = _table(2, 9, range(1, 4), Blinds(1, 2, 3))  # 3
    t3 = _table(3, 9, range(1, 6), Blinds(1, 2, 3))  # 5
    t4 = _table(4, 9, range(1, 6), Blinds(1, 2, 3), unavailable=frozenset(range(7, 10)))  # 5 + 1
    t5 = _table(5, 9, range(1, 8), Blinds(1, 2, 3))  # breaks: 7 players
    result = plan_table_break([t1, t2, t3, t4, t5], 5, random.Random(2))
    assert Counter(s.to_table for s in result.seats) == {2: 4, 3: 2, 4: 1}
    with pytest.raises(ValueError, match="free seats"):
        plan_table_break([_full(1, 9), t5], 5, random.Random(2))


def test_floor_plan_skips_a_break_the_others_cannot_seat() -> None:
    # Rimóc thresholds say 1 table for 10 players, but a 9-seat table cannot hold them.
    tables = [_table(1, 9, range(1, 6), Blinds(1, 2, 3)), _table(2, 9, range(1, 6))]
    plan = floor_plan(tables, _rules(seating=RIMOC), False, None, 9, random.Random(1))
    assert plan.breaks == ()


def test_floor_plan_breaks_several_tables_without_moving_anyone_twice() -> None:
    tables = [
        _table(1, 9, range(1, 8), Blinds(1, 2, 3)),
        _table(2, 9, range(1, 8), Blinds(1, 2, 3)),
        _table(3, 9, range(1, 3), Blinds(1, 1, 2)),
        _table(4, 9, range(1, 3), Blinds(1, 1, 2)),
    ]  # 18 players: 2 tables
    rules = _rules(break_order="fixed_list", break_tiebreak="lowest_first")
    plan = floor_plan(tables, rules, True, None, 9, random.Random(5))
    assert [b.table for b in plan.breaks] == [1, 2]
    moved = [s.entry_id for b in plan.breaks for s in b.seats]
    assert len(moved) == len(set(moved)) == 14
    assert {s.to_table for b in plan.breaks for s in b.seats} == {3, 4}
    assert plan.moves == ()


# --- final table (docs/rules.md §7) -------------------------------------------------------


def _check_final(plan: FloorPlan, tables: Sequence[FloorTable], host: int, seats: int) -> None:
    final = plan.final_table
    assert final is not None
    assert plan.moves == () and plan.breaks == ()
    assert final.table == host
    entries = sorted(e for t in tables for e in t.occupied.values())
    assert sorted(s.entry_id for s in final.seats) == entries
    new_seats = [s.to_seat for s in final.seats]
    assert len(set(new_seats)) == len(new_seats)
    assert all(1 <= s <= seats for s in new_seats)
    assert all(not s.sits_out and s.to_table == host for s in final.seats)
    assert sorted(seat for seat, _ in final.button_cards) == sorted(new_seats)
    assert final.button_seat == max(final.button_cards, key=lambda sc: sc[1].sort_key)[0]
    cards = [s.card for s in final.seats]
    assert cards == sorted(cards, reverse=True)


def test_rules_7_example_1_nine_max_redraw_at_nine() -> None:
    tables = [
        _table(1, 9, range(1, 6), Blinds(1, 2, 3)),
        _table(2, 9, range(1, 6), Blinds(1, 2, 3)),
    ]
    assert floor_plan(tables, _rules(), True, 1, 9, random.Random(1)) == FloorPlan()
    busted = [tables[0], _table(2, 9, range(1, 5), Blinds(1, 2, 3))]
    plan = floor_plan(busted, _rules(), True, 2, 9, random.Random(1))
    _check_final(plan, busted, 2, 9)
    assert len(plan.final_table.seats) == 9


def test_rules_7_example_2_doyle_final_table_at_ten() -> None:
    tables = [_table(1, 10, range(1, 6), Blinds(1, 2, 3)), _table(2, 10, range(1, 6))]
    rules = _rules(final_table_size=10, seating=TEN_MAX)
    plan = floor_plan(tables, rules, True, None, 10, random.Random(2))
    _check_final(plan, tables, 1, 10)
    assert len(plan.final_table.seats) == 10


def test_rules_7_example_3_six_max_seven_handed_final() -> None:
    rules = _rules(final_table_size=7, seating=SIX_MAX)
    tables = [
        _table(1, 6, range(1, 5), Blinds(1, 2, 3)),
        _table(2, 6, range(1, 5), Blinds(1, 2, 3)),
    ]
    assert tables_wanted(8, True, rules) == 2
    assert floor_plan(tables, rules, True, 1, 7, random.Random(1)) == FloorPlan()
    busted = [tables[0], _table(2, 6, range(1, 4), Blinds(1, 2, 3))]
    plan = floor_plan(busted, rules, True, 1, 7, random.Random(1))
    _check_final(plan, busted, 1, 7)
    assert len(plan.final_table.seats) == 7


def test_final_table_without_redraw_breaks_down_to_one_table() -> None:
    tables = [
        _table(1, 9, range(1, 6), Blinds(1, 2, 3)),
        _table(2, 9, range(1, 5), Blinds(1, 2, 3)),
    ]
    plan = floor_plan(tables, _rules(ft_redraw=False), True, None, 9, random.Random(1))
    assert plan.final_table is None
    assert [b.table for b in plan.breaks] == [2]


def test_plan_final_table_skips_unavailable_seats_and_checks_room() -> None:
    host = _table(1, 10, range(1, 5), unavailable=frozenset({2, 7}))
    other = _table(2, 10, range(1, 5))
    for seed in range(20):
        final = plan_final_table([host, other], 1, 10, random.Random(seed))
        assert {s.to_seat for s in final.seats} == {1, 3, 4, 5, 6, 8, 9, 10}
    with pytest.raises(ValueError):
        plan_final_table([host, other], 1, 9, random.Random(1))
    with pytest.raises(ValueError):
        plan_final_table([host, other], 3, 10, random.Random(1))


def test_final_table_seats_are_uniform() -> None:
    tables = [_table(1, 9, [1, 2]), _table(2, 9, [5])]
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


@st.composite
def _table_states(
    draw: st.DrawFn, seats: int | None = None, messy: bool = True
) -> list[FloorTable]:
    """2..12 tables after a hand: blinds from a real deal, then some busts.

    `messy` adds blocked seats, unknown buttons and pending unnamed leavers; `seats` fixes
    the table size (otherwise 2..10 per table).
    """
    tables = []
    for number in range(1, draw(st.integers(2, 12)) + 1):
        size = seats if seats is not None else draw(st.integers(2, 10))
        at_hand = draw(st.sets(st.integers(1, size), max_size=size))
        blinds = None
        if len(at_hand) >= 2 and (not messy or draw(st.integers(0, 4)) > 0):
            blinds = first_hand_blinds(draw(st.sampled_from(sorted(at_hand))), at_hand, size)
            for _ in range(draw(st.integers(0, 3))):
                blinds = next_hand_blinds(blinds, at_hand, size)
        busted = draw(st.sets(st.sampled_from(sorted(at_hand)))) if at_hand else set()
        now = at_hand - busted
        blocked = frozenset()
        leaving = 0
        if messy:
            blocked = frozenset(draw(st.sets(st.integers(1, size), max_size=2))) - now
            if blinds is None and now:
                leaving = draw(st.integers(0, len(now)))
        tables.append(_table(number, size, now, blinds, unavailable=blocked, leaving=leaving))
    return tables


_ORDERS = st.sampled_from(["lowest_first", "highest_first", "random"])


def _bb_wait(blinds: Blinds, seated: frozenset[int], seats: int, seat: int) -> int:
    """Hands until `seat` posts the BB, by dealing hand after hand (0 = next hand)."""
    for hand in range(len(seated) + 1):
        blinds = next_hand_blinds(blinds, seated, seats)
        if blinds.big_blind == seat:
            return hand
    raise AssertionError(f"seat {seat} never posts the big blind")


@settings(max_examples=150, deadline=None)
@given(
    tables=_table_states(),
    threshold=st.integers(2, 4),
    order=_ORDERS,
    not_dealt=st.sampled_from(["between_btn_sb", "sb_or_btn_seat"]),
    seed=st.integers(0, 2**32),
)
def test_balance_invariants(
    tables: list[FloorTable], threshold: int, order: str, not_dealt: str, seed: int
) -> None:
    rules = _rules(balance_threshold=threshold, source_order=order, not_dealt=not_dealt)
    moves = plan_balance(tables, rules, random.Random(seed))

    # An independent model of the room: who sits where, who is on the way, who leaves unnamed.
    by_number = {t.number: t for t in tables}
    seated = {t.number: dict(t.occupied) for t in tables}
    arriving: dict[int, set[int]] = {t.number: set() for t in tables}
    leaving = {t.number: t.leaving for t in tables}

    def count(n: int) -> int:
        return len(seated[n]) - leaving[n] + len(arriving[n])

    def free(n: int) -> set[int]:
        t = by_number[n]
        return set(range(1, t.seats + 1)) - t.unavailable - set(seated[n]) - arriving[n]

    moved: set[int] = set()
    last_into: dict[int, int] = {}
    for index, move in enumerate(moves):
        source, dest = by_number[move.from_table], by_number[move.to_table]
        assert move.from_table != move.to_table
        assert count(source.number) == max(count(n) for n in by_number)
        receivers = [n for n in by_number if n != source.number and free(n)]
        assert count(dest.number) == min(count(n) for n in receivers)
        assert count(source.number) - count(dest.number) >= threshold

        if source.blinds is None:
            assert (move.entry_id, move.from_seat) == (None, None)
            leaving[source.number] += 1
            assert leaving[source.number] <= len(seated[source.number])
        else:
            players = seated[source.number]
            expected = (
                next(iter(players))
                if len(players) == 1
                else next_big_blind_seat(source.blinds, players, source.seats)
            )
            assert move.from_seat == expected
            assert move.entry_id == players.pop(expected)
            assert move.entry_id not in moved
            moved.add(move.entry_id)

        options = free(dest.number)
        assert move.to_seat in options
        if dest.blinds is None:
            assert move.wait_hands is None and not move.sits_out
        else:
            prev_bb = dest.blinds.big_blind
            if move.to_seat == prev_bb:
                assert options == {prev_bb}
            here = frozenset(seated[dest.number]) | arriving[dest.number]
            if here:
                wait = _bb_wait(dest.blinds, here | {move.to_seat}, dest.seats, move.to_seat)
                assert move.wait_hands == wait
                for other in options - {prev_bb, move.to_seat}:
                    assert _bb_wait(dest.blinds, here | {other}, dest.seats, other) >= wait
        arriving[dest.number].add(move.to_seat)
        last_into[dest.number] = index

    # Stopped for a reason: no table with a free seat is `threshold` short of the largest.
    largest = max(count(n) for n in by_number)
    assert not [n for n in by_number if free(n) and count(n) <= largest - threshold]
    # Nobody lost or duplicated.
    before = Counter(e for t in tables for e in t.occupied.values())
    after = Counter(e for players in seated.values() for e in players.values())
    after.update(m.entry_id for m in moves if m.entry_id is not None)
    assert after == before


def _entries(tables: Iterable[FloorTable]) -> Counter:
    return Counter(e for t in tables for e in t.occupied.values())


@settings(max_examples=150, deadline=None)
@given(
    data=st.data(),
    seats=st.integers(2, 10),
    multi=st.booleans(),
    threshold=st.integers(2, 4),
    break_order=st.sampled_from(["fewest_players", "fixed_list", "random"]),
    tiebreak=_ORDERS,
    seed=st.integers(0, 2**32),
)
def test_floor_plan_invariants(
    data: st.DataObject,
    seats: int,
    multi: bool,
    threshold: int,
    break_order: str,
    tiebreak: str,
    seed: int,
) -> None:
    tables = data.draw(_table_states(seats=seats, messy=False))
    final_size = data.draw(st.integers(2, seats))
    rules = _rules(
        balance_threshold=threshold,
        break_order=break_order,
        break_tiebreak=tiebreak,
        final_table_size=final_size,
        seating=SeatingRules(None, seats, seats),
    )
    players = sum(t.count for t in tables)
    plan = floor_plan(tables, rules, multi, None, seats, random.Random(seed))

    if multi and players <= final_size:
        if players:
            _check_final(plan, tables, 1, seats)
        else:
            assert plan == FloorPlan()
        return
    assert plan.final_table is None
    wanted = tables_wanted(players, multi, rules)
    assert len(tables) - len(plan.breaks) == max(1, min(len(tables), wanted))

    # Replay the breaks, then the moves, on a plain model of the room.
    by_number = {t.number: t for t in tables}
    seated = {t.number: dict(t.occupied) for t in tables}
    broken = {b.table for b in plan.breaks}
    for result in plan.breaks:
        drawn = seated.pop(result.table)
        assert sorted(s.entry_id for s in result.seats) == sorted(drawn.values())
        assert sorted(result.seat_pool) == sorted((s.to_table, s.to_seat) for s in result.seats)
        assert list(result.seat_pool) == sorted(result.seat_pool)
        cards = [s.card for s in result.seats]
        assert cards == sorted(cards, reverse=True) and len(set(cards)) == len(cards)
        counts = {n: len(p) for n, p in seated.items()}
        for s in result.seats:
            assert s.to_table not in broken
            assert s.to_seat not in seated[s.to_table]
            assert 1 <= s.to_seat <= by_number[s.to_table].seats
            seated[s.to_table][s.to_seat] = s.entry_id
        # Even spread: a table that received is at most 1 above any surviving table with room.
        got = {s.to_table for s in result.seats}
        with_room = [n for n in seated if n not in broken and len(seated[n]) < by_number[n].seats]
        for n in got:
            assert all(len(seated[n]) <= len(seated[m]) + 1 for m in with_room)
        assert sum(len(p) for p in seated.values()) == sum(counts.values()) + len(drawn)
    drawn_in = {s.entry_id for b in plan.breaks for s in b.seats}
    for move in plan.moves:
        assert move.entry_id not in drawn_in
        assert seated[move.from_table].pop(move.from_seat) == move.entry_id
        assert move.to_seat not in seated[move.to_table]
        seated[move.to_table][move.to_seat] = move.entry_id
    assert Counter(e for p in seated.values() for e in p.values()) == _entries(tables)
    counts = [len(p) for p in seated.values()]
    assert max(counts) - min(counts) < threshold
    assert plan.halted <= set(seated)
