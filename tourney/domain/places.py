"""Finishing places of players eliminated in one hand, and tied prize splits (docs/rules.md §11).

``n`` players remain before a hand's eliminations and ``m`` of them bust in it; the busts
take places ``n-m+1 .. n`` (§11.2). How those places are shared out:

* **Normal play** (§11.3, §11.4): the larger starting stack for the hand places higher. Equal
  stacks tie and share the range of places they cover. A ``start_stack`` of None means
  "unknown": all-None stacks tie with each other. Mixed None and known stacks are refused
  (``ValueError``) - the service must give every stack or none [INF], because ranking a known
  stack against an unknown one would be a guess.
* **Hand-for-hand, ``tda_rp8``** (§11.5, §11.9 example 3): everyone busting in the same hand shares
  the whole range, whatever the stacks and tables.
* **Hand-for-hand, ``wsop``** (§11.5, §11.9 example 4): busts at the same table are ordered by
  starting stack, busts at different tables tie. [INF] Both statements together are read as:
  each bust gets a *table rank* = 1 + the number of busts at the same table with a strictly
  larger starting stack (standard competition ranking: 1, 1, 3). Busts with the same table
  rank share a range, whatever their tables; a better (smaller) rank places higher. With all
  busts at one table this is exactly the normal-play order. Every bust needs its ``table``
  (unless only one player busts).

A :class:`Placing` carries the shared range ``place .. place_to``; the results show ``place``
(e.g. "T-14" when ``place != place_to``). :func:`shared_prize` splits the prizes of a range.
Amounts are integers in the smallest currency unit used by the payout table. Pure Python.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from tourney.domain.house_rules_params import H4HMode

__all__ = [
    "Bust",
    "H4HMode",
    "Placing",
    "award_prizes",
    "places_for_busts",
    "remaining_after",
    "shared_prize",
]


@dataclass(frozen=True, slots=True)
class Bust:
    """One player eliminated in the hand."""

    entry_id: int
    start_stack: int | None
    """Chips at the start of the hand (>= 0); None = not given (see the module docstring)."""
    table: int | None
    """Table number where the player busted; needed only for hand-for-hand in ``wsop`` mode."""


@dataclass(frozen=True, slots=True)
class Placing:
    """The finishing place of one bust: the shared range ``place .. place_to`` (1 = winner)."""

    entry_id: int
    place: int
    """Best place of the shared range: what the results show ("T-14" if tied)."""
    place_to: int
    """Worst place of the range; == ``place`` when not tied."""

    @property
    def tied(self) -> bool:
        return self.place_to != self.place

    @property
    def sharers(self) -> int:
        """How many players share this range (its length)."""
        return self.place_to - self.place + 1


def remaining_after(remaining_before: int, busts: int) -> int:
    """Players still in after ``busts`` eliminations; raises ValueError if that is < 0."""
    if remaining_before < 0 or busts < 0 or busts > remaining_before:
        raise ValueError(
            f"cannot eliminate {busts} of {remaining_before} remaining players",
        )
    return remaining_before - busts


def _validate(remaining_before: int, busts: Sequence[Bust]) -> None:
    if remaining_before < 1:
        raise ValueError(f"remaining_before must be >= 1, got {remaining_before}")
    if not busts:
        raise ValueError("at least one bust is needed")
    if len(busts) > remaining_before:
        raise ValueError(f"{len(busts)} busts but only {remaining_before} players remain")
    repeated = sorted(e for e, k in Counter(b.entry_id for b in busts).items() if k > 1)
    if repeated:
        raise ValueError(f"entry ids bust more than once: {repeated}")
    negative = [b.entry_id for b in busts if b.start_stack is not None and b.start_stack < 0]
    if negative:
        raise ValueError(f"negative start stack for entries {negative}")
    known = sum(1 for b in busts if b.start_stack is not None)
    if 0 < known < len(busts):
        raise ValueError(
            f"start stacks must be given for every bust or for none ({known} of {len(busts)} given)"
        )


def _stack_rank_keys(busts: Iterable[Bust]) -> dict[int, int]:
    """Entry id -> sort key, larger stack first; unknown (None) stacks all tie."""
    return {b.entry_id: -(b.start_stack or 0) for b in busts}


def _table_rank_keys(busts: Sequence[Bust]) -> dict[int, int]:
    """Entry id -> table rank (see the module docstring, wsop mode)."""
    missing = [b.entry_id for b in busts if b.table is None]
    if missing:
        raise ValueError(f"hand-for-hand in wsop mode needs the table of entries {missing}")
    by_table: dict[int | None, list[int]] = defaultdict(list)
    for b in busts:
        by_table[b.table].append(b.start_stack or 0)
    return {
        b.entry_id: 1 + sum(1 for other in by_table[b.table] if other > (b.start_stack or 0))
        for b in busts
    }


def places_for_busts(
    remaining_before: int,
    busts: Sequence[Bust],
    *,
    hand_for_hand: bool = False,
    h4h_mode: H4HMode = "tda_rp8",
) -> tuple[Placing, ...]:
    """The places of the players busting in one hand (rules in the module docstring).

    ``remaining_before`` = players still in before this hand's eliminations. The ranges
    partition ``n-m+1 .. n`` exactly. Result ordered by place (best first), then entry id.
    Raises ValueError on bad input (no busts, more busts than players, a repeated entry id,
    a negative stack, stacks given for some busts only, a missing table in wsop mode).
    """
    _validate(remaining_before, busts)
    if len(busts) == 1:
        keys = {busts[0].entry_id: 0}
    elif not hand_for_hand:
        keys = _stack_rank_keys(busts)
    elif h4h_mode == "tda_rp8":
        keys = {b.entry_id: 0 for b in busts}
    elif h4h_mode == "wsop":
        keys = _table_rank_keys(busts)
    else:
        raise ValueError(f"unknown hand-for-hand mode {h4h_mode!r}")

    groups: dict[int, list[int]] = defaultdict(list)
    for b in busts:
        groups[keys[b.entry_id]].append(b.entry_id)

    placings: list[Placing] = []
    place = remaining_before - len(busts) + 1
    for key in sorted(groups):
        members = sorted(groups[key])
        place_to = place + len(members) - 1
        placings.extend(Placing(entry_id, place, place_to) for entry_id in members)
        place = place_to + 1
    return tuple(placings)


def shared_prize(
    prizes_by_place: Mapping[int, int],
    place: int,
    place_to: int,
    sharers: int,
    unit: int = 1,
) -> tuple[int, ...]:
    """Split the prizes of places ``place .. place_to`` among ``sharers`` players.

    Missing places pay 0. Each share is the same multiple of ``unit`` (rounded down); the
    leftover goes one ``unit`` at a time to the first players (the caller orders them), and
    a remainder smaller than ``unit`` goes to the first player. The shares always sum to
    the total exactly. Raises ValueError on a bad range, ``sharers < 1``, ``unit < 1`` or a
    negative prize in the range.
    """
    if place < 1 or place_to < place:
        raise ValueError(f"bad place range {place}..{place_to}")
    if sharers < 1:
        raise ValueError(f"sharers must be >= 1, got {sharers}")
    if unit < 1:
        raise ValueError(f"unit must be >= 1, got {unit}")
    prizes = [prizes_by_place.get(p, 0) for p in range(place, place_to + 1)]
    if any(prize < 0 for prize in prizes):
        raise ValueError(f"negative prize in places {place}..{place_to}")
    total = sum(prizes)
    units, odd = divmod(total, unit)
    each, leftover = divmod(units, sharers)
    shares = [(each + (1 if i < leftover else 0)) * unit for i in range(sharers)]
    shares[0] += odd
    return tuple(shares)


def award_prizes(
    placings: Iterable[Placing], prizes_by_place: Mapping[int, int], unit: int = 1
) -> dict[int, int]:
    """Entry id -> prize for the placings of one hand (or any set of whole ranges).

    Players sharing a range split it with :func:`shared_prize`; the leftover units go to the
    sharers in the order they appear in ``placings`` (``places_for_busts`` gives entry-id
    order). Raises ValueError if the number of players holding a range differs from its length.
    """
    ranges: dict[tuple[int, int], list[int]] = defaultdict(list)
    for placing in placings:
        ranges[(placing.place, placing.place_to)].append(placing.entry_id)
    awarded: dict[int, int] = {}
    for (place, place_to), entries in ranges.items():
        if len(entries) != place_to - place + 1:
            raise ValueError(
                f"places {place}..{place_to} are held by {len(entries)} players: {entries}"
            )
        shares = shared_prize(prizes_by_place, place, place_to, len(entries), unit)
        awarded.update(zip(entries, shares, strict=True))
    return awarded
