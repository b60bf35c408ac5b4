"""Floor tables and rules for the planner's tests (docs/rules.md §5, §6, §7)."""

import random
from collections.abc import Iterable, Sequence
from dataclasses import replace

from tables.domain.button import Blinds
from tables.domain.cards import Card
from tables.domain.floor_field import FloorPlan, FloorRules, FloorTable, Move
from tables.domain.seating import SeatingRules

NINE_MAX = SeatingRules(table_thresholds=None, seats_per_table=9, single_table_seats=10)
TEN_MAX = SeatingRules(table_thresholds=None, seats_per_table=10, single_table_seats=10)
SIX_MAX = SeatingRules(table_thresholds=None, seats_per_table=6, single_table_seats=6)
RIMOC = SeatingRules(table_thresholds=(10, 18, 27), seats_per_table=9, single_table_seats=10)


def floor_rules(**changes: object) -> FloorRules:
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


def seated_table(
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


def full_table(number: int, seats: int, blinds: Blinds | None = None) -> FloorTable:
    return seated_table(number, seats, range(1, seats + 1), blinds)


def counts_after(tables: Sequence[FloorTable], moves: Sequence[Move]) -> list[int]:
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


def check_final_table(plan: FloorPlan, tables: Sequence[FloorTable], host: int, seats: int) -> None:
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
