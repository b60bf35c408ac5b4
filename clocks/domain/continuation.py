"""Levels that carry a structure on past its end (docs/rules.md §1.9): what *Add levels*
appends when the structure runs out while players are still playing.

Units: blinds and antes in chips, durations in seconds. Pure: no Django.
"""

from collections.abc import Sequence
from fractions import Fraction

from clocks.domain.structures import Period

# How fast the added blinds grow: the structure's own last step, held within these bounds.
GROWTH_MIN = Fraction(5, 4)
GROWTH_MAX = Fraction(2)
GROWTH_ALONE = Fraction(3, 2)  # a structure of one level has no step to follow
# The round numbers a big blind is chosen from, times a power of ten.
ROUND = (10, 12, 15, 16, 20, 25, 30, 40, 50, 60, 80)


def _round_up(target: Fraction, chip: int) -> int:
    """The smallest round number (ROUND × 10^k) at least `target` that the smallest chip in
    play pays (a multiple of `chip`)."""
    scale = 1
    while True:
        for m in ROUND:
            value = m * scale
            if value >= target and value % chip == 0:
                return value
        scale *= 10


def _step(periods: Sequence[Period]) -> Fraction:
    levels = [p for p in periods if p.kind == "level" and p.big_blind > 0]
    if len(levels) < 2 or levels[-2].big_blind >= levels[-1].big_blind:
        return GROWTH_ALONE
    growth = Fraction(levels[-1].big_blind, levels[-2].big_blind)
    return min(GROWTH_MAX, max(GROWTH_MIN, growth))


def levels_continued(periods: Sequence[Period], smallest_chip: int, count: int) -> list[Period]:
    """`count` levels after the structure's last level: each big blind the last one times the
    structure's last step (between 1.25 and 2; 1.5 without one), raised to the next round
    number the smallest chip in play pays; the small blind half of it (down to a multiple of
    that chip, at least one chip); the ante in the last level's proportion to its big blind
    (a big-blind ante stays one); each as long as the last level.

    Invariants: every big blind is larger than the one before; every blind and ante is a
    multiple of `smallest_chip`."""
    if count < 1 or smallest_chip < 1:
        raise ValueError("count and smallest_chip must be positive")
    last = next((p for p in reversed(periods) if p.kind == "level"), None)
    if last is None:
        raise ValueError("a structure without a level has nothing to carry on")
    growth = _step(periods)
    ante_share = Fraction(last.ante, last.big_blind) if last.big_blind else Fraction(0)
    added, big = [], max(last.big_blind, smallest_chip)
    for _ in range(count):
        big = _round_up(max(big * growth, Fraction(big + 1)), smallest_chip)
        small = max(smallest_chip, big // 2 // smallest_chip * smallest_chip)
        ante = int(big * ante_share) // smallest_chip * smallest_chip
        added.append(Period("level", last.duration_seconds, small, big, ante))
    return added
