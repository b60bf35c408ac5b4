"""Table count, seat draw and button draw: docs/rules.md §3 (late seats in
test_domain_late_seats.py)."""

import itertools
import math
import random
from collections import Counter

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from tables.domain.cards import Card
from tables.domain.seating import (
    SeatDraw,
    SeatingError,
    SeatingRules,
    TableSpec,
    _shuffle,
    button_from_cards,
    draw_button,
    draw_seats,
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
