"""A festival's main event: flights, bag and tag, chip counts and the Day-2 field
(docs/rules.md §15).

Pure functions. Chips are chip units; a big blind count is tenths rounded down (a stack of
12,345 at a 1,000 big blind is 12.3 BB); ranks are 1-based competition ranks (equal stacks
share a rank, the next rank skips: 1, 2, 2, 4).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

FlightSurvivor = Literal["keep_bigger", "refuse_after_bag"]
"""§15.2: a player who bags in one flight and plays another: he keeps the bigger of his bags
(`keep_bigger`), or a later flight refuses him once he has bagged (`refuse_after_bag`)."""

Day2Draw = Literal["random", "spread_stacks"]
"""§15.5: the Day-2 seats at random, or at random with the biggest stacks one a table."""


@dataclass(frozen=True, slots=True)
class Bag:
    """A flight survivor's bag: `chips` counted at the end of his flight's day; `order` is the
    bag's place in time (smaller = bagged earlier), which settles equal bags of one player."""

    entry_id: int
    player_id: int
    chips: int
    order: int


@dataclass(frozen=True, slots=True)
class StackRank:
    rank: int
    entry_id: int
    chips: int


def flight_entry_refusal(
    rule: FlightSurvivor, *, bagged_elsewhere: bool, playing_elsewhere: bool
) -> str | None:
    """Why a flight refuses a player's entry, or None: he is playing another flight of the same
    main event now (`playing_another_flight`: one seat at a time), or he has bagged in another
    flight and the house refuses a later flight after a bag (`already_bagged`)."""
    if playing_elsewhere:
        return "playing_another_flight"
    if bagged_elsewhere and rule == "refuse_after_bag":
        return "already_bagged"
    return None


def day2_field(bags: Iterable[Bag], rule: FlightSurvivor) -> tuple[list[Bag], list[Bag]]:
    """The bags that play Day 2 and those set aside: one bag a player, the bigger (equal bags:
    the earlier). Under `refuse_after_bag` a second bag cannot be made, but one made before
    the rule changed is settled the same way. Both lists by entry id; every bag is in exactly
    one of them."""
    every = sorted(bags, key=lambda b: b.entry_id)
    best: dict[int, Bag] = {}
    for bag in every:
        kept = best.get(bag.player_id)
        if kept is None or (bag.chips, -bag.order) > (kept.chips, -kept.order):
            best[bag.player_id] = bag
    kept_ids = {b.entry_id for b in best.values()}
    return (
        [b for b in every if b.entry_id in kept_ids],
        [b for b in every if b.entry_id not in kept_ids],
    )


def chip_ranks(stacks: Mapping[int, int]) -> list[StackRank]:
    """The chip leaders first: `stacks` maps entry id to chips; equal stacks share a rank and
    are listed by entry id."""
    ordered = sorted(stacks.items(), key=lambda item: (-item[1], item[0]))
    ranks: list[StackRank] = []
    for i, (entry_id, chips) in enumerate(ordered):
        same = ranks and ranks[-1].chips == chips
        ranks.append(StackRank(ranks[-1].rank if same else i + 1, entry_id, chips))
    return ranks


def big_blinds(chips: int, big_blind: int | None) -> float | None:
    """The stack in big blinds, to a tenth rounded down; None without a big blind."""
    if not big_blind:
        return None
    return (chips * 10 // big_blind) / 10


def counts_missing(players_left: Iterable[int], counted: Mapping[int, int | None]) -> list[int]:
    """The players left (entry ids) with no count yet, ascending: the end of the day waits
    for them."""
    return sorted(e for e in players_left if counted.get(e) is None)


def counts_difference(counted: Sequence[int], chips_in_play: int) -> int:
    """What the counts miss (negative) or have over (positive) against the chips in play:
    0 when the bags hold every chip."""
    return sum(counted) - chips_in_play


def counts_refusal(counts: Sequence[tuple[int, int]], allowed: Iterable[int]) -> str | None:
    """Why a batch of counts (entry id, chips) is refused: an entry twice (`duplicate_entry`),
    one that is not a player left here (`entry_not_counted`); None when it can be stored."""
    ids = [entry_id for entry_id, _chips in counts]
    if len(set(ids)) != len(ids):
        return "duplicate_entry"
    if set(ids) - set(allowed):
        return "entry_not_counted"
    return None


def spread_order(stacks: Mapping[int, int]) -> list[int]:
    """Entry ids by stack, biggest first (equal stacks by entry id): the order in which the
    Day-2 draw deals players to its tables, one a table a round (`spread_stacks`)."""
    return [r.entry_id for r in chip_ranks(stacks)]


def day_end_state(level: int | None, next_level: int | None, day_end_level: int) -> str | None:
    """Where a flight stands against its last level of the day (docs/rules.md §15.3): `last`
    while that level is played, `played` once the clock is past it (a later level, or the
    break after it), None before. Levels are 1-based, None on a break."""
    if level is None:
        return "played" if next_level is not None and next_level > day_end_level else None
    if level > day_end_level:
        return "played"
    return "last" if level == day_end_level else None


@dataclass(frozen=True, slots=True)
class Day1Bust:
    """A player out in a flight: `hand` names the hand (flight, bust group: players out in one
    hand share their places), `order` the instant (bigger = later)."""

    entry_id: int
    player_id: int
    hand: tuple[int, int]
    order: int


def day1_places(
    busts: Iterable[Day1Bust], day2_players: Iterable[int], field: int, paid: int
) -> list[tuple[int, int, int]]:
    """(entry id, place, place_to) of the players out on Day 1 who reach the money
    (docs/rules.md §15.5): when the places paid (`paid`) pass the Day-2 field (`field`), the
    last players out across every flight, the latest first, take places field + 1, ...; the
    players of one hand share their range; a player in Day 2, or out again later, is counted
    once (his latest, or not at all). [] when Day 2 holds every paid place."""
    counted = set(day2_players)
    hands: dict[tuple[int, int], list[int]] = {}
    for bust in sorted(busts, key=lambda b: -b.order):
        if bust.player_id in counted:
            continue
        counted.add(bust.player_id)
        hands.setdefault(bust.hand, []).append(bust.entry_id)
    places: list[tuple[int, int, int]] = []
    place = field + 1
    for members in hands.values():
        if place > paid:
            break
        places += [(e, place, place + len(members) - 1) for e in sorted(members)]
        place += len(members)
    return places
