"""Button and blind positions of a table, hand after hand (docs/rules.md §4).

Seats are numbered 1..seats clockwise and wrap from `seats` back to 1. "After x" always
means strictly after x going clockwise. Positions are seat numbers, never player ids: the
dead-button rule moves positions, and a position may fall on an empty seat.
"""

from collections.abc import Collection, Iterator
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True)
class Blinds:
    """The button, small-blind and big-blind seats of ONE hand.

    `small_blind` is None when no small blind is posted because the small-blind position is
    an empty seat (its player busted as big blind). `dead_small_blind` then records that empty
    seat, so the next hand's dead button lands exactly there; it is optional (keyword-only)
    and, when unknown, the next hand falls back to the first seat after the button. Heads-up,
    `button == small_blind`. `big_blind` is always an occupied seat.
    """

    button: int
    small_blind: int | None
    big_blind: int
    dead_small_blind: int | None = field(default=None, kw_only=True)

    def __post_init__(self) -> None:
        if self.small_blind is not None and self.dead_small_blind is not None:
            raise ValueError("dead_small_blind is only meaningful when small_blind is None")
        if self.small_blind == self.big_blind or self.button == self.big_blind:
            raise ValueError(f"the big blind cannot share a seat with another position: {self}")


def _clockwise_after(seat: int, seats: int) -> Iterator[int]:
    """Every seat once, starting right after `seat` and ending with `seat` itself."""
    yield from range(seat + 1, seats + 1)
    yield from range(1, seat + 1)


def _counterclockwise_before(seat: int, seats: int) -> Iterator[int]:
    """Every seat once, starting right before `seat` and ending with `seat` itself."""
    yield from range(seat - 1, 0, -1)
    yield from range(seats, seat - 1, -1)


def _between(start: int, end: int, seats: int) -> frozenset[int]:
    """Seats strictly between `start` and `end` going clockwise (empty when they are equal)."""
    if start == end:
        return frozenset()
    if start < end:
        return frozenset(range(start + 1, end))
    return frozenset(range(start + 1, seats + 1)) | frozenset(range(1, end))


def _check_seat(seat: int, seats: int, what: str) -> None:
    if not 1 <= seat <= seats:
        raise ValueError(f"{what} seat {seat} is outside 1..{seats}")


def _occupied_set(occupied: Collection[int], seats: int) -> frozenset[int]:
    if seats < 2:
        raise ValueError(f"a table needs at least 2 seats, got {seats}")
    occ = frozenset(occupied)
    for seat in occ:
        _check_seat(seat, seats, "occupied")
    if len(occ) < 2:
        raise ValueError(f"blinds need at least 2 players, got {len(occ)}")
    return occ


def _next_occupied(seat: int, occupied: frozenset[int], seats: int) -> int:
    return next(s for s in _clockwise_after(seat, seats) if s in occupied)


def first_hand_blinds(button_seat: int, occupied: Collection[int], seats: int) -> Blinds:
    """Positions of the first hand once the button is drawn (or placed) at `button_seat`.

    `button_seat` must be occupied; `occupied` needs at least 2 seats within 1..seats.
    SB = first occupied seat after the button, BB = first occupied seat after the SB.
    Heads-up the button posts the SB and the other player the BB (TDA 34-B).
    """
    occ = _occupied_set(occupied, seats)
    if button_seat not in occ:
        raise ValueError(f"the button seat {button_seat} is not occupied")
    if len(occ) == 2:
        return Blinds(button_seat, button_seat, _next_occupied(button_seat, occ, seats))
    small_blind = _next_occupied(button_seat, occ, seats)
    return Blinds(button_seat, small_blind, _next_occupied(small_blind, occ, seats))


