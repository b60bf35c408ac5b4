"""Planner invariants under hypothesis: balancing, breaking, the final table (docs/rules.md
§5, §6, §7)."""

import random
from collections import Counter
from collections.abc import Iterable

from hypothesis import given, settings
from hypothesis import strategies as st

from tables.domain.balancing import plan_balance
from tables.domain.button import Blinds, first_hand_blinds, next_big_blind_seat, next_hand_blinds
from tables.domain.floor import floor_plan
from tables.domain.floor_field import FloorPlan, FloorTable, tables_wanted
from tables.domain.seating import SeatingRules
from tests.tables.floor_tables import (
    check_final_table,
    floor_rules,
    seated_table,
)


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
        tables.append(seated_table(number, size, now, blinds, unavailable=blocked, leaving=leaving))
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
    rules = floor_rules(balance_threshold=threshold, source_order=order, not_dealt=not_dealt)
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
    rules = floor_rules(
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
            check_final_table(plan, tables, 1, seats)
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
