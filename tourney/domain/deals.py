"""A deal among the players left (docs/rules.md §12.5): what is shared, the calculators' amounts,
and the check of amounts agreed by hand.

Units: stacks are chips; money is an integer number of the smallest currency unit, rounded to
``unit`` (the house's ``money_rounding``). With ``n`` players left, the deal shares the prizes
of places 1..n (``payouts[k]`` pays place k + 1; places past its end pay 0), less an optional
amount ``left_to_play`` kept back from 1st prize and played for: the winner takes it on top
of their share (``results``). The amounts always add up to the money shared, exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from tourney.domain.icm import chip_chop, deal_amounts, icm
from tourney.domain.refusal import N_, RuleError

__all__ = [
    "CALCULATORS",
    "DealError",
    "DealQuote",
    "agreed_amounts_check",
    "deal_prizes",
    "deal_quote",
]

Calculator = Literal["icm", "chip_chop"]
CALCULATORS: tuple[Calculator, ...] = ("icm", "chip_chop")


class DealError(RuleError):
    """Refused deal input; ``code`` for the API, ``template``/``params`` for translation."""


@dataclass(frozen=True)
class DealQuote:
    method: Calculator
    prizes: tuple[int, ...]
    """What places 1..n pay into the deal (1st already less ``left_to_play``)."""
    left_to_play: int
    equities: tuple[float, ...]
    """Each player's fair share (money, unrounded), in the order of the stacks."""
    amounts: tuple[int, ...]
    """``equities`` rounded to the unit, adding up to ``pool``."""
    exact: bool
    max_error: float
    """Largest possible error of an ICM equity (0.0 when exact or for the chip chop)."""

    @property
    def pool(self) -> int:
        return sum(self.prizes)


def deal_prizes(payouts: Sequence[int], players: int, left_to_play: int = 0) -> tuple[int, ...]:
    """The prizes of places 1..``players`` (0 past the paid places), 1st less ``left_to_play``.

    Refused: fewer than 2 players (``deal_too_few``), ``left_to_play`` below 0 or above 1st
    prize (``left_to_play_invalid``)."""
    if players < 2:
        raise DealError("deal_too_few", N_("A deal needs at least two players left."))
    prizes = [payouts[k] if k < len(payouts) else 0 for k in range(players)]
    if left_to_play < 0 or left_to_play > prizes[0]:
        raise DealError(
            "left_to_play_invalid",
            N_("The amount left to play for must be between 0 and the 1st prize (%(first)s)."),
            first=prizes[0],
        )
    prizes[0] -= left_to_play
    return tuple(prizes)


def deal_quote(
    method: str,
    stacks: Sequence[int],
    payouts: Sequence[int],
    *,
    left_to_play: int = 0,
    unit: int = 1,
) -> DealQuote:
    """What the calculator ``method`` (``icm`` or ``chip_chop``) gives each stack.

    Refused: an unknown method (``deal_method``), a stack below 1 (``bad_stack``), and what
    :func:`deal_prizes` and ``icm.deal_amounts`` refuse."""
    if method not in CALCULATORS:
        raise DealError("deal_method", N_("Choose the chip chop or ICM."))
    if any(not isinstance(s, int) or isinstance(s, bool) or s < 1 for s in stacks):
        raise DealError("bad_stack", N_("Every player in the deal needs at least 1 chip."))
    prizes = deal_prizes(payouts, len(stacks), left_to_play)
    if method == "icm":
        result = icm(stacks, prizes)
        equities, exact, error = result.equities, result.exact, result.max_error
    else:
        equities, exact, error = chip_chop(stacks, prizes), True, 0.0
    amounts = deal_amounts(equities, sum(prizes), unit)
    return DealQuote(
        method=method,  # type: ignore[arg-type]
        prizes=prizes,
        left_to_play=left_to_play,
        equities=tuple(equities),
        amounts=amounts,
        exact=exact,
        max_error=error,
    )


def agreed_amounts_check(amounts: Sequence[int], pool: int) -> None:
    """Amounts typed by hand: each 0 or more (``deal_amount_negative``) and together exactly
    the money shared (``deal_sum``)."""
    if any(not isinstance(a, int) or a < 0 for a in amounts):
        raise DealError("deal_amount_negative", N_("An amount in the deal cannot be negative."))
    total = sum(amounts)
    if total != pool:
        raise DealError(
            "deal_sum",
            N_("The amounts add up to %(total)s, but the deal shares %(pool)s."),
            total=total,
            pool=pool,
        )
