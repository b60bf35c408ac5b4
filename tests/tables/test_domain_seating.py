"""Table count, seat draw, button draw and late seats: docs/rules.md §3."""

import ast
import itertools
import math
import random
from collections import Counter
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

import tables.domain
from tables.domain.button import Blinds, seats_not_dealt
from tables.domain.cards import Card
from tables.domain.seating import (
    LateSeat,
    LateTable,
    PendingArrival,
    PendingMove,
    SeatDraw,
    SeatingError,
    SeatingRules,
    TableSpec,
    _shuffle,
    button_from_cards,
    choose_called_off,
    choose_late_place,
    choose_late_seat,
    draw_button,
    draw_seats,
    held_by_moves,
    pending_arrivals,
    tables_needed,
)

RIMOC_TABLES = SeatingRules(table_thresholds=(10, 18, 27), seats_per_table=9, single_table_seats=10)
BY_SIZE = SeatingRules(table_thresholds=None, seats_per_table=9, single_table_seats=10)


def _nine_seat_tables(count: int) -> list[TableSpec]:
    return [TableSpec(number, 9) for number in range(1, count + 1)]


def _counts(draw: SeatDraw) -> list[int]:
    return sorted(draw.table_counts.values(), reverse=True)


# --- tables_needed ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "tables"),
    [(0, 0), (1, 1), (10, 1), (11, 2), (18, 2), (19, 3), (27, 3), (28, 4), (36, 4), (37, 5)],
)
def test_tables_needed_with_house_thresholds(players: int, tables: int) -> None:
    assert tables_needed(players, RIMOC_TABLES) == tables


@pytest.mark.parametrize(("players", "tables"), [(0, 0), (2, 1), (10, 1), (11, 2), (19, 3)])
def test_tables_needed_by_table_size(players: int, tables: int) -> None:
    assert tables_needed(players, BY_SIZE) == tables


def test_tables_needed_above_the_last_threshold_never_drops_below_its_table_count() -> None:
    wide = SeatingRules(table_thresholds=(10, 18), seats_per_table=10, single_table_seats=10)
    assert tables_needed(19, wide) == 3  # ceil(19 / 10) would say 2


@pytest.mark.parametrize("thresholds", [(), (0, 5), (10, 10), (18, 10)])
def test_bad_thresholds_are_rejected(thresholds: tuple[int, ...]) -> None:
    with pytest.raises(ValueError):
        SeatingRules(table_thresholds=thresholds, seats_per_table=9, single_table_seats=10)


def test_negative_players_is_an_error() -> None:
    with pytest.raises(ValueError):
        tables_needed(-1, RIMOC_TABLES)


# --- draw_seats: docs/rules.md §3.6 examples and errors ------------------------------------------


@pytest.mark.parametrize(
    ("players", "expected"), [(17, [9, 8]), (23, [8, 8, 7]), (28, [7, 7, 7, 7])]
)
def test_rules_example_table_counts(players: int, expected: list[int]) -> None:
    draw = draw_seats(range(players), _nine_seat_tables(6), RIMOC_TABLES, random.Random(players))
    assert _counts(draw) == expected
    assert list(draw.table_counts) == list(range(1, len(expected) + 1))  # opening order


def test_zero_players_draws_nothing() -> None:
    assert draw_seats([], _nine_seat_tables(2), RIMOC_TABLES, random.Random(0)) == SeatDraw((), {})


def test_ten_players_fit_one_ten_seat_table() -> None:
    tables = [TableSpec(1, 10), TableSpec(2, 9)]
    draw = draw_seats(range(10), tables, RIMOC_TABLES, random.Random(0))
    assert draw.table_counts == {1: 10}


def test_more_tables_open_when_blocked_seats_leave_too_little_room() -> None:
    tables = [TableSpec(1, 9, frozenset({1, 2, 3, 4, 5})), TableSpec(2, 9), TableSpec(3, 9)]
    draw = draw_seats(range(17), tables, RIMOC_TABLES, random.Random(1))
    assert draw.table_counts[1] == 4  # capped by its 4 available seats
    assert sorted([draw.table_counts[2], draw.table_counts[3]]) == [6, 7]


def test_a_table_with_no_available_seat_is_skipped() -> None:
    tables = [TableSpec(1, 9, frozenset(range(1, 10))), TableSpec(2, 9), TableSpec(3, 9)]
    draw = draw_seats(range(12), tables, RIMOC_TABLES, random.Random(1))
    assert draw.table_counts == {2: 6, 3: 6}


