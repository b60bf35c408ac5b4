"""Balancing (docs/rules.md §5, TDA 11-A/C): who moves from the largest table to the smallest."""

import random
from collections.abc import Sequence
from dataclasses import replace

from tables.domain.button import Blinds, next_big_blind_seat
from tables.domain.floor_field import (
    FloorRules,
    FloorTable,
    Move,
    PlanField,
    check_numbers,
    loader_of,
    pick_table,
    seats_after,
    sits_out_at,
    table_count,
    table_next_blinds,
    worst_seat,
)


def plan_balance(
    tables: Sequence[FloorTable], rules: FloorRules, rng: random.Random
) -> tuple[Move, ...]:
    """Moves that balance the tables (docs/rules.md §5, TDA 11-A/C), in the order to make them.

    While the largest table has at least `balance_threshold` more players than the smallest
    table that can take one: the source is a largest table (ties by `source_order`), the
    destination the smallest other table with a free seat (ties by `source_order`), the
    mover the source player who posts the BB next (first player after the hand in play's BB,
    skipping those already moving and those just arrived), seated at `worst_seat`. Each move is
    applied before the next decision. A table with no free seat is never a destination, so
    a full small table (blocked seats) leaves the gap as it is.

    Source button unknown: the move names nobody (entry_id/from_seat None) and the source's
    `leaving` goes up by one. Destination button unknown: a random free seat, wait None,
    sits_out False. Terminates: every move shrinks a gap of at least 2.
    """
    return balance(tables, rules, rng)[0]


def _next_mover_seat(table: FloorTable, blinds: Blinds) -> int:
    """The seat of the player at `table` who posts the BB next hand after `blinds`; when the
    floor moved him here lately and another player can go, the next player after him who was
    not moved lately (docs/rules.md §5.4: nobody moves twice in a row when another can)."""
    if len(table.occupied) == 1:
        return next(iter(table.occupied))
    seat = next_big_blind_seat(blinds, table.occupied, table.seats)
    if table.occupied[seat] not in table.recent:
        return seat
    for other in seats_after(seat, table.seats):
        if other in table.occupied and table.occupied[other] not in table.recent:
            return other
    return seat


def balance(
    tables: Sequence[FloorTable], rules: FloorRules, rng: random.Random
) -> tuple[tuple[Move, ...], dict[int, FloorTable]]:
    """`plan_balance`, also returning the state after the moves (movers in `reserved`)."""
    check_numbers(tables)
    field = PlanField((table_count(t) for t in tables), loader_of(tables))
    moves = balance_field(field, rules, rng)
    return moves, {t.number: field.full.get(t.number, t) for t in tables}


def balance_field(field: PlanField, rules: FloorRules, rng: random.Random) -> tuple[Move, ...]:
    """`plan_balance` on a field: tables chosen by their counts, read in full only as the
    source or the destination of a move."""
    threshold = rules.balance_threshold
    moves: list[Move] = []
    while True:
        counts = field.counts.values()
        largest = max((t.count for t in counts), default=0)
        givers = [t for t in counts if t.count == largest and t.seated - t.leaving > 0]
        if not givers:
            break
        giver = pick_table(givers, rules.source_order, rng)
        receivers = [t for t in counts if t.number != giver.number and t.free]
        if not receivers:
            break
        smallest = min(t.count for t in receivers)
        if giver.count - smallest < threshold:
            break
        taker = pick_table([t for t in receivers if t.count == smallest], rules.source_order, rng)
        source, dest = field.tables([giver.number, taker.number])

        if source.blinds is None:
            entry_id, from_seat = None, None
            field.set(replace(source, leaving=source.leaving + 1))
        else:
            from_seat = _next_mover_seat(source, source.blinds)
            remaining = dict(source.occupied)
            entry_id = remaining.pop(from_seat)
            field.set(replace(source, occupied=remaining))

        to_seat, wait = worst_seat(dest, rng=rng)
        next_blinds = table_next_blinds(dest, dest.seated() | {to_seat})
        sits_out = sits_out_at(to_seat, next_blinds, dest.seats, rules.not_dealt)
        field.set(replace(dest, reserved=dest.reserved | {to_seat}))
        moves.append(Move(entry_id, source.number, from_seat, dest.number, to_seat, wait, sits_out))
    return tuple(moves)
