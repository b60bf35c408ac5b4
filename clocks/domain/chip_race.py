"""Color-up at a break (docs/rules.md §8): round every stack up (Method A) or race off the odd
chips (Method B, TDA 24).

Units:
- :func:`round_up_stacks` works in chip *values* (a stack of 1,100 is 1,100 whatever chips
  make it up).
- The race works in chip *counts*, per table: ``k`` = value of the new smallest chip D divided
  by the value of the chip being removed (k >= 2). A seat's odd chips ``o`` are the removed
  chips left over after changing up whole groups of k (0 <= o < k); its remaining chips are
  the D-chips it holds after that change-up. Values in the result are multiples of
  ``old_value``, the value of one removed chip (1 by default, i.e. in units of that chip).

Invariants of the race (tested with hypothesis):
- nobody holding chips before the race is left without a chip after it;
- each seat gets at most one D chip;
- the chips in play change by the race rounding, ``(N * k - O) * old_value`` (strictly less
  than one D chip either way), plus one D chip for each chip given beyond the N raced.

A seat with neither odd nor remaining chips is not a player in the race (already out) and is
left alone.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from tables.domain.cards import Card, full_deck
from tourney.domain.refusal import N_, RuleError

__all__ = [
    "ChipRace",
    "ChipRaceError",
    "FoundChips",
    "RacePlan",
    "RaceRounding",
    "RoundUp",
    "ZeroStackChip",
    "chip_race",
    "found_chips_exchange",
    "plan_race",
    "race_chip_count",
    "round_up_stacks",
]

RaceRounding = Literal["half_up", "up", "down"]
ZeroStackChip = Literal["extra", "from_pool"]

_ROUNDINGS = ("half_up", "up", "down")
_ZERO_STACK = ("extra", "from_pool")
DECK_SIZE = 52


class ChipRaceError(RuleError):
    """A refused color-up; ``code`` is stable for the API, ``template`` (English, %-style, marked
    for translation) and ``params`` let the caller translate, ``message`` is the English text."""


# --- Method A: round up ------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundUp:
    """Stacks after rounding up to the smallest chip still in play (chip values)."""

    new_stacks: dict[int, int]
    """Seat (or any key) -> new stack; a multiple of the denomination, never smaller."""
    increases: dict[int, int]
    """Seat -> chips added (0 <= increase < denomination)."""
    total_increase: int
    """Growth of the chips in play; the log records it."""


def round_up_stacks(stacks: Mapping[int, int], denomination: int) -> RoundUp:
    """Method A (Doyle #56, docs/rules.md §8.2): every stack goes up to the next multiple of
    ``denomination``, the smallest chip value still in play. Nobody ends with fewer chips; an empty
    stack stays empty."""
    if not isinstance(denomination, int) or denomination < 1:
        raise ChipRaceError(
            "bad_denomination",
            N_("The chip value must be a positive whole number, not %(value)s."),
            value=denomination,
        )
    negative = sorted(seat for seat, stack in stacks.items() if stack < 0)
    if negative:
        raise ChipRaceError(
            "negative", N_("Negative stacks at seats %(seats)s."), seats=_seats_text(negative)
        )
    new_stacks = {seat: -(-stack // denomination) * denomination for seat, stack in stacks.items()}
    increases = {seat: new_stacks[seat] - stack for seat, stack in stacks.items()}
    return RoundUp(new_stacks, increases, sum(increases.values()))


# --- Method B: the race ------------------------------------------------------------------------


def race_chip_count(total_odd: int, k: int, rounding: RaceRounding) -> int:
    """N, the number of D chips to race for ``total_odd`` removed chips (docs/rules.md §8.3):
    whole groups of ``k``, plus one when the remainder r rounds up: ``half_up`` when
    2r >= k (RRoP), ``up`` when r > 0, never for ``down``."""
    _check_k(k)
    if rounding not in _ROUNDINGS:
        raise ChipRaceError(
            "bad_rounding",
            N_("Unknown race rounding %(rounding)s (half_up, up or down)."),
            rounding=rounding,
        )
    if total_odd < 0:
        raise ChipRaceError("negative", N_("The number of odd chips cannot be negative."))
    groups, rest = divmod(total_odd, k)
    if rest and (rounding == "up" or (rounding == "half_up" and 2 * rest >= k)):
        groups += 1
    return groups


@dataclass(frozen=True)
class RacePlan:
    """What happens before any card is dealt: who races and who needs cards."""

    k: int
    total_odd: int
    """O, the removed chips at the table (a count of the old chip)."""
    race_chips: int
    """N after rounding: the D chips the table's odd chips are worth."""
    zero_stack_seats: tuple[int, ...]
    """Seats that hold only odd chips: they would be left with nothing if they lose."""
    pooled_seats: tuple[int, ...]
    """``from_pool``: zero-stack seats given their chip before the race (out of N while it
    lasts; beyond N they are extra chips). Empty for ``extra``."""
    racers: tuple[int, ...]
    """Seats racing for the chips left, in deal order (clockwise from the start seat)."""
    chips_to_race: int
    """Chips the racers compete for: N minus the pooled chips, never below 0."""
    deal_order: tuple[int, ...]
    """Seats to deal to, in order; empty when the cards could not change the outcome (nobody
    can win, or every racer wins)."""
    cards_needed: dict[int, int]
    """Seat in ``deal_order`` -> cards to deal (its odd chip count)."""


def _checked_counts(
    odd_chips: Mapping[int, int],
    remaining_chips: Mapping[int, int],
    k: int,
    zero_stack: ZeroStackChip,
    start_seat: int,
) -> tuple[dict[int, int], dict[int, int]]:
    """The dealer's counts per seat (odd chips, D chips held), each seat in both, refused as
    `plan_race` says."""
    _check_k(k)
    if zero_stack not in _ZERO_STACK:
        raise ChipRaceError(
            "bad_zero_stack",
            N_("Unknown zero-stack rule %(rule)s (extra or from_pool)."),
            rule=zero_stack,
        )
    seats = set(odd_chips) | set(remaining_chips)
    bad_seats = [s for s in (*seats, start_seat) if not isinstance(s, int) or s < 1]
    if bad_seats:
        raise ChipRaceError(
            "bad_seat",
            N_("Seats are numbered from 1, not %(seats)s."),
            seats=_seats_text(bad_seats),
        )
    odd = {seat: odd_chips.get(seat, 0) for seat in seats}
    held = {seat: remaining_chips.get(seat, 0) for seat in seats}
    negative = sorted(s for s in seats if odd[s] < 0 or held[s] < 0)
    if negative:
        raise ChipRaceError(
            "negative", N_("Negative chip counts at seats %(seats)s."), seats=_seats_text(negative)
        )
    too_many = sorted(s for s in seats if odd[s] >= k)
    if too_many:
        # Whole groups of k must be changed up first; otherwise one player could win chips
        # worth more than a D chip and N could exceed the number of players racing.
        raise ChipRaceError(
            "odd_chips_too_many",
            N_(
                "Seats %(seats)s have %(k)s or more odd chips: change up every full group of "
                "%(k)s first."
            ),
            seats=_seats_text(too_many),
            k=k,
        )
    return odd, held


def plan_race(
    odd_chips: Mapping[int, int],
    remaining_chips: Mapping[int, int],
    k: int,
    rounding: RaceRounding,
    zero_stack: ZeroStackChip,
    start_seat: int = 1,
) -> RacePlan:
    """Validate the dealer's counts and plan the race (docs/rules.md §8.3, §8.4).

    ``odd_chips``: seat -> o, the odd count of the removed chip (0 <= o < k); ``remaining_chips``:
    seat -> D chips held after the change-up. A seat missing from either mapping has 0 there.
    Refused: k < 2 (``bad_k``), a negative count (``negative``), o >= k
    (``odd_chips_too_many``), seats not numbered from 1 (``bad_seat``), more than 52 cards to
    deal (``too_many_cards``), unknown rounding or zero-stack rule.
    """
    odd, held = _checked_counts(odd_chips, remaining_chips, k, zero_stack, start_seat)
    seats = set(odd)

    total_odd = sum(odd.values())
    race_chips = race_chip_count(total_odd, k, rounding)
    clockwise = sorted((s for s in seats if odd[s] > 0), key=lambda s: (s < start_seat, s))
    zero_stack_seats = tuple(s for s in clockwise if held[s] == 0)
    pooled = zero_stack_seats if zero_stack == "from_pool" else ()
    racers = tuple(s for s in clockwise if s not in pooled)
    chips_to_race = max(0, race_chips - len(pooled))
    decided = chips_to_race == 0 or chips_to_race >= len(racers)
    deal_order = () if decided else racers
    cards_needed = {seat: odd[seat] for seat in deal_order}
    if sum(cards_needed.values()) > DECK_SIZE:
        raise ChipRaceError(
            "too_many_cards",
            N_(
                "The race needs %(cards)s cards but a deck has %(deck)s: change up in two "
                "steps or round the stacks up."
            ),
            cards=sum(cards_needed.values()),
            deck=DECK_SIZE,
        )
    return RacePlan(
        k=k,
        total_odd=total_odd,
        race_chips=race_chips,
        zero_stack_seats=zero_stack_seats,
        pooled_seats=pooled,
        racers=racers,
        chips_to_race=chips_to_race,
        deal_order=deal_order,
        cards_needed=cards_needed,
    )


@dataclass(frozen=True)
class ChipRace:
    """The outcome of one table's race. Counts are D chips unless named otherwise; values are
    multiples of ``old_value`` (see the module docstring)."""

    plan: RacePlan
    cards: dict[int, tuple[Card, ...]]
    """Seat -> the cards it was dealt, in deal order (empty when no deal was needed)."""
    ranking: tuple[int, ...]
    """Dealt seats, best single card first."""
    winners: tuple[int, ...]
    """Seats that won a chip in the race, best card first."""
    zero_stack_chips: tuple[int, ...]
    """Seats given a chip so they are not raced out: the pooled seats (``from_pool``) and,
    for ``extra``, zero-stack seats that did not win."""
    extra_chips: int
    """D chips given beyond the N the odd chips were worth."""
    new_chips: dict[int, int]
    """Seat -> D chips held after the race (every seat of the input)."""
    chips_removed_value: int
    """Value of the odd chips taken off the table: O x old_value."""
    chips_added_value: int
    """Value of the D chips handed out: (N + extra) x k x old_value."""

    @property
    def deal_order(self) -> tuple[int, ...]:
        """Seats dealt to, in deal order (see :class:`RacePlan`)."""
        return self.plan.deal_order

    @property
    def chips_in_play_change(self) -> int:
        """Added minus removed value: the race rounding plus the extra chips."""
        return self.chips_added_value - self.chips_removed_value

    @property
    def awarded(self) -> tuple[int, ...]:
        """Every seat receiving a D chip, in seat order."""
        return tuple(sorted({*self.winners, *self.zero_stack_chips}))


def chip_race(
    odd_chips: Mapping[int, int],
    remaining_chips: Mapping[int, int],
    k: int,
    rounding: RaceRounding,
    zero_stack: ZeroStackChip,
    rng: random.Random | None = None,
    cards: Mapping[int, Sequence[Card]] | None = None,
    start_seat: int = 1,
    *,
    old_value: int = 1,
) -> ChipRace:
    """Race off one table's odd chips (docs/rules.md §8.3, TDA 24).

    Seats racing (odd chips > 0, minus pooled zero-stack seats) are dealt one card per odd
    chip, clockwise from ``start_seat``, one player's cards before the next player's; the best
    single card (rank, then suit) wins first. The top ``chips_to_race`` seats each get one D
    chip; a seat left with nothing gets one (``extra``: after the race, on top of N;
    ``from_pool``: before anyone else, out of N). Give ``cards`` (seat -> the real cards dealt,
    exactly o per dealt seat, see :func:`plan_race`) or ``rng`` for a virtual deal from one
    shuffled deck. Refused, besides :func:`plan_race`'s checks: missing deal (``no_deal``),
    wrong number of cards or cards for a seat not dealt to (``card_count``), a card seen twice
    (``duplicate_card``).
    """
    if not isinstance(old_value, int) or old_value < 1:
        raise ChipRaceError(
            "bad_denomination",
            N_("The chip value must be a positive whole number, not %(value)s."),
            value=old_value,
        )
    plan = plan_race(odd_chips, remaining_chips, k, rounding, zero_stack, start_seat)
    if cards is not None:
        dealt = _recorded_cards(plan, cards)
    elif plan.deal_order and rng is None:
        raise ChipRaceError("no_deal", N_("Record the cards dealt or let the system deal them."))
    else:
        dealt = _virtual_deal(plan, rng) if plan.deal_order else {}

    ranking = tuple(sorted(dealt, key=lambda seat: max(dealt[seat]), reverse=True))
    if plan.deal_order:
        winners = ranking[: plan.chips_to_race]
    else:
        # Nothing for cards to decide: every racer wins, or nobody does.
        winners = plan.racers if plan.chips_to_race else ()
    if zero_stack == "from_pool":
        zero_stack_chips = plan.pooled_seats
    else:
        zero_stack_chips = tuple(s for s in plan.zero_stack_seats if s not in winners)
    given = len(winners) + len(zero_stack_chips)
    extra = given - plan.race_chips

    seats = set(odd_chips) | set(remaining_chips)
    awarded = set(winners) | set(zero_stack_chips)
    new_chips = {
        seat: remaining_chips.get(seat, 0) + (1 if seat in awarded else 0) for seat in sorted(seats)
    }
    return ChipRace(
        plan=plan,
        cards=dealt,
        ranking=ranking,
        winners=winners,
        zero_stack_chips=zero_stack_chips,
        extra_chips=extra,
        new_chips=new_chips,
        chips_removed_value=plan.total_odd * old_value,
        chips_added_value=given * k * old_value,
    )


def _virtual_deal(plan: RacePlan, rng: random.Random) -> dict[int, tuple[Card, ...]]:
    deck = full_deck()
    rng.shuffle(deck)
    dealt: dict[int, tuple[Card, ...]] = {}
    position = 0
    for seat in plan.deal_order:
        count = plan.cards_needed[seat]
        dealt[seat] = tuple(deck[position : position + count])
        position += count
    return dealt


def _recorded_cards(
    plan: RacePlan, cards: Mapping[int, Sequence[Card]]
) -> dict[int, tuple[Card, ...]]:
    wrong = sorted(
        seat
        for seat in set(cards) | set(plan.cards_needed)
        if len(cards.get(seat, ())) != plan.cards_needed.get(seat, 0)
    )
    if wrong:
        raise ChipRaceError(
            "card_count",
            N_("Seats %(seats)s need exactly one card per odd chip (%(expected)s)."),
            seats=_seats_text(wrong),
            expected=", ".join(f"{s}: {plan.cards_needed.get(s, 0)}" for s in wrong),
        )
    seen: set[Card] = set()
    repeated: list[Card] = []
    for seat in plan.deal_order:
        for card in cards[seat]:
            if not isinstance(card, Card):
                raise ChipRaceError(
                    "bad_card",
                    N_("Seat %(seat)s: %(card)s is not a card."),
                    seat=seat,
                    card=repr(card),
                )
            if card in seen:
                repeated.append(card)
            seen.add(card)
    if repeated:
        raise ChipRaceError(
            "duplicate_card",
            N_("Cards recorded more than once: %(cards)s."),
            cards=", ".join(c.label for c in repeated),
        )
    return {seat: tuple(cards[seat]) for seat in plan.deal_order}


def _check_k(k: int) -> None:
    if not isinstance(k, int) or isinstance(k, bool) or k < 2:
        raise ChipRaceError(
            "bad_k",
            N_(
                "The new chip must be worth a whole number (2 or more) of the removed chip, "
                "not %(k)s."
            ),
            k=k,
        )


def _seats_text(seats: Sequence[object]) -> str:
    return ", ".join(str(s) for s in seats)


# --- chips found after the color-up (TDA 24-C) -------------------------------------------------


@dataclass(frozen=True)
class FoundChips:
    """Removed-colour chips found after a table colored up, exchanged at equal value only."""

    exchanged: int
    """Value given back in D chips: the largest multiple of the denomination in the find."""
    removed: int
    """Value taken out of play without compensation (less than one D chip)."""


def found_chips_exchange(value: int, denomination: int) -> FoundChips:
    """TDA 24-C as docs/rules.md §8.5 reads it: ``value`` of removed-colour chips found
    later becomes ``value // D`` chips of D; the rest (below D) leaves play."""
    if not isinstance(denomination, int) or denomination < 1:
        raise ChipRaceError(
            "bad_denomination",
            N_("The chip value must be a positive whole number, not %(value)s."),
            value=denomination,
        )
    if not isinstance(value, int) or value < 1:
        raise ChipRaceError("negative", N_("Say the value of the chips found (more than 0)."))
    exchanged = value // denomination * denomination
    return FoundChips(exchanged, value - exchanged)
