"""Late seats and the seats pending moves hold: docs/rules.md §3.4."""

import ast
import itertools
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

from hypothesis import event, given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

import tables.domain
from tables.domain.button import Blinds, seats_not_dealt
from tables.domain.seating import (
    LateSeat,
    LateTable,
    PendingArrival,
    PendingMove,
    choose_called_off,
    choose_late_place,
    choose_late_seat,
    held_by_moves,
    pending_arrivals,
)

# --- late seats ------------------------------------------------------------------------------


def test_late_seat_goes_to_the_table_with_fewest_players() -> None:
    tables = [
        LateTable(1, 9, occupied=frozenset({1, 2, 3, 4, 5, 6, 7})),
        LateTable(2, 9, occupied=frozenset({1, 2, 3, 4, 5, 6})),
    ]
    for seed in range(20):
        seat = choose_late_seat(tables, random.Random(seed))
        assert seat is not None
        assert seat.table_number == 2
        assert seat.seat in {7, 8, 9}
        assert not seat.waits_for_button


def test_late_seat_avoids_rules_example_4_dead_zone() -> None:
    # BTN s2, SB s5 with s3 and s4 empty: a newcomer there would sit out the hand.
    table = LateTable(1, 9, occupied=frozenset({1, 2, 5, 6, 7, 8}), blinds=Blinds(2, 5, 6))
    seen = {choose_late_seat([table], random.Random(seed)).seat for seed in range(50)}  # type: ignore[union-attr]
    assert seen == {9}


def test_late_seat_widens_to_next_fewest_table_before_a_dead_seat() -> None:
    dead_only = LateTable(1, 9, occupied=frozenset({1, 2, 5, 6, 7, 8, 9}), blinds=Blinds(2, 5, 6))
    fuller = LateTable(2, 9, occupied=frozenset(range(1, 9)), blinds=Blinds(1, 2, 3))
    seat = choose_late_seat([dead_only, fuller], random.Random(0))
    assert seat == LateSeat(2, 9, waits_for_button=False)


def test_late_seat_waits_for_button_only_when_every_free_seat_is_dead() -> None:
    dead_only = LateTable(1, 9, occupied=frozenset({1, 2, 5, 6, 7, 8, 9}), blinds=Blinds(2, 5, 6))
    full = LateTable(2, 9, occupied=frozenset(range(1, 10)))
    seat = choose_late_seat([full, dead_only], random.Random(0))
    assert seat is not None
    assert seat.table_number == 1
    assert seat.seat in {3, 4}
    assert seat.waits_for_button


def test_late_seat_none_when_everything_is_full_or_blocked() -> None:
    tables = [
        LateTable(1, 9, occupied=frozenset(range(1, 10))),
        LateTable(2, 9, unavailable_seats=frozenset({8, 9}), occupied=frozenset(range(1, 8))),
    ]
    assert choose_late_seat(tables, random.Random(0)) is None
    assert choose_late_seat([], random.Random(0)) is None


def test_late_seat_is_uniform_over_the_free_seats_of_the_fewest_tables() -> None:
    tables = [
        LateTable(1, 9, occupied=frozenset({1, 2, 3, 4, 5, 6})),
        LateTable(2, 9, frozenset({9}), occupied=frozenset({2, 4, 6, 8, 1, 3})),
        LateTable(3, 9, occupied=frozenset({1, 2, 3, 4, 5, 6, 7})),
    ]
    rng = random.Random(3)
    found = Counter()
    for _ in range(5_000):
        seat = choose_late_seat(tables, rng)
        assert seat is not None
        found[(seat.table_number, seat.seat)] += 1
    cells = [(1, 7), (1, 8), (1, 9), (2, 5), (2, 7)]
    assert set(found) == set(cells)
    assert chisquare([found[cell] for cell in cells]).pvalue > 0.001


