"""The final table (docs/rules.md §7.2): everyone redrawn to one table, then the button."""

import random
from collections.abc import Sequence

from tables.domain.floor_field import (
    DrawnSeat,
    FinalTableDraw,
    FloorTable,
    check_numbers,
    two_step_draw,
)
from tables.domain.seating import draw_button, sample_sorted


def plan_final_table(
    tables: Sequence[FloorTable], host: int, seats: int, rng: random.Random
) -> FinalTableDraw:
    """Redraw everyone to the final table at `host`, then draw for the button (docs/rules.md §7.2).

    Seats 1..`seats` of the host minus its unavailable seats; a uniform random set of them is
    shown as seat cards and handed out by the two-step draw (players in table, then seat
    order, each dealt a face-up card). Then a high-card button draw over the new seats.
    Players are everyone in `occupied` at every table. Raises ValueError when seats are short.
    """
    check_numbers(tables)
    by_number = {t.number: t for t in tables}
    if host not in by_number:
        raise ValueError(f"final table host {host} is not in play")
    available = [s for s in range(1, seats + 1) if s not in by_number[host].unavailable]
    players = [
        t.occupied[s] for t in sorted(tables, key=lambda t: t.number) for s in sorted(t.occupied)
    ]
    if not players:
        raise ValueError("no players for the final table")
    if len(players) > len(available):
        raise ValueError(
            f"final table at {host}: {len(players)} players but {len(available)} seats"
        )
    pool = [(host, seat) for seat in sample_sorted(available, len(players), rng)]
    _, drawn = two_step_draw(players, pool, rng)
    button = draw_button([seat for _, _, (_, seat) in drawn], rng)
    return FinalTableDraw(
        host,
        tuple(DrawnSeat(entry, card, host, seat, False) for entry, card, (_, seat) in drawn),
        button.cards,
        button.button_seat,
    )
