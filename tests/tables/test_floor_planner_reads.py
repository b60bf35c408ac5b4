"""The planner reads in full only the tables a plan touches (tables/domain/floor.py,
`floor_plan_counts`). `floor_plan`, which every planner test and property in
test_domain_floor.py calls, is the same function with every table at hand."""

import random

from tables.domain.button import first_hand_blinds
from tables.domain.floor import floor_plan_counts
from tables.domain.floor_field import FloorRules, FloorTable, table_count
from tests.tables.floor_tables import floor_rules

RULES = floor_rules(break_tiebreak="highest_first")


def table(number: int, players: int, seats: int = 10) -> FloorTable:
    occupied = {s: 100 * number + s for s in range(1, players + 1)}
    return FloorTable(number, seats, occupied, blinds=first_hand_blinds(1, occupied, seats))


def plan_reading(tables: list[FloorTable], rules: FloorRules = RULES, seed: int = 1):
    by_number = {t.number: t for t in tables}
    read: list[int] = []

    def load(numbers):
        read.extend(numbers)
        return {n: by_number[n] for n in numbers}

    plan = floor_plan_counts(
        [table_count(t) for t in tables], load, rules, True, None, 9, random.Random(seed)
    )
    return plan, read


def test_a_balancing_move_reads_its_source_and_destination_only():
    """100 tables of 9 (897 players want all 100), table 50 down to 6: one move, from table 1
    (lowest first) to table 50."""
    tables = [table(n, 6 if n == 50 else 9) for n in range(1, 101)]
    plan, read = plan_reading(tables)
    assert [(m.from_table, m.to_table) for m in plan.moves] == [(1, 50)]
    assert sorted(read) == [1, 50]


def test_a_break_reads_the_broken_table_and_the_tables_it_fills():
    """89 tables of 9 and 11 of 2: 823 players want 92 tables. The planner breaks 8 of the
    small tables and reads just them and the tables that receive their players."""
    tables = [table(n, 9 if n <= 89 else 2) for n in range(1, 101)]
    plan, read = plan_reading(tables)
    broken = {b.table for b in plan.breaks}
    receiving = {s.to_table for b in plan.breaks for s in b.seats}
    assert broken and set(read) == broken | receiving
    assert len(read) < 40
