"""Deal-making calculators (docs/rules.md §12.5): ICM equities, the chip chop, and rounding a deal
to money that adds up.

Units: stacks are chips (positive integers); prizes and amounts are money in the smallest
currency unit; ``prizes[k]`` is paid for place k + 1 among the players still in, so the
equities of all players add up to ``sum(prizes)``.

ICM is the Malmuth-Harville model: a player finishes first with probability stack / chips in
play, and each later place is decided the same way among the players not yet placed. It is
computed exactly by dynamic programming over the sets of players already placed (a bit mask
each), place by place. The work grows with the number of such sets; when it would pass
``max_transitions`` (up to 17 players are exact with every place paid), only the
first ``depth`` places are computed exactly and the rest is estimated with a stated bound:

- each player's chance p of finishing below place ``depth`` is exact, and whatever those
  places pay lies between the smallest and the largest of their prizes;
- the estimate pays p x the average of those prizes, so the error of a player's equity is at
  most p x (the larger distance from that average to the smallest or the largest of them);
  ``IcmResult.error_bounds`` gives this bound per player; the estimates still add up to
  ``sum(prizes)`` exactly (up to float rounding).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from tourney.domain.refusal import N_, RuleError

__all__ = [
    "MAX_TRANSITIONS",
    "IcmError",
    "IcmResult",
    "chip_chop",
    "deal_amounts",
    "icm",
    "icm_equities",
    "transitions",
]

MAX_TRANSITIONS = 2_000_000
"""Default work budget of the exact computation (under half a second in CPython)."""


class IcmError(RuleError):
    """Refused deal input; ``code`` for the API, ``template``/``params`` for translation,
    ``message`` in English."""


@dataclass(frozen=True)
class IcmResult:
    """ICM equities (money, by player in input order) and how exact they are."""

    equities: tuple[float, ...]
    exact: bool
    depth: int
    """Places computed exactly (all paid places when ``exact``)."""
    error_bounds: tuple[float, ...]
    """Per player: |equity - exact ICM| is at most this (0.0 when exact)."""

    @property
    def max_error(self) -> float:
        return max(self.error_bounds, default=0.0)


def transitions(players: int, depth: int) -> int:
    """Steps of the exact computation for the first ``depth`` places: from every set of k
    placed players (k < depth) to each player not yet placed, n x sum of C(n-1, k)."""
    return players * sum(math.comb(players - 1, k) for k in range(min(depth, players)))


def icm(
    stacks: Sequence[int], prizes: Sequence[int], *, max_transitions: int = MAX_TRANSITIONS
) -> IcmResult:
    """Malmuth-Harville equities of ``stacks`` for ``prizes`` (see the module docstring).

    Refused: no players or a stack below 1 (``bad_stack``), a negative prize
    (``negative_prize``), more prizes than players (``too_many_prizes``: pass the prizes of
    the places still to be decided).
    """
    n = len(stacks)
    _check(stacks, prizes)
    padded = [float(p) for p in prizes] + [0.0] * (n - len(prizes))
    paid = max((k + 1 for k, p in enumerate(padded) if p), default=0)
    depth = paid
    while depth > 0 and transitions(n, depth) > max_transitions:
        depth -= 1
    depth = max(depth, min(paid, 1))  # first place is always cheap (n steps)

    equities, placed = _top_places(stacks, padded, depth)
    if depth == paid:
        return IcmResult(tuple(equities), True, depth, (0.0,) * n)

    tail = padded[depth:]
    mean = sum(tail) / len(tail)
    spread = max(max(tail) - mean, mean - min(tail))
    below = [max(0.0, 1.0 - p) for p in placed]
    estimates = tuple(e + b * mean for e, b in zip(equities, below, strict=True))
    bounds = tuple(b * spread for b in below)
    return IcmResult(estimates, False, depth, bounds)


def icm_equities(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[float, ...]:
    """The ICM equities alone: exact up to 17 players, and whenever few places are paid; past
    that see :func:`icm` for the error bound."""
    return icm(stacks, prizes).equities


def _top_places(
    stacks: Sequence[int], prizes: Sequence[float], depth: int
) -> tuple[list[float], list[float]]:
    """Equity from places 1..``depth`` and the chance of finishing in them, per player."""
    n = len(stacks)
    chips = [float(s) for s in stacks]
    total = sum(chips)
    everyone = (1 << n) - 1
    equities = [0.0] * n
    placed = [0.0] * n
    # Placed set (bit mask) -> (probability that exactly these took the places so far, their
    # chips). Only the probability of the *set* matters for what follows, not its order.
    layer: dict[int, tuple[float, float]] = {0: (1.0, 0.0)}
    for k in range(depth):
        in_place = [0.0] * n
        following: dict[int, tuple[float, float]] = {}
        last = k == depth - 1
        for mask, (probability, used) in layer.items():
            per_chip = probability / (total - used)
            free = everyone ^ mask
            while free:
                bit = free & -free
                free ^= bit
                player = bit.bit_length() - 1
                chance = per_chip * chips[player]
                in_place[player] += chance
                if not last:
                    after = mask | bit
                    known = following.get(after)
                    following[after] = (
                        (chance, used + chips[player])
                        if known is None
                        else (known[0] + chance, known[1])
                    )
        for player in range(n):
            equities[player] += in_place[player] * prizes[k]
            placed[player] += in_place[player]
        layer = following
    return equities, placed


def chip_chop(stacks: Sequence[int], prizes: Sequence[int]) -> tuple[float, ...]:
    """The chip chop: every player gets the lowest prize still to be paid (0 when fewer prizes
    than players), and the rest of the prizes is split in proportion to the chips. Sums to
    ``sum(prizes)``."""
    _check(stacks, prizes)
    padded = list(prizes) + [0] * (len(stacks) - len(prizes))
    lowest = min(padded)
    rest = sum(padded) - lowest * len(stacks)
    total = sum(stacks)
    return tuple(lowest + rest * stack / total for stack in stacks)


def deal_amounts(equities: Sequence[float], pool: int, unit: int = 1) -> tuple[int, ...]:
    """Round a deal (equities in any scale, e.g. from :func:`icm` or :func:`chip_chop`) to
    money: the ``pool`` split in proportion, each amount a multiple of ``unit`` except the
    largest equity's, which also takes the part of the pool smaller than one unit. Leftover
    units go to the largest rounding losses (larger equity first on a tie). Sums to ``pool``
    exactly; a larger equity never gets less."""
    if not isinstance(unit, int) or unit < 1:
        raise IcmError(
            "bad_unit", N_("The rounding unit must be at least 1, not %(unit)s."), unit=unit
        )
    if pool < 0:
        raise IcmError("negative", N_("Money amounts cannot be negative."))
    if not equities or any(not math.isfinite(e) or e < 0 for e in equities):
        raise IcmError("bad_equity", N_("Every share of the deal must be 0 or more."))
    total = math.fsum(equities)
    if total <= 0:
        if pool == 0:
            return (0,) * len(equities)
        raise IcmError("no_equity", N_("Nobody has a share of the deal."))

    pool_units, below_unit = divmod(pool, unit)
    ideal = [e / total * pool_units for e in equities]
    whole = [min(pool_units, math.floor(x)) for x in ideal]
    leftover = pool_units - sum(whole)
    # Mathematically 0 <= leftover < players; the loops only guard against float rounding.
    order = sorted(range(len(ideal)), key=lambda i: (-(ideal[i] - whole[i]), -equities[i], i))
    while leftover > 0:
        for player in order[:leftover]:
            whole[player] += 1
        leftover = pool_units - sum(whole)
    for player in reversed(order):
        if leftover < 0 and whole[player] > 0:
            whole[player] -= 1
            leftover += 1
    amounts = [units * unit for units in whole]
    top = max(range(len(equities)), key=lambda i: (equities[i], -i))
    amounts[top] += below_unit
    return tuple(amounts)


def _check(stacks: Sequence[int], prizes: Sequence[int]) -> None:
    if not stacks or any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in stacks):
        raise IcmError("bad_stack", N_("Every player in the deal needs at least 1 chip."))
    if any(p < 0 for p in prizes):
        raise IcmError("negative_prize", N_("Prizes cannot be negative."))
    if len(prizes) > len(stacks):
        raise IcmError(
            "too_many_prizes",
            N_("%(prizes)s prizes for %(players)s players: give the places still to be paid."),
            prizes=len(prizes),
            players=len(stacks),
        )
