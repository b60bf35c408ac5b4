"""Cancelling an event (docs/rules.md §18): what each entry gets back.

Units: money is an integer number of the smallest currency unit; stacks are chips. Before the
start, and after it under the `refund` settlement, every entry gets back what it paid (buy-in
and fee of the entry, its rebuys and add-ons). After the start under `chip_count` or `equal`,
the prizes of the places still to be decided (places 1..n for the n players left) are shared
among the n players: by the chip chop (each the lowest of those prizes, the rest in proportion
to the chips) or equally; the fees stay with the house, the players already out keep the
prize of their place. The shares always add up to the prizes shared, exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Literal

from tourney.domain.icm import chip_chop, deal_amounts
from tourney.domain.refusal import N_, RuleError

__all__ = ["SETTLEMENTS", "CancelError", "Settlement", "cancel_shares", "settlement_of"]

Settlement = Literal["refund", "chip_count", "equal"]
SETTLEMENTS: tuple[Settlement, ...] = ("refund", "chip_count", "equal")


class CancelError(RuleError):
    """A refused cancellation; ``code`` for the API, ``template``/``params`` for translation."""


def settlement_of(started: bool, house: Settlement, asked: str | None) -> Settlement:
    """The settlement that applies: always `refund` before the start; after it the director's
    choice (`asked`) or the house's. Refused: an unknown name (`invalid_settlement`)."""
    if asked is not None and asked not in SETTLEMENTS:
        raise CancelError(
            "invalid_settlement",
            N_("The settlement must be one of: refund, chip_count, equal."),
        )
    if not started:
        return "refund"
    return asked or house  # type: ignore[return-value]


def cancel_shares(
    settlement: Settlement,
    *,
    stacks: Mapping[int, int | None],
    prizes: Sequence[int],
    unit: int = 1,
) -> dict[int, int]:
    """The money each player still in (entry id -> chips, in stack order) gets under
    `chip_count` or `equal`: the `prizes` of places 1..n shared (places past the paid ones
    pay 0), each share a multiple of `unit` but the largest's. Sums to `sum(prizes[:n])`.

    Refused under `chip_count`: a stack not counted, or counted at 0 (`chips_not_counted`)."""
    if settlement == "refund" or not stacks:
        return {}
    # Biggest stack first: a tie in the rounding goes to the bigger stack.
    entries = sorted(stacks, key=lambda e: -(stacks[e] or 0))
    shared = [prizes[k] if k < len(prizes) else 0 for k in range(len(entries))]
    if settlement == "equal":
        equities: Sequence[float] = [1.0] * len(entries)
    else:
        missing = [e for e in entries if not stacks[e] or stacks[e] < 1]  # type: ignore[operator]
        if missing:
            raise CancelError(
                "chips_not_counted",
                N_("Count the chips of every player left first: %(count)s not counted."),
                count=len(missing),
            )
        equities = chip_chop([int(stacks[e] or 0) for e in entries], shared)
    amounts = deal_amounts(equities, sum(shared), unit)
    return dict(zip(entries, amounts, strict=True))
