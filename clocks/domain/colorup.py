"""Which chip denominations a structure can color up at which break (docs/rules.md §1.6, [INF]).

Units: chip values, blinds and antes are integer amounts of chips; periods are indexed from 0
in playing order (levels and breaks together, as stored).

The rule: at a break, a denomination can go once every *later* small blind, big blind and ante
can still be made from the denominations that stay (any number of each chip). Removal is
smallest-first: a chip is never removed while a smaller one stays, so at each break the
removed chips are the smallest ones still in play, and the suggestion stops at the first chip
that is still needed. A break after the last level looks at the last level's amounts, because
play goes on at the last level when the structure runs out. The last denomination never goes.

Invariants (tested with hypothesis):
- every amount of a later level that the chips in play before a break could make, the chips
  in play after it can still make;
- monotone: chips removed at a later break are all larger than those removed earlier, and
  each chip is removed at most once.
"""

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from math import gcd

from clocks.domain.structures import Period


def representable(amount: int, denominations: Iterable[int]) -> bool:
    """True when `amount` (>= 0) is a sum of chips of the given values, any number of each."""
    if amount == 0:
        return True
    values = sorted({d for d in denominations if 0 < d <= amount})
    if not values:
        return False
    g = gcd(*values)
    if amount % g:
        return False
    amount //= g
    values = [v // g for v in values]
    if values[0] == 1:
        return True
    # Schur's bound: with gcd 1, every amount >= (smallest - 1) * (largest - 1) is reachable,
    # so the bitset below never needs more than smallest * largest bits.
    if len(values) > 1 and amount >= (values[0] - 1) * (values[-1] - 1):
        return True
    mask = (1 << (amount + 1)) - 1
    reach = 1  # bit n set = n is reachable
    for value in values:
        # Shifts by value, 2*value, 4*value ... add 0..2^k - 1 copies: unbounded use of a chip.
        step = value
        while step <= amount:
            reach |= (reach << step) & mask
            step *= 2
    return bool(reach >> amount & 1)


def level_amounts(period: Period) -> set[int]:
    """The positive amounts a level asks players to put in: small blind, big blind, ante."""
    if period.kind != "level":
        return set()
    return {a for a in (period.small_blind, period.big_blind, period.ante) if a > 0}


def later_amounts(periods: Sequence[Period], index: int) -> set[int]:
    """Every amount of the levels after period `index`; after the last level, the last
    level's amounts (play continues at the last level)."""
    amounts: set[int] = set()
    for period in periods[index + 1 :]:
        amounts |= level_amounts(period)
    if not amounts:
        levels = [p for p in periods[: index + 1] if p.kind == "level"]
        if levels:
            amounts = level_amounts(levels[-1])
    return amounts


def removable_at(in_play: Sequence[int], amounts: Iterable[int]) -> tuple[int, ...]:
    """The smallest chips of `in_play` that can go, smallest-first, without making any of
    `amounts` that `in_play` can make unmakeable; the largest chip always stays."""
    remaining = sorted(set(in_play))
    needed = [a for a in set(amounts) if representable(a, remaining)]
    removed: list[int] = []
    while len(remaining) > 1:
        rest = remaining[1:]
        if not all(representable(a, rest) for a in needed):
            break
        removed.append(remaining[0])
        remaining = rest
    return tuple(removed)


def color_up_suggestion(
    chips: Iterable[int], periods: Sequence[Period]
) -> dict[int, tuple[int, ...]]:
    """Period index of every break -> the chip values to remove during it (ascending; empty
    when none can go). Depends only on the chip values and the levels' amounts, not on the
    color-ups the structure currently lists."""
    in_play = sorted(set(chips))
    suggestion: dict[int, tuple[int, ...]] = {}
    for index, period in enumerate(periods):
        if period.kind != "break":
            continue
        removed = removable_at(in_play, later_amounts(periods, index)) if in_play else ()
        suggestion[index] = removed
        in_play = [v for v in in_play if v not in removed]
    return suggestion


def chips_in_play(chips: Iterable[int], periods: Sequence[Period], index: int) -> tuple[int, ...]:
    """The chip values still in play during period `index`, after the color-ups the structure
    lists at breaks before it (a break's own color-up takes effect when it ends)."""
    removed: set[int] = set()
    for period in periods[:index]:
        removed |= set(period.color_up)
    return tuple(sorted(set(chips) - removed))


@dataclass(frozen=True)
class ChipWarning:
    """Advice that does not block saving. `message` is an English %-template over `params`
    (translated by the caller); `row` is the 0-based period index, when there is one."""

    code: str
    message: str
    params: dict[str, object]
    row: int | None = None


def chip_warnings(
    chips: Iterable[int], periods: Sequence[Period], starting_stack: int | None = None
) -> list[ChipWarning]:
    """Amounts the chips cannot pay: a level's blind or ante that the chips still in play
    then (after the listed color-ups) cannot make, and a starting stack the chip set cannot
    make. Empty when the structure has no chip set."""
    chip_values = sorted(set(chips))
    if not chip_values:
        return []
    warnings: list[ChipWarning] = []
    if starting_stack and not representable(starting_stack, chip_values):
        warnings.append(
            ChipWarning(
                "stack_not_payable",
                "The starting stack of %(amount)s cannot be made from the chip set.",
                {"amount": starting_stack},
            )
        )
    for index, period in enumerate(periods):
        in_play = chips_in_play(chip_values, periods, index)
        unpayable = sorted(a for a in level_amounts(period) if not representable(a, in_play))
        if unpayable:
            warnings.append(
                ChipWarning(
                    "blind_not_payable",
                    "Row %(row)s: %(amounts)s cannot be made from the chips in play then.",
                    {"row": index + 1, "amounts": unpayable},
                    index,
                )
            )
    return warnings


# --- one color-up at a break: what goes, what stays, how odd chips are counted ---------------


@dataclass(frozen=True)
class ColorUpStep:
    """The chips a break removes and how a table changes them (docs/rules.md §8.1).

    ``denomination`` D is the smallest chip still in play once ``removed`` are gone. Odd chips
    are counted in ``unit``, the largest value dividing D and every removed chip (for one
    removed chip that D is a multiple of, the removed chip itself: 100s -> 500s counts 100s;
    100s and 500s together -> 1,000s counts 100s, a 500 being 5 of them; 1,000s -> 2,500s
    counts 500s, a 1,000 being 2). ``k`` = D / unit odd chips make one D chip.
    """

    period_index: int
    removed: tuple[int, ...]
    denomination: int
    unit: int
    k: int


def color_up_step(
    chips: Iterable[int], periods: Sequence[Period], index: int
) -> ColorUpStep | None:
    """The color-up of the break at period ``index``: None unless that period is a break
    listing chips to remove and a chip of the set stays in play after it."""
    if not 0 <= index < len(periods):
        return None
    period = periods[index]
    if period.kind != "break" or not period.color_up:
        return None
    removed = tuple(sorted(set(period.color_up)))
    staying = [v for v in chips_in_play(chips, periods, index + 1) if v not in removed]
    if not staying:
        return None
    denomination = min(staying)
    unit = gcd(denomination, *removed)
    return ColorUpStep(index, removed, denomination, unit, denomination // unit)


def color_up_breaks(periods: Sequence[Period]) -> list[int]:
    """Indexes of the breaks that list a color-up, in playing order."""
    return [i for i, p in enumerate(periods) if p.kind == "break" and p.color_up]


def color_up_break_for(periods: Sequence[Period], current: int, override: bool) -> int | None:
    """The break a color-up at period ``current`` belongs to: ``current`` itself when it is a
    color-up break; with the director's override, otherwise the latest color-up break before
    it, or else the next one (a table colored up early, or late). None when there is none."""
    breaks = color_up_breaks(periods)
    if current in breaks:
        return current
    if not override or not breaks:
        return None
    earlier = [i for i in breaks if i < current]
    return earlier[-1] if earlier else breaks[0]
