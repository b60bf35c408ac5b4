"""The cash games' floor (docs/rules.md §20): waiting lists, seat calls, table changes,
must-move tables, away players, a new player's blind and the cash clock.

Pure Python: times are epoch milliseconds and randomness a ``random.Random``, both passed in
by the caller; players are ids. Nothing here knows tables of the database, only numbers.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

__all__ = [
    "CASH_PROFILES",
    "CashRules",
    "CashRulesError",
    "Sitter",
    "Waiter",
    "away_expired",
    "blinds_missed",
    "blinds_passed",
    "call_expired",
    "call_expires_at",
    "cash_clock",
    "cash_rules_resolved",
    "hand_positions",
    "list_after_pass",
    "list_order",
    "must_move_next",
    "new_player_blind",
    "next_to_call",
    "seat_candidates",
    "table_from_list",
]

MS_PER_SECOND = 1_000
MS_PER_MINUTE = 60 * MS_PER_SECOND

PassedTo = Literal["end", "off"]
TableChange = Literal["before_list", "after_list"]
NewPlayerBlind = Literal["post_or_wait", "wait_for_button"]
ClockPhase = Literal["thinking", "may_call", "called", "expired"]


@dataclass(frozen=True, slots=True)
class CashRules:
    """The house's cash-game parameters (docs/rules.md §20.7, each profile's values)."""

    call_minutes: int = 5
    """Minutes a called player has to sit down (1..60) before he is passed over."""
    passed_to: PassedTo = "end"
    """A called player who does not come: to the end of the list, or off it."""
    seated_leaves_lists: bool = True
    """A player seated from one list leaves his other lists."""
    table_change: TableChange = "before_list"
    """An open seat goes to the players asking to change tables of that game first, or after
    the list."""
    away_minutes: int = 15
    """Minutes a seat is held for a player away from the table (1..180)."""
    open_table_at: int = 6
    """Players waiting on a list of a game not running (or with every table full) at which the
    console proposes a new table (2..10)."""
    clock_after_seconds: int = 180
    """Seconds a player may think before another may ask for the clock on him (Mirage)."""
    clock_seconds: int = 60
    """Seconds he has to act once the floor has called the clock (Mirage)."""


# Mirage 000:259-262 writes the cash clock (about 180 s, then 60 s); the rest is the house
# practice of the big rooms [INF], the same in every profile until a room's rules say more.
CASH_PROFILES: dict[str, CashRules] = {
    "tda2024": CashRules(),
    "mirage": CashRules(),
    "doyle": CashRules(),
    "veszprem": CashRules(),
    "rimoc": CashRules(),
    "atlas": CashRules(),
}


@dataclass(frozen=True, slots=True)
class Waiter:
    """A player on a list: ``since_ms`` orders the list (his place, kept when he is passed
    over to the end it is the time of that), ``key`` breaks ties (the row's id)."""

    player_id: int
    since_ms: int
    key: int


@dataclass(frozen=True, slots=True)
class Sitter:
    """A player at a table: his seat and since when he sits there."""

    player_id: int
    seat: int
    seated_ms: int


def list_order(waiters: Iterable[Waiter]) -> list[Waiter]:
    """The list in order: who came first (``since_ms``), then the row's ``key``. Position n is
    index n - 1; a player's position never goes up while he waits (only those before him
    leave)."""
    return sorted(waiters, key=lambda w: (w.since_ms, w.key))


def next_to_call(
    waiters: Iterable[Waiter],
    *,
    called: Iterable[int] = (),
    seated_in_game: Iterable[int] = (),
    banned: Iterable[int] = (),
) -> Waiter | None:
    """The first on the list who may be called: not under a call already, not playing this
    game at another table (he asks for a table change instead, §20.4), not banned. None when
    nobody may."""
    skip = set(called) | set(seated_in_game) | set(banned)
    return next((w for w in list_order(waiters) if w.player_id not in skip), None)


def seat_candidates(
    changes: Sequence[Waiter], waiters: Sequence[Waiter], rules: CashRules
) -> list[Waiter]:
    """Who an open seat of a game is offered to, in order (§20.4): the players asking to change
    tables of that game and the list, one before the other as the house says; each in its own
    order, and a player on both only once (where he comes first)."""
    first, then = (changes, waiters) if rules.table_change == "before_list" else (waiters, changes)
    seen: set[int] = set()
    out = []
    for w in [*list_order(first), *list_order(then)]:
        if w.player_id not in seen:
            seen.add(w.player_id)
            out.append(w)
    return out


def call_expires_at(called_ms: int, rules: CashRules) -> int:
    """When a call made at ``called_ms`` runs out (ms)."""
    return called_ms + rules.call_minutes * MS_PER_MINUTE


def call_expired(called_ms: int, now_ms: int, rules: CashRules) -> bool:
    """A call is over strictly after its end: sitting down at the last second is in time."""
    return now_ms > call_expires_at(called_ms, rules)


def list_after_pass(
    waiters: Sequence[Waiter], player_id: int, now_ms: int, rules: CashRules
) -> list[Waiter]:
    """The list after ``player_id`` was passed over (his call ran out, or he said no): to its
    end (as if he joined now) or off it, as the house says. The others keep their order."""
    out = [w for w in waiters if w.player_id != player_id]
    passed = next((w for w in waiters if w.player_id == player_id), None)
    if passed is not None and rules.passed_to == "end":
        last = max((w.since_ms for w in out), default=now_ms)
        out.append(replace(passed, since_ms=max(now_ms, last + 1)))
    return list_order(out)


def must_move_next(at_must_move: Iterable[Sitter]) -> Sitter | None:
    """Who moves from a must-move table to its main game when the main game has a seat: the
    player longest at the must-move table (earliest ``seated_ms``), then the lower seat."""
    return min(at_must_move, key=lambda s: (s.seated_ms, s.seat), default=None)


def _between(seat: int, start: int, end: int, seats: int) -> bool:
    """``seat`` strictly after ``start`` and up to ``end`` going clockwise round 1..seats."""
    step = (seat - start) % seats
    return 0 < step <= (end - start) % seats


def new_player_blind(
    seat: int, button_seat: int, big_blind_seat: int, seats: int
) -> NewPlayerBlind:
    """What a new player seated at ``seat`` may do (§20.6; Veszprém 002:176-180, Atlas
    004:89-92): post a big blind to be dealt in at once or wait for the big blind; between the
    button and the big blind (the small blind's place included) he waits for the button to
    pass him. Seats are numbered 1..seats clockwise."""
    if not (1 <= seat <= seats and 1 <= button_seat <= seats and 1 <= big_blind_seat <= seats):
        raise ValueError("seats are numbered 1..seats")
    if _between(seat, button_seat, big_blind_seat, seats) and seat != big_blind_seat:
        return "wait_for_button"
    return "post_or_wait"


def blinds_missed(
    owed: frozenset[str], away: bool, seat: int, small_blind_seat: int | None, big_blind_seat: int
) -> frozenset[str]:
    """The blinds a seat owes after a hand whose blinds were ``small_blind_seat`` and
    ``big_blind_seat``: an away player whose turn it was to post misses it and owes it on his
    return (the big blind live, the small dead), or waits for the big blind (Veszprém
    002:179-180). A player back owes what he owed; posting clears it (the caller)."""
    if not away:
        return owed
    missed = set(owed)
    if seat == big_blind_seat:
        missed.add("big")
    elif seat == small_blind_seat:
        missed.add("small")
    return frozenset(missed)


def away_expired(away_ms: int, now_ms: int, rules: CashRules) -> bool:
    """A seat held for an away player runs out strictly after ``away_minutes``; then the floor
    decides to pick it up or hold it longer (§20.5)."""
    return now_ms > away_ms + rules.away_minutes * MS_PER_MINUTE


def table_from_list(
    waiters: Sequence[Waiter], seats: int, rules: CashRules, rng: random.Random
) -> list[tuple[int, int]] | None:
    """A new table from a list that has reached ``open_table_at`` players (§20.3): the first
    ``seats`` of the list, each given a seat drawn at random; (player_id, seat) in list order.
    None below the house's number."""
    if seats < 2:
        raise ValueError("a table has at least two seats")
    ordered = list_order(waiters)
    if len(ordered) < rules.open_table_at:
        return None
    taken = ordered[:seats]
    drawn = rng.sample(range(1, seats + 1), len(taken))
    return [(w.player_id, s) for w, s in zip(taken, drawn, strict=True)]


def cash_clock(
    thinking_ms: int, called_ms: int | None, now_ms: int, rules: CashRules
) -> tuple[ClockPhase, int]:
    """The cash clock at a table (Mirage 000:259-262): a player thinking since ``thinking_ms``
    may have the clock called on him after ``clock_after_seconds``; once the floor calls it
    (``called_ms``) he has ``clock_seconds``. The phase and the seconds left in it (0 when
    over; rounded up, so 0 means over)."""
    if called_ms is None:
        left = thinking_ms + rules.clock_after_seconds * MS_PER_SECOND - now_ms
        return ("thinking", -(-left // MS_PER_SECOND)) if left > 0 else ("may_call", 0)
    left = called_ms + rules.clock_seconds * MS_PER_SECOND - now_ms
    return ("called", -(-left // MS_PER_SECOND)) if left >= 0 else ("expired", 0)


def _after(seat: int, taken: Sequence[int], seats: int) -> int:
    """The first of ``taken`` clockwise strictly after ``seat`` (``seat`` itself when it is
    the only one)."""
    return min(taken, key=lambda s: (s - seat - 1) % seats)


def hand_positions(
    dealt: Iterable[int], button_seat: int | None, seats: int
) -> tuple[int, int | None, int]:
    """The next hand's button, small blind and big blind among the seats ``dealt`` in (present
    players, at least two): the button moves to the next of them after ``button_seat`` (the
    lowest when none), the blinds follow it; heads-up the button posts the small blind
    (Veszprém 002:174, Atlas 004:88). Seats are 1..seats."""
    taken = sorted(set(dealt))
    if len(taken) < 2 or any(not 1 <= s <= seats for s in taken):
        raise ValueError("a hand needs two players at seats 1..seats")
    button = taken[0] if button_seat is None else _after(button_seat, taken, seats)
    if len(taken) == 2:
        return button, button, _after(button, taken, seats)
    small = _after(button, taken, seats)
    return button, small, _after(small, taken, seats)


def blinds_passed(
    away: Iterable[int],
    before: tuple[int | None, int],
    after: tuple[int | None, int],
    seats: int,
) -> dict[int, frozenset[str]]:
    """The blinds each away seat missed when the blinds moved from ``before`` to ``after``
    (small blind seat, big blind seat): the big blind when it passed over him (he lies after
    the old big blind, up to the new one), the small blind likewise (§20.5; Veszprém
    002:179-180). Seats not passed are left out."""
    small_before, big_before = before
    small_after, big_after = after
    missed: dict[int, frozenset[str]] = {}
    for seat in away:
        owed = set()
        if _between(seat, big_before, big_after, seats):
            owed.add("big")
        if (
            small_before is not None
            and small_after is not None
            and _between(seat, small_before, small_after, seats)
        ):
            owed.add("small")
        if owed:
            missed[seat] = frozenset(owed)
    return missed


# The bounds and choices of each parameter (docs/rules.md §20.7).
CASH_BOUNDS: dict[str, tuple[int, int]] = {
    "call_minutes": (1, 60),
    "away_minutes": (1, 180),
    "open_table_at": (2, 10),
    "clock_after_seconds": (0, 600),
    "clock_seconds": (10, 300),
}
CASH_CHOICES: dict[str, tuple[object, ...]] = {
    "passed_to": ("end", "off"),
    "table_change": ("before_list", "after_list"),
    "seated_leaves_lists": (True, False),
}


class CashRulesError(ValueError):
    """A refused cash rule: ``code`` for the API, ``name`` the parameter."""

    def __init__(self, code: str, name: str) -> None:
        super().__init__(f"{code}: {name}")
        self.code, self.name = code, name


def cash_rules_resolved(profile: str, overrides: dict[str, object]) -> CashRules:
    """The profile's cash rules with ``overrides`` applied; an unknown profile or parameter, a
    number out of its bounds or a value not among its choices raises CashRulesError."""
    if profile not in CASH_PROFILES:
        raise CashRulesError("unknown_house_rules", profile)
    changes: dict[str, object] = {}
    for name, value in overrides.items():
        if name in CASH_BOUNDS:
            low, high = CASH_BOUNDS[name]
            if type(value) is not int or not low <= value <= high:
                raise CashRulesError("invalid_house_rule", name)
        elif name in CASH_CHOICES:
            if value not in CASH_CHOICES[name] or type(value) is not type(CASH_CHOICES[name][0]):
                raise CashRulesError("invalid_house_rule", name)
        else:
            raise CashRulesError("invalid_house_rule", str(name))
        changes[name] = value
    return replace(CASH_PROFILES[profile], **changes)