def test_errors_have_codes() -> None:
    rng = random.Random(0)
    with pytest.raises(SeatingError) as error:
        draw_seats(range(19), _nine_seat_tables(2), RIMOC_TABLES, rng)
    assert error.value.code == "not_enough_seats"
    with pytest.raises(SeatingError) as error:
        draw_seats(range(19), [TableSpec(1, 10), TableSpec(2, 10)], RIMOC_TABLES, rng)
    assert error.value.code == "not_enough_tables"
    with pytest.raises(SeatingError) as error:
        draw_seats([1, 2, 2], _nine_seat_tables(1), RIMOC_TABLES, rng)
    assert error.value.code == "duplicate_entry"
    with pytest.raises(SeatingError) as error:
        draw_seats([1, 2], [TableSpec(1, 9), TableSpec(1, 9)], RIMOC_TABLES, rng)
    assert error.value.code == "duplicate_table"
    assert isinstance(error.value, ValueError)


def test_large_field_uses_every_table_evenly() -> None:
    draw = draw_seats(range(25_000), _nine_seat_tables(2_778), RIMOC_TABLES, random.SystemRandom())
    assert len(draw.assignments) == 25_000
    assert len({(a.table_number, a.seat) for a in draw.assignments}) == 25_000
    assert Counter(draw.table_counts.values()) == {9: 2_776, 8: 2}


def test_assignments_are_ordered_by_table_then_seat() -> None:
    draw = draw_seats(range(40), _nine_seat_tables(6), RIMOC_TABLES, random.Random(3))
    order = [(a.table_number, a.seat) for a in draw.assignments]
    assert order == sorted(order)


# --- draw_seats: properties ------------------------------------------------------------------


