"""Satellites (docs/rules.md §17): a tournament whose prize pool buys seats in a target event.
Money in the currency's units (integers); a seat is worth the target's buy-in plus fee unless
the house sets another value."""

from collections.abc import Mapping
from dataclasses import dataclass

# What becomes of the prize pool left over once the whole seats are bought (docs/rules.md
# §17.2): cash to the next place, shared among the seat winners, or a partial seat (a ticket
# worth the rest) to the next place.
LEFTOVER_RULES = ("next_place", "shared", "partial_seat")
# A player who holds a seat of the target already (§17.5): he plays for the seat's value in
# cash, or the satellite does not take his entry.
SEAT_HOLDER_RULES = ("cash", "refuse")
# More seats than a room's biggest field is a seat value typed wrong.
MAX_SEATS = 10_000


class SatelliteError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Satellite:
    """A tournament's satellite terms: the target event, a seat's value (None: the target's
    buy-in plus fee) and the leftover's rule (§17.2)."""

    target_id: int
    seat_value: int | None = None
    leftover: str = "next_place"
    seat_holder: str = "cash"

    def __post_init__(self) -> None:
        if self.target_id < 1:
            raise SatelliteError("invalid_target", "a satellite names its target event")
        if self.seat_value is not None and self.seat_value < 1:
            raise SatelliteError("invalid_seat_value", "a seat is worth at least 1")
        if self.leftover not in LEFTOVER_RULES:
            raise SatelliteError("invalid_leftover_rule", f"unknown rule {self.leftover!r}")
        if self.seat_holder not in SEAT_HOLDER_RULES:
            raise SatelliteError("invalid_seat_holder_rule", f"unknown rule {self.seat_holder!r}")


def satellite_from(data: Mapping | None) -> Satellite | None:
    """The tournament's stored satellite (`Tournament.satellite`, {} for none)."""
    if not data:
        return None
    value = data.get("seat_value")
    return Satellite(
        target_id=int(data["target_id"]),
        seat_value=None if value is None else int(value),
        leftover=data.get("leftover", "next_place"),
        seat_holder=data.get("seat_holder", "cash"),
    )


def satellite_data(satellite: Satellite | None) -> dict:
    """What `satellite_from` reads back."""
    if satellite is None:
        return {}
    return {
        "target_id": satellite.target_id,
        "seat_value": satellite.seat_value,
        "leftover": satellite.leftover,
        "seat_holder": satellite.seat_holder,
    }


@dataclass(frozen=True, slots=True)
class SatellitePrize:
    """A place's prize: a ticket to the target worth `ticket` (0: none) and `cash`."""

    place: int
    ticket: int
    cash: int


def seats_bought(prize_pool: int, seat_value: int) -> tuple[int, int]:
    """The whole seats the pool buys and what is left over: (seats, leftover), with
    seats * seat_value + leftover == prize_pool."""
    if seat_value < 1:
        raise SatelliteError("invalid_seat_value", "a seat is worth at least 1")
    if prize_pool < 0:
        raise SatelliteError("negative", "the prize pool cannot be negative")
    return divmod(prize_pool, seat_value)


def satellite_prizes(prize_pool: int, seat_value: int, leftover_rule: str) -> list[SatellitePrize]:
    """The places paid, 1st first: places 1..seats each a seat; the leftover by the house's
    rule. `shared`: split equally among the seat winners, the odd units one each from 1st
    down. With no whole seat the pool goes to 1st (a partial seat under `partial_seat`, else
    cash). Invariant: the tickets and the cash sum to the prize pool."""
    if leftover_rule not in LEFTOVER_RULES:
        raise SatelliteError("invalid_leftover_rule", f"unknown rule {leftover_rule!r}")
    seats, rest = seats_bought(prize_pool, seat_value)
    if seats > MAX_SEATS:
        raise SatelliteError("too_many_seats", f"more than {MAX_SEATS} seats")
    if seats == 0:
        if prize_pool == 0:
            return []
        partial = leftover_rule == "partial_seat"
        return [SatellitePrize(1, prize_pool if partial else 0, 0 if partial else prize_pool)]
    cash = [0] * seats
    if leftover_rule == "shared":
        share, odd = divmod(rest, seats)
        cash = [share + (1 if i < odd else 0) for i in range(seats)]
    prizes = [SatellitePrize(i + 1, seat_value, cash[i]) for i in range(seats)]
    if rest and leftover_rule == "next_place":
        prizes.append(SatellitePrize(seats + 1, 0, rest))
    elif rest and leftover_rule == "partial_seat":
        prizes.append(SatellitePrize(seats + 1, rest, 0))
    return prizes


def satellite_over(players_left: int, seats: int) -> bool:
    """A satellite ends as soon as no more players are left than the seats it awards: each of
    them wins a seat, and they share the same place (docs/rules.md §17.3)."""
    return seats > 0 and players_left <= seats


def place_values(prizes: list[SatellitePrize]) -> tuple[int, ...]:
    """What each place paid is worth, 1st first (a ticket and cash together): the places and
    amounts the payouts, the ladder and the results read."""
    return tuple(p.ticket + p.cash for p in prizes)
