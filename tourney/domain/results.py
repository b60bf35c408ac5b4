"""The prize of each finished player (docs/rules.md §12.4): ties, hand-for-hand shares, a deal
and disqualification.

Units: money is an integer number of the smallest currency unit; ``unit`` is the house's
payout rounding (``money_rounding``). ``payouts[k]`` is what place k + 1 pays
(``payouts.payouts_for``); places past its end pay 0.

Rules, in order:

* Players holding the same range of places (a tie, or a hand-for-hand hand) split the prizes
  of the places in that range equally (``places.shared_prize``, sharers in entry-id order);
  docs/rules.md §11.9 examples 2-4.
* A deal (:class:`Deal`) made by the last ``k`` players replaces the prizes of places 1..k:
  each of those players gets the agreed amount wherever they then finish, and the player who
  finishes 1st also takes what the deal left to play for (the prizes of places 1..k less the
  agreed amounts), so the whole pool is still paid.
* A disqualified player's prize is forfeited when the house says so (``dq_forfeits_prize``):
  the player gets 0, nobody else gets more (the payouts of the other places do not change) and
  the amount is reported as ``forfeited`` - it stays with the house.

Invariant (tested with hypothesis): once every place is decided, the prizes plus the forfeited
amounts add up to the sum of ``payouts`` exactly.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tourney.domain.places import shared_prize

__all__ = ["Award", "Deal", "Finisher", "awards_for", "forfeited_total"]


@dataclass(frozen=True, slots=True)
class Finisher:
    """A player whose place is decided: the range ``place .. place_to`` (equal when not tied)."""

    entry_id: int
    place: int
    place_to: int
    disqualified: bool = False
    absent_at_money: bool = False
    """Away from the room when the money was reached, where the house forfeits his prize
    (`absent_itm_forfeit`, docs/rules.md §2.3)."""


@dataclass(frozen=True, slots=True)
class Deal:
    """Agreed amounts (entry id -> money) of the players left when the deal was made; they
    hold places 1 .. len(amounts) between them."""

    amounts: Mapping[int, int]

    @property
    def places(self) -> int:
        return len(self.amounts)


@dataclass(frozen=True, slots=True)
class Award:
    entry_id: int
    place: int
    place_to: int
    prize: int
    """What the player is paid (0 when forfeited)."""
    earned: int
    """What the place (or the deal) earned, before any forfeiture."""
    deal: bool
    """The prize is the deal's amount (plus what was left to play for, for 1st)."""
    left_to_play: int
    """Part of ``earned`` that is the deal's amount left to play for (the winner only)."""

    @property
    def forfeited(self) -> int:
        return self.earned - self.prize


def awards_for(
    payouts: Sequence[int],
    finishers: Sequence[Finisher],
    *,
    unit: int = 1,
    deal: Deal | None = None,
    dq_forfeits_prize: bool = True,
) -> dict[int, Award]:
    """Entry id -> :class:`Award` for every finisher (rules in the module docstring).

    Raises ValueError on a bad unit, a negative payout or a finisher with a bad range
    (``places.shared_prize``).
    """
    deal_places = deal.places if deal else 0
    # The deal's places are paid by the deal: what the others share starts below them.
    prizes = {p: amount for p, amount in enumerate(payouts, 1) if p > deal_places}
    ranges: dict[tuple[int, int], list[Finisher]] = defaultdict(list)
    for finisher in finishers:
        ranges[(finisher.place, finisher.place_to)].append(finisher)

    earned: dict[int, tuple[int, int]] = {}
    left_open = deal is not None  # what was left to play for goes to one winner only
    for (place, place_to), holders in sorted(ranges.items()):
        holders.sort(key=lambda f: f.entry_id)
        outside = [f for f in holders if not (deal and f.entry_id in deal.amounts)]
        shares = shared_prize(prizes, place, place_to, len(outside), unit) if outside else ()
        for finisher, share in zip(outside, shares, strict=True):
            earned[finisher.entry_id] = (share, 0)
        for finisher in holders:
            if deal and finisher.entry_id in deal.amounts:
                left = _left_to_play(payouts, deal) if finisher.place == 1 and left_open else 0
                left_open = left_open and finisher.place != 1
                earned[finisher.entry_id] = (deal.amounts[finisher.entry_id] + left, left)

    awards = {}
    for finisher in finishers:
        amount, left = earned[finisher.entry_id]
        forfeit = (finisher.disqualified and dq_forfeits_prize) or finisher.absent_at_money
        awards[finisher.entry_id] = Award(
            entry_id=finisher.entry_id,
            place=finisher.place,
            place_to=finisher.place_to,
            prize=0 if forfeit else amount,
            earned=amount,
            deal=bool(deal and finisher.entry_id in deal.amounts),
            left_to_play=left,
        )
    return awards


def _left_to_play(payouts: Sequence[int], deal: Deal) -> int:
    """The deal places' prizes less the agreed amounts (never negative)."""
    return max(0, sum(payouts[: deal.places]) - sum(deal.amounts.values()))


def forfeited_total(awards: Mapping[int, Award]) -> int:
    return sum(a.forfeited for a in awards.values())
