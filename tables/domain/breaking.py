"""Breaking tables (docs/rules.md §6): which table breaks and the draw of its players into
the others."""

import random
from collections.abc import Sequence
from dataclasses import replace

from tables.domain.floor_field import (
    DrawnSeat,
    FloorRules,
    FloorTable,
    NotDealt,
    PlanField,
    TableBreak,
    check_numbers,
    loader_of,
    pick_table,
    sits_out_at,
    table_count,
    table_next_blinds,
    two_step_draw,
)
from tables.domain.seating import sample_sorted


def table_to_break(tables: Sequence[FloorTable], rules: FloorRules, rng: random.Random) -> int:
    """The number of the next table to break (docs/rules.md §6.2).

    fewest_players: the smallest count, ties by `break_tiebreak` (Rimóc). fixed_list: by
    `break_tiebreak` alone (highest_first = highest number first, as Triton). random: any.
    """
    if not tables:
        raise ValueError("no table to break")
    check_numbers(tables)
    if rules.break_order == "fewest_players":
        fewest = min(t.count for t in tables)
        return pick_table(
            [t for t in tables if t.count == fewest], rules.break_tiebreak, rng
        ).number
    if rules.break_order == "fixed_list":
        return pick_table(tables, rules.break_tiebreak, rng).number
    if rules.break_order == "random":
        return pick_table(tables, "random", rng).number
    raise ValueError(f"unknown break order {rules.break_order!r}")


def _seat_pool(field: PlanField, players: int, rng: random.Random) -> list[tuple[int, int]]:
    """`players` free seats over the field's tables: each next seat to the currently smallest
    table (ties by lower number) with a free seat left; seats within a table uniformly at
    random (only the tables given seats are read in full)."""
    counts = {n: t.count for n, t in field.counts.items()}
    free = {n: t.free for n, t in field.counts.items()}
    given = dict.fromkeys(counts, 0)
    for _ in range(players):
        open_tables = [n for n in counts if given[n] < free[n]]
        if not open_tables:
            break
        number = min(open_tables, key=lambda n: (counts[n], n))
        counts[number] += 1
        given[number] += 1
    receiving = sorted(n for n, k in given.items() if k)
    field.tables(receiving)
    pool: list[tuple[int, int]] = []
    for number in receiving:
        seats = sample_sorted(field.full[number].free_seats(), given[number], rng)
        pool.extend((number, seat) for seat in seats)
    return pool


def plan_table_break(
    tables: Sequence[FloorTable],
    breaking: int,
    rng: random.Random,
    not_dealt: NotDealt = "between_btn_sb",
) -> TableBreak:
    """Break table `breaking` into the others by the two-step draw (docs/rules.md §6.3, §6.4, TDA
    10).

    Seat pool: one free seat per player at the breaking table, spread so the receiving
    tables' counts end as even as their free seats allow (differ by at most 1 when there is
    room). Seat cards are scrambled (rng.shuffle); players, in seat order from seat 1, get one
    face-up card each; the highest card takes the first scrambled seat card, and so on.
    `sits_out` uses the receiving table's next-hand positions with all newcomers seated.

    Every player in the breaking table's `occupied` is drawn; pending moves from or to it are
    the service's to cancel. Raises ValueError if the other tables lack the free seats.
    """
    check_numbers(tables)
    by_number = {t.number: t for t in tables}
    if breaking not in by_number:
        raise ValueError(f"table {breaking} is not in play")
    receiving = [t for t in tables if t.number != breaking]
    field = PlanField((table_count(t) for t in receiving), loader_of(receiving))
    return break_into(field, by_number[breaking], rng, not_dealt)


def break_into(
    field: PlanField, source: FloorTable, rng: random.Random, not_dealt: NotDealt
) -> TableBreak:
    """`plan_table_break` of `source` into the field's tables; the arrivals are left reserved
    at their new tables in `field` (they sit down before the next hand, and a player just
    moved is not picked again by balancing in the same plan)."""
    players = [source.occupied[s] for s in sorted(source.occupied)]
    room = sum(t.free for t in field.counts.values())
    if room < len(players):
        raise ValueError(
            f"cannot break table {source.number}: {len(players)} players but only {room} free "
            "seats at the other tables"
        )
    pool = _seat_pool(field, len(players), rng)
    scrambled, drawn = two_step_draw(players, pool, rng)
    arrivals: dict[int, set[int]] = {}
    for _, _, (number, seat) in drawn:
        arrivals.setdefault(number, set()).add(seat)
    full = field.full
    next_blinds = {
        number: table_next_blinds(full[number], full[number].seated() | seats)
        for number, seats in arrivals.items()
    }
    seats = tuple(
        DrawnSeat(
            entry,
            card,
            number,
            seat,
            sits_out_at(seat, next_blinds[number], full[number].seats, not_dealt),
        )
        for entry, card, (number, seat) in drawn
    )
    for number, arrived in arrivals.items():
        field.set(replace(full[number], reserved=full[number].reserved | arrived))
    return TableBreak(source.number, tuple(pool), scrambled, seats)
