"""Balancing, breaking tables and the final table (docs/rules.md §5, §6, §7): the whole plan.

The floor planner looks at the tables after a hand and says who moves where: the final-table
draw (`tables.domain.final_table`), the table breaks (`tables.domain.breaking`), then balancing
(`tables.domain.balancing`), on the field of `tables.domain.floor_field`, whose names this
module also gives its readers.
"""

import random
from collections.abc import Sequence

from tables.domain.balancing import balance_field, plan_balance
from tables.domain.breaking import break_into, plan_table_break, table_to_break
from tables.domain.final_table import plan_final_table
from tables.domain.floor_field import (
    BreakOrder,
    DrawnSeat,
    FinalTableDraw,
    FloorPlan,
    FloorRules,
    FloorTable,
    Move,
    NotDealt,
    PlanField,
    TableBreak,
    TableCount,
    TableLoader,
    TableOrder,
    check_numbers,
    halted_among,
    halted_tables,
    loader_of,
    sits_out_at,
    table_count,
    tables_wanted,
    worst_seat,
)

__all__ = [
    "BreakOrder",
    "DrawnSeat",
    "FinalTableDraw",
    "FloorPlan",
    "FloorRules",
    "FloorTable",
    "Move",
    "NotDealt",
    "TableBreak",
    "TableCount",
    "TableLoader",
    "TableOrder",
    "floor_plan",
    "floor_plan_counts",
    "halted_tables",
    "plan_balance",
    "plan_final_table",
    "plan_table_break",
    "sits_out_at",
    "table_count",
    "table_to_break",
    "tables_wanted",
    "worst_seat",
]


def floor_plan(
    tables: Sequence[FloorTable],
    rules: FloorRules,
    multi_table_start: bool,
    final_host: int | None,
    final_seats: int,
    rng: random.Random,
) -> FloorPlan:
    """Everything the floor does after a hand: final table, breaks, then balancing.

    Players = sum of `count`.
    1. Several tables, a multi-table start (and `ft_redraw`), players <= final_table_size:
       the final-table draw only, at `final_host` (default: the lowest table number) with
       seats 1..`final_seats`.
    2. While more tables are in play than `tables_wanted`: choose the tables to break one at a
       time with `table_to_break` among those not yet chosen, then draw each break in turn
       into the surviving tables, each applied before the next. Breaking tables are chosen
       first so that nobody is drawn into a table that breaks in the same plan. A break the
       survivors cannot seat (blocked seats) is not made. At least one table stays.
    3. `plan_balance` on the result (players just drawn in are not moved again).
    4. `halted` = `halted_tables` on the state after the plan, with every planned and pending
       mover seated; the service may recompute it on the physical state.
    """
    check_numbers(tables)
    return floor_plan_counts(
        [table_count(t) for t in tables],
        loader_of(tables),
        rules,
        multi_table_start,
        final_host,
        final_seats,
        rng,
    )


def floor_plan_counts(
    counts: Sequence[TableCount],
    load: TableLoader,
    rules: FloorRules,
    multi_table_start: bool,
    final_host: int | None,
    final_seats: int,
    rng: random.Random,
) -> FloorPlan:
    """`floor_plan` on the tables by their counts, reading in full (`load`) only the tables
    it moves players from or to, or that may have to halt. The same plan, the same random
    draws: `floor_plan` is this with every table known. Pure but for `load`."""
    check_numbers(counts)
    players = sum(t.count for t in counts)
    if (
        len(counts) > 1
        and multi_table_start
        and rules.ft_redraw
        and players <= rules.final_table_size
    ):
        if not any(t.seated for t in counts):
            return FloorPlan()
        numbers = [t.number for t in counts]
        loaded = load(numbers)
        tables = [loaded[n] for n in numbers]
        host = final_host if final_host is not None else min(numbers)
        return FloorPlan(final_table=plan_final_table(tables, host, final_seats, rng))

    wanted = max(1, tables_wanted(players, multi_table_start, rules))
    if rules.hold_breaks and all(t.count >= 2 for t in counts):
        wanted = len(counts)  # late registration: the tables stay for the entries to come
    candidates = list(counts)
    chosen: list[TableCount] = []
    while len(counts) - len(chosen) > wanted:
        number = table_to_break(candidates, rules, rng)
        table = next(t for t in candidates if t.number == number)
        survivors = [t for t in candidates if t.number != number]
        moving = sum(t.seated for t in (*chosen, table))
        if moving > sum(t.free for t in survivors):
            break
        chosen.append(table)
        candidates = survivors

    field = PlanField(candidates, load)
    breaking = load([t.number for t in chosen]) if chosen else {}
    breaks = [break_into(field, breaking[t.number], rng, rules.not_dealt) for t in chosen]
    moves = balance_field(field, rules, rng)
    largest = max((t.count for t in field.counts.values()), default=0)
    short = sorted(n for n, t in field.counts.items() if largest - t.count >= rules.halt_threshold)
    halted = halted_among(field.tables(short), rules, FloorTable.seated, largest)
    return FloorPlan(moves, tuple(breaks), None, halted)