def next_hand_blinds(
    previous: Blinds, occupied: Collection[int], seats: int, *, dead_button: bool = True
) -> Blinds:
    """Positions of the next hand from the last hand's, by the dead-button rule (TDA 32), or
    with `dead_button` False by the moving button (Atlas 004:86, docs/rules.md §4.1): the
    button goes to the next player after it, the blinds follow it (`moving_button_blinds`).

    `occupied` is the seats holding a player at the start of the next hand (>= 2 of them).
    - BB = first occupied seat after the previous BB, so the BB moves one player per hand and
      everyone posts it exactly once per orbit; nobody is BB twice in a row.
    - SB = the previous BB's seat, or None (no SB posted) when that seat is now empty.
    - BTN = the previous hand's SB position: `previous.small_blind`, or when no SB was posted,
      `previous.dead_small_blind`, or if that is unknown the first seat after the previous
      button (exact whenever the busted BB sat right after the SB position). The button may
      therefore sit on an empty seat (dead button).
    - Heads-up (2 occupied): BB as above; the other player is both BTN and SB. Coming down
      from 3+ players this is what keeps anyone from being BB twice in a row (docs/rules.md
      §4.6 examples 2 and 3).
    - Leaving heads-up (players join a 2-player table), the old BTN/SB seat may be the new BB
      or lie beyond it; then the button goes to the last occupied seat before the SB position,
      so the order clockwise is always BTN, SB, BB.
    """
    if not dead_button:
        return moving_button_blinds(previous, occupied, seats)
    occ = _occupied_set(occupied, seats)
    _check_seat(previous.big_blind, seats, "previous big blind")
    big_blind = _next_occupied(previous.big_blind, occ, seats)
    if len(occ) == 2:
        (other,) = occ - {big_blind}
        return Blinds(other, other, big_blind)
    if previous.small_blind is not None:
        button = previous.small_blind
    elif previous.dead_small_blind is not None:
        button = previous.dead_small_blind
    else:
        _check_seat(previous.button, seats, "previous button")
        button = previous.button % seats + 1
    _check_seat(button, seats, "button")
    if button not in _between(big_blind, previous.big_blind, seats):
        # Only when a heads-up table gains players: the old BTN/SB seat may now be due the BB or
        # lie past it, so the button goes to the last player before the SB position instead.
        button = next(s for s in _counterclockwise_before(previous.big_blind, seats) if s in occ)
    if previous.big_blind in occ:
        return Blinds(button, previous.big_blind, big_blind)
    return Blinds(button, None, big_blind, dead_small_blind=previous.big_blind)


def moving_button_blinds(previous: Blinds, occupied: Collection[int], seats: int) -> Blinds:
    """The moving button: the button moves to the first player after the previous button (an
    emptied seat is skipped: the button never sits on an empty seat), then SB and BB are the
    next players after it, as in the first hand. A player may so miss a big blind or post it
    twice when players leave; the house accepts that in exchange for a simpler table."""
    occ = _occupied_set(occupied, seats)
    _check_seat(previous.button, seats, "previous button")
    return first_hand_blinds(_next_occupied(previous.button, occ, seats), occ, seats)


def seats_not_dealt(blinds: Blinds, seats: int) -> frozenset[int]:
    """Seats where a newcomer is not dealt in this hand: strictly between BTN and SB, clockwise.

    When no SB is posted (`small_blind` None) the zone runs from the button up to the big blind,
    both excluded: whoever sat there would take the small-blind position without posting it.
    Heads-up (button == SB) the zone is empty. Example: BTN s2, SB s5 -> {3, 4}.
    """
    end = blinds.small_blind if blinds.small_blind is not None else blinds.big_blind
    _check_seat(blinds.button, seats, "button")
    _check_seat(end, seats, "blind")
    return _between(blinds.button, end, seats)


def next_big_blind_seat(blinds: Blinds, occupied: Collection[int], seats: int) -> int:
    """The seat that posts the BB next hand: first occupied seat after `blinds.big_blind`.

    Same as `next_hand_blinds(blinds, occupied, seats).big_blind`; needs >= 2 occupied seats.
    """
    occ = _occupied_set(occupied, seats)
    _check_seat(blinds.big_blind, seats, "big blind")
    return _next_occupied(blinds.big_blind, occ, seats)


def restored_blinds(stored: Blinds, occupied: Collection[int], seats: int) -> Blinds:
    """Positions of the hand about to be dealt at a table that comes back into play (the undo
    of its break) with `occupied` players (docs/rules.md §4.7).

    `stored` were set for that hand by the dead-button rule (§4.1) when the table broke. When
    their big-blind seat still holds a player they stand. Otherwise (its player has busted
    since) they are set again as the rule would have set them without him: BB = the first
    occupied seat after the previous hand's BB (the stored small-blind position: `small_blind`,
    else `dead_small_blind`); SB = that previous BB's seat, or none posted when it is empty;
    the button stays unless the new BB reaches it (then the last player before the SB
    position). Heads-up: the other player is button and small blind.
    """
    occ = _occupied_set(occupied, seats)
    if stored.big_blind in occ:
        return stored
    previous_bb = next(
        s for s in (stored.small_blind, stored.dead_small_blind, stored.big_blind) if s is not None
    )
    _check_seat(previous_bb, seats, "previous big blind")
    big_blind = _next_occupied(previous_bb, occ, seats)
    if len(occ) == 2:
        (other,) = occ - {big_blind}
        return Blinds(other, other, big_blind)
    button = stored.button
    if button not in _between(big_blind, previous_bb, seats):
        button = next(s for s in _counterclockwise_before(previous_bb, seats) if s in occ)
    if previous_bb in occ:
        return Blinds(button, previous_bb, big_blind)
    return Blinds(button, None, big_blind, dead_small_blind=previous_bb)