@st.composite
def _seating_case(draw: st.DrawFn) -> tuple[list[int], list[TableSpec], SeatingRules, int]:
    rules = draw(
        st.sampled_from(
            [
                RIMOC_TABLES,
                BY_SIZE,
                SeatingRules(table_thresholds=(6, 12), seats_per_table=6, single_table_seats=6),
                SeatingRules(table_thresholds=None, seats_per_table=4, single_table_seats=5),
            ]
        )
    )
    table_specs = []
    for number in draw(st.lists(st.integers(1, 99), min_size=1, max_size=8, unique=True)):
        seats = draw(st.integers(2, 10))
        blocked = draw(st.sets(st.integers(1, seats), max_size=seats // 2))
        table_specs.append(TableSpec(number, seats, frozenset(blocked)))
    capacity = sum(len(t.available_seats) for t in table_specs)
    seed = draw(st.integers(0, 2**32))
    # Entry ids are arbitrary distinct ints; the count is what drives the interesting cases.
    players = random.Random(seed).sample(range(1, 10**9), draw(st.integers(1, capacity + 3)))
    return players, table_specs, rules, seed


@settings(max_examples=200)
@given(_seating_case())
def test_draw_seats_properties(case: tuple[list[int], list[TableSpec], SeatingRules, int]) -> None:
    players, table_specs, rules, seed = case
    usable = [t for t in table_specs if t.available_seats]
    capacity = sum(len(t.available_seats) for t in usable)
    needed = tables_needed(len(players), rules)
    try:
        draw = draw_seats(players, table_specs, rules, random.Random(seed))
    except SeatingError as error:
        event(f"error {error.code}")
        if error.code == "not_enough_seats":
            assert capacity < len(players)
        else:
            assert error.code == "not_enough_tables"
            assert needed > len(usable)
        return

    by_number = {t.number: t for t in table_specs}
    assert sorted(a.entry_id for a in draw.assignments) == sorted(players)
    places = [(a.table_number, a.seat) for a in draw.assignments]
    assert len(set(places)) == len(places)
    for table_number, seat in places:
        assert seat in by_number[table_number].available_seats
        assert 1 <= seat <= by_number[table_number].seats
    assert Counter(number for number, _ in places) == Counter(draw.table_counts)

    # The tables used are the first k usable ones, in opening order.
    used = list(draw.table_counts)
    assert used == [t.number for t in usable[: len(used)]]
    assert all(count >= 1 for count in draw.table_counts.values())
    event(f"tables used: {min(len(used), 3)}+" if len(used) >= 3 else f"tables used: {len(used)}")
    if sum(len(t.available_seats) for t in usable[:needed]) >= len(players):
        assert len(used) == needed
    else:
        event("more tables than tables_needed")
        assert len(used) > needed
        assert sum(len(t.available_seats) for t in usable[: len(used) - 1]) < len(players)
    # As even as capacity allows: a table may trail another by 2+ only when it is full.
    for a, b in itertools.permutations(used, 2):
        if draw.table_counts[a] > draw.table_counts[b] + 1:
            assert draw.table_counts[b] == len(by_number[b].available_seats)
    capacities = {len(by_number[number].available_seats) for number in used}
    if len(capacities) == 1:
        assert max(draw.table_counts.values()) - min(draw.table_counts.values()) <= 1


def test_same_seed_same_draw() -> None:
    tables = _nine_seat_tables(3)
    first = draw_seats(range(23), tables, RIMOC_TABLES, random.Random(42))
    assert draw_seats(range(23), tables, RIMOC_TABLES, random.Random(42)) == first


# --- draw_seats: uniformity ------------------------------------------------------------------


def _seat_frequencies(tables: list[TableSpec], players: int, draws: int) -> Counter[tuple]:
    rng = random.Random(20240601)
    found: Counter[tuple[int, int]] = Counter()
    for _ in range(draws):
        draw = draw_seats(range(players), tables, RIMOC_TABLES, rng)
        found.update((a.table_number, a.seat) for a in draw.assignments if a.entry_id == 0)
    return found


def test_a_players_seat_is_uniform_over_equal_tables() -> None:
    tables = _nine_seat_tables(2)
    found = _seat_frequencies(tables, players=13, draws=20_000)
    cells = [(t.number, s) for t in tables for s in t.available_seats]
    assert set(found) == set(cells)
    assert chisquare([found[cell] for cell in cells]).pvalue > 0.001


def test_a_players_seat_with_a_blocked_seat_follows_even_counts() -> None:
    # 13 players on 9 + 8 available seats: counts are 7/6 either way round, so each table holds
    # the player half the time, spread evenly over that table's own available seats.
    tables = [TableSpec(1, 9), TableSpec(2, 9, frozenset({4}))]
    draws = 20_000
    found = _seat_frequencies(tables, players=13, draws=draws)
    cells = [(t.number, s) for t in tables for s in t.available_seats]
    assert set(found) == set(cells)
    expected = [draws * 0.5 / len(tables[number - 1].available_seats) for number, _ in cells]
    assert chisquare([found[cell] for cell in cells], expected).pvalue > 0.001


def test_shuffle_gives_every_permutation_equally_often() -> None:
    rng = random.Random(7)
    found: Counter[tuple[int, ...]] = Counter()
    for _ in range(24_000):
        items = [0, 1, 2, 3]
        _shuffle(items, rng)
        found[tuple(items)] += 1
    assert len(found) == math.factorial(4)
    assert chisquare(list(found.values())).pvalue > 0.001


# --- button draw -----------------------------------------------------------------------------


def test_rules_example_2_ace_of_spades_beats_ace_of_diamonds() -> None:
    cards = [(3, Card.from_code("Ad")), (7, Card.from_code("As")), (5, Card.from_code("Kh"))]
    assert button_from_cards(cards) == 7


def test_button_from_cards_rejects_nothing_or_duplicates() -> None:
    with pytest.raises(ValueError):
        button_from_cards([])
    with pytest.raises(ValueError):
        button_from_cards([(1, Card(14, "s")), (2, Card(14, "s"))])


def test_draw_button_deals_one_distinct_card_per_seat_in_seat_order() -> None:
    result = draw_button([8, 2, 5, 9], random.Random(5))
    assert [seat for seat, _ in result.cards] == [2, 5, 8, 9]
    assert len({card for _, card in result.cards}) == 4
    assert result.button_seat == button_from_cards(result.cards)
    assert result.button_seat == max(result.cards, key=lambda pair: pair[1])[0]


def test_draw_button_is_uniform_over_seats() -> None:
    rng = random.Random(11)
    found = Counter(draw_button([1, 3, 4, 9], rng).button_seat for _ in range(8_000))
    assert chisquare([found[seat] for seat in (1, 3, 4, 9)]).pvalue > 0.001


@pytest.mark.parametrize("seats", [[], [1, 1], [0, 2], list(range(1, 54))])
def test_draw_button_rejects_bad_seat_lists(seats: list[int]) -> None:
    with pytest.raises(ValueError):
        draw_button(seats, random.Random(0))


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