@st.composite
def _late_tables(draw: st.DrawFn) -> list[LateTable]:
    result = []
    for number in range(1, draw(st.integers(1, 4)) + 1):
        seats = draw(st.integers(2, 10))
        blocked = frozenset(draw(st.sets(st.integers(1, seats), max_size=2)))
        occupied = frozenset(draw(st.sets(st.integers(1, seats), min_size=seats // 2)))
        blinds = None
        if len(occupied) >= 2 and draw(st.booleans()):
            # Any dead-button layout: a button (maybe on an empty seat), then a small blind some
            # seats later (or none posted), then the big blind on the next player.
            button = draw(st.integers(1, seats))
            small_blind = draw(st.sampled_from(sorted(occupied - {button})))
            after = itertools.chain(range(small_blind + 1, seats + 1), range(1, small_blind))
            big_blind = next((s for s in after if s in occupied and s != button), None)
            if big_blind is not None:
                posted = draw(st.booleans())
                blinds = Blinds(button, small_blind if posted else None, big_blind)
        result.append(LateTable(number, seats, blocked - occupied, occupied, blinds))
    return result


@settings(max_examples=200)
@given(_late_tables(), st.integers(0, 2**32))
def test_late_seat_properties(tables: list[LateTable], seed: int) -> None:
    def free(table: LateTable) -> set[int]:
        return set(range(1, table.seats + 1)) - table.unavailable_seats - table.occupied

    def dead(table: LateTable) -> frozenset[int]:
        return seats_not_dealt(table.blinds, table.seats) if table.blinds else frozenset()

    seat = choose_late_seat(tables, random.Random(seed))
    with_free = [t for t in tables if free(t)]
    if not with_free:
        event("no free seat")
        assert seat is None
        return
    assert seat is not None
    chosen = next(t for t in tables if t.number == seat.table_number)
    assert seat.seat in free(chosen)
    assert seat.waits_for_button == (seat.seat in dead(chosen))
    with_live = [t for t in with_free if free(t) - dead(t)]
    if any(free(t) & dead(t) for t in tables):
        event("some free seat is not dealt in")
    if with_live:
        event("dealt-in seat")
        assert not seat.waits_for_button
        assert len(chosen.occupied) == min(len(t.occupied) for t in with_live)
    else:
        event("waits for button")
        assert seat.waits_for_button
        assert len(chosen.occupied) == min(len(t.occupied) for t in with_free)


# --- seats pending moves hold (docs/rules.md §3.4) --------------------------------------------


def test_a_pending_move_holds_the_seat_its_named_mover_leaves_and_the_one_promised_unnamed():
    moves = [
        PendingMove(entry_id=7, from_table=2, from_seat=4, to_table=1, to_seat=9),
        PendingMove(entry_id=None, from_table=3, from_seat=None, to_table=1, to_seat=2),
    ]
    # Entry 7 is charted at table 1 seat 9 already (he holds it as a seated player).
    assert held_by_moves(moves) == {2: {4}, 1: {2}}


def test_a_late_seat_is_never_one_a_pending_move_holds():
    """Table 2: seat 3 looks empty, but its mover (charted at table 1 seat 5) has not got up:
    the newcomer gets table 2 seat 6, the only seat really free."""
    tables = [
        LateTable(1, 6, occupied=frozenset({1, 2, 3, 4, 5, 6})),
        LateTable(2, 6, occupied=frozenset({1, 2, 4, 5})),
    ]
    move = PendingMove(11, 2, 3, 1, 5, move_id=40, balancing=True)
    for seed in range(20):
        assert choose_late_place(tables, [move], random.Random(seed)) == LateSeat(2, 6, False)


def test_with_no_seat_free_a_balancing_move_is_called_off_for_the_newcomer():
    """Every seat is taken or held; two balancing moves are pending, out of table 2 (4
    players) and out of table 3 (5): the newcomer takes the seat promised by the move out of
    the table with fewer players, whose mover stays; a break's move is never called off."""
    tables = [
        LateTable(1, 3, occupied=frozenset({1, 2, 3})),
        LateTable(2, 5, occupied=frozenset({1, 2, 3, 4})),
        LateTable(3, 6, occupied=frozenset({1, 2, 3, 4, 5})),
    ]
    moves = [
        PendingMove(21, 2, 5, 1, 3, move_id=1, balancing=True),
        PendingMove(22, 3, 6, 1, 2, move_id=2, balancing=True),
        PendingMove(23, 9, 1, 1, 1, move_id=3, balancing=False),
    ]
    assert choose_late_place(tables, moves, random.Random(1)) == LateSeat(1, 3, False, 1)
    assert [a.move_id for a in pending_arrivals(tables, moves)] == [1, 2]
    parts_of_breaks = [replace(m, balancing=False) for m in moves]
    assert choose_late_place(tables, parts_of_breaks, random.Random(1)) is None


def test_a_move_whose_mover_the_chart_shows_elsewhere_is_not_called_off():
    """The move out of table 2 would be the one to call off, but its mover has been given
    another seat since (the chart no longer shows him in the seat it promised): calling it
    off would take him from that seat, so the newcomer gets the other move's seat."""
    tables = [
        LateTable(1, 3, occupied=frozenset({1, 2, 3})),
        LateTable(2, 5, occupied=frozenset({1, 2, 3, 4})),
        LateTable(3, 6, occupied=frozenset({1, 2, 3, 4, 5})),
    ]
    moves = [
        PendingMove(21, 2, 5, 1, 3, move_id=1, balancing=True, charted=False),
        PendingMove(22, 3, 6, 1, 2, move_id=2, balancing=True),
    ]
    assert [a.move_id for a in pending_arrivals(tables, moves)] == [2]
    assert choose_late_place(tables, moves, random.Random(1)) == LateSeat(1, 2, False, 2)


def test_a_called_off_seat_between_button_and_small_blind_comes_last():
    blinds = Blinds(button=1, small_blind=3, big_blind=4)  # seat 2 is not dealt in
    arrivals = [
        PendingArrival(1, 2, 4, 1, 2, 6, blinds),
        PendingArrival(2, 3, 4, 1, 5, 6, blinds),
    ]
    assert choose_called_off(arrivals, random.Random(0)) == LateSeat(1, 5, False, 2)
    assert choose_called_off(arrivals[:1], random.Random(0)) == LateSeat(1, 2, True, 1)


@st.composite
def _field_with_moves(draw: st.DrawFn) -> tuple[list[LateTable], list[PendingMove]]:
    """Tables and pending moves where no seat is held by two people: each named mover is
    charted at his new seat and still holds the one he leaves; each unnamed move holds the
    seat it promises."""
    tables: dict[int, tuple[int, set[int], set[int]]] = {}
    for number in range(1, draw(st.integers(2, 4)) + 1):
        seats = draw(st.integers(2, 6))
        blocked = draw(st.sets(st.integers(1, seats), max_size=1))
        occupied = draw(st.sets(st.integers(1, seats), max_size=seats)) - blocked
        tables[number] = (seats, blocked, occupied)
    held = {n: set() for n in tables}
    moves: list[PendingMove] = []
    for move_id in range(draw(st.integers(0, 6))):
        source, target = draw(st.permutations(sorted(tables)))[:2]
        seats_to, blocked_to, occupied_to = tables[target]
        seats_from, blocked_from, occupied_from = tables[source]
        empty_to = sorted(set(range(1, seats_to + 1)) - blocked_to - occupied_to - held[target])
        if not empty_to:
            continue
        to_seat = draw(st.sampled_from(empty_to))
        balancing = draw(st.booleans())
        empty_from = sorted(
            set(range(1, seats_from + 1)) - blocked_from - occupied_from - held[source]
        )
        if empty_from and draw(st.booleans()):
            from_seat = draw(st.sampled_from(empty_from))
            occupied_to.add(to_seat)  # the chart shows him there at once
            held[source].add(from_seat)
            moves.append(PendingMove(100 + move_id, source, from_seat, target, to_seat, move_id))
        else:
            held[target].add(to_seat)
            moves.append(PendingMove(None, source, None, target, to_seat, move_id))
        moves[-1] = replace(moves[-1], balancing=balancing)
    late = [
        LateTable(n, seats, frozenset(blocked), frozenset(occupied))
        for n, (seats, blocked, occupied) in tables.items()
    ]
    return late, moves


def _holders(tables: list[LateTable], moves: list[PendingMove]) -> list[tuple[int, int]]:
    """Every (table, seat) somebody is told, once per person told."""
    told = [(t.number, s) for t in tables for s in t.occupied]
    told += [(n, s) for n, seats in held_by_moves(moves).items() for s in seats]
    return told


@settings(max_examples=300)
@given(_field_with_moves(), st.integers(1, 8), st.integers(0, 2**32))
def test_newcomers_never_get_a_seat_somebody_else_is_told(field, newcomers, seed):
    """Across the chart and the pending moves no seat is ever told to two people, and a
    newcomer gets a seat whenever one is free or a balancing move can be called off."""
    tables, moves = field
    rng = random.Random(seed)
    for _ in range(newcomers):
        told = _holders(tables, moves)
        assert len(told) == len(set(told))
        seat = choose_late_place(tables, moves, rng)
        room = {
            (t.number, s)
            for t in tables
            for s in range(1, t.seats + 1)
            if s not in t.unavailable_seats
        } - set(told)
        if seat is None:
            assert not room and not pending_arrivals(tables, moves)
            event("no seat")
            return
        by_number = {t.number: t for t in tables}
        if seat.called_off is not None:
            event("a move called off")
            move = next(m for m in moves if m.move_id == seat.called_off)
            assert move.balancing and (move.to_table, move.to_seat) == (
                seat.table_number,
                seat.seat,
            )
            moves = [m for m in moves if m is not move]
            if move.entry_id is not None:  # the mover stays where he sits
                target, source = by_number[move.to_table], by_number[move.from_table]
                by_number[target.number] = replace(
                    target, occupied=target.occupied - {move.to_seat}
                )
                source = by_number[source.number]
                by_number[source.number] = replace(
                    source, occupied=source.occupied | {move.from_seat}
                )
        else:
            assert (seat.table_number, seat.seat) in room
        table = by_number[seat.table_number]
        assert seat.seat not in table.occupied and seat.seat not in table.unavailable_seats
        by_number[table.number] = replace(table, occupied=table.occupied | {seat.seat})
        tables = [by_number[t.number] for t in tables]
    told = _holders(tables, moves)
    assert len(told) == len(set(told))


# --- architecture ----------------------------------------------------------------------------


def test_domain_package_does_not_import_django() -> None:
    for path in Path(tables.domain.__file__).parent.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(name.split(".")[0] == "django" for name in names), path
