"""Table count, initial seat draw, button draw and late-entry seats (docs/rules.md §3).

Pure functions: every random choice comes from the `random.Random` passed in (the service
passes `random.SystemRandom()`), so tests can seed it.
"""

import itertools
import math
import random
from array import array
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from tables.domain.button import Blinds, seats_not_dealt
from tables.domain.cards import Card, full_deck


class SeatingError(ValueError):
    """A draw that cannot be made; `code` is a stable machine-readable reason.

    Codes: "not_enough_seats", "not_enough_tables", "duplicate_entry", "duplicate_table".
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class TableSpec:
    """A table as the draw sees it: seats 1..`seats` are in play at it.

    `unavailable_seats` (blocked or reserved) are never given out by a draw.
    """

    number: int
    seats: int
    unavailable_seats: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        object.__setattr__(self, "unavailable_seats", frozenset(self.unavailable_seats))
        if self.seats < 1:
            raise ValueError(f"table {self.number} needs at least one seat, got {self.seats}")

    @property
    def available_seats(self) -> tuple[int, ...]:
        """Seats a draw may use, ascending."""
        return tuple(s for s in range(1, self.seats + 1) if s not in self.unavailable_seats)


@dataclass(frozen=True, slots=True)
class SeatingRules:
    """How many tables a field needs.

    `table_thresholds` (10, 18, 27) means 1-10 players: 1 table, 11-18: 2, 19-27: 3, and above
    the last threshold max(len(thresholds) + 1, ceil(n / seats_per_table)). None means
    ceil(n / seats_per_table), except that up to `single_table_seats` players fit one table.
    """

    table_thresholds: tuple[int, ...] | None
    seats_per_table: int
    single_table_seats: int

    def __post_init__(self) -> None:
        if self.seats_per_table < 2:
            raise ValueError(f"seats_per_table must be >= 2, got {self.seats_per_table}")
        if self.single_table_seats < 1:
            raise ValueError(f"single_table_seats must be >= 1, got {self.single_table_seats}")
        if self.table_thresholds is not None:
            thresholds = tuple(self.table_thresholds)
            object.__setattr__(self, "table_thresholds", thresholds)
            if not thresholds or thresholds[0] < 1:
                raise ValueError(f"table_thresholds must be positive: {thresholds}")
            if any(a >= b for a, b in itertools.pairwise(thresholds)):
                raise ValueError(f"table_thresholds must increase strictly: {thresholds}")


@dataclass(frozen=True, slots=True)
class SeatAssignment:
    entry_id: int
    table_number: int
    seat: int


@dataclass(frozen=True, slots=True)
class SeatDraw:
    """Result of `draw_seats`: assignments ordered by table (opening order), then seat.

    `table_counts` maps each table used to its player count (tables not used are absent).
    """

    assignments: tuple[SeatAssignment, ...]
    table_counts: dict[int, int]


@dataclass(frozen=True, slots=True)
class ButtonDraw:
    """Cards dealt for the button, as (seat, card) in dealing order, and the winning seat."""

    cards: tuple[tuple[int, Card], ...]
    button_seat: int


@dataclass(frozen=True, slots=True)
class LateTable:
    """A running table as seen by `choose_late_seat`.

    `occupied` = seats with a player; `blinds` = positions of the current (or next) hand, None
    when no button is known yet (then no seat is excluded as not dealt).
    """

    number: int
    seats: int
    unavailable_seats: frozenset[int] = frozenset()
    occupied: frozenset[int] = frozenset()
    blinds: Blinds | None = None


@dataclass(frozen=True, slots=True)
class LateSeat:
    """A seat for a late registrant or re-entry.

    `waits_for_button` is True when the seat lies between the button and the small blind, so
    the player is not dealt in until the button has passed.
    """

    table_number: int
    seat: int
    waits_for_button: bool
    called_off: int | None = None
    """The pending move (its id) whose promised seat this is: it is called off, its mover
    stays where he sits (`PendingArrival`)."""


@dataclass(frozen=True, slots=True)
class PendingMove:
    """A move the floor has not confirmed yet, as seats go (docs/rules.md §3.4). `entry_id`
    None: its mover is not named yet (and `from_seat` unknown)."""

    entry_id: int | None
    from_table: int
    from_seat: int | None
    to_table: int
    to_seat: int
    move_id: int = 0
    balancing: bool = False
    """A move of its own, not a part of a table break or the final-table redraw: it can be
    called off (`choose_called_off`)."""
    charted: bool = True
    """The chart shows its named mover in the seat it gives him (False: he was seated
    elsewhere since): only then does calling it off put things back as they are."""


def held_by_moves(moves: Iterable[PendingMove]) -> dict[int, set[int]]:
    """Seats, per table number, that nobody else may be given though the chart shows nobody
    in them: the seat a named mover still sits in until the floor confirms his move (the
    chart shows him at his new seat at once), and the seat promised to a mover not named yet
    (the chart still shows him at his old table)."""
    held: dict[int, set[int]] = {}
    for move in moves:
        if move.entry_id is None:
            held.setdefault(move.to_table, set()).add(move.to_seat)
        elif move.from_seat is not None:
            held.setdefault(move.from_table, set()).add(move.from_seat)
    return held


@dataclass(frozen=True, slots=True)
class PendingArrival:
    """A seat promised by a pending balancing move that could be called off: a newcomer takes
    `to_seat`, the mover stays at `from_table` (where he still sits), so the tables end with
    the counts the move was to give, plus one at `from_table`."""

    move_id: int
    from_table: int
    from_players: int
    """Players at `from_table` as the chart counts them."""
    to_table: int
    to_seat: int
    to_seats: int
    to_blinds: Blinds | None = None


def pending_arrivals(
    tables: Sequence[LateTable], moves: Iterable[PendingMove]
) -> list[PendingArrival]:
    """The balancing moves between `tables` that could be called off: not a named mover's
    whose old seat somebody sits in (the chart has given it away), nor one whose mover the
    chart no longer shows in the seat it gives him (calling it off would take him from the
    seat he has)."""
    by_number = {t.number: t for t in tables}
    arrivals = []
    for move in moves:
        source, target = by_number.get(move.from_table), by_number.get(move.to_table)
        if not move.balancing or not move.charted or source is None or target is None:
            continue
        if move.entry_id is not None and (
            move.from_seat is None or move.from_seat in source.occupied
        ):
            continue
        arrivals.append(
            PendingArrival(
                move.move_id,
                move.from_table,
                len(source.occupied),
                move.to_table,
                move.to_seat,
                target.seats,
                target.blinds,
            )
        )
    return arrivals


def choose_called_off(arrivals: Sequence[PendingArrival], rng: random.Random) -> LateSeat | None:
    """When no seat is free: a newcomer's seat from a pending move called off, or None.

    As `choose_late_seat`, counted where the newcomer adds a player (the move's table of
    departure, its mover staying): the fewest players first, a seat dealt in this hand before
    one between the button and the small blind, uniformly at random among equals."""
    if not arrivals:
        return None

    def not_dealt(a: PendingArrival) -> bool:
        return a.to_blinds is not None and a.to_seat in seats_not_dealt(a.to_blinds, a.to_seats)

    fewest = min(a.from_players for a in arrivals)
    pool = sorted((a for a in arrivals if a.from_players == fewest), key=lambda a: a.move_id)
    live = [a for a in pool if not not_dealt(a)]
    chosen = rng.choice(live or pool)
    return LateSeat(chosen.to_table, chosen.to_seat, not live, called_off=chosen.move_id)


def choose_late_place(
    tables: Sequence[LateTable], moves: Sequence[PendingMove], rng: random.Random
) -> LateSeat | None:
    """A newcomer's seat with moves pending (docs/rules.md §3.4): `choose_late_seat` among
    the seats no pending move holds (`held_by_moves`); when none is free, a pending balancing
    move is called off and the newcomer takes the seat it promised (`choose_called_off`).
    None when neither is possible."""
    held = held_by_moves(moves)
    if held:
        tables = [
            replace(t, unavailable_seats=t.unavailable_seats | held.get(t.number, set()))
            for t in tables
        ]
    seat = choose_late_seat(tables, rng)
    if seat is not None:
        return seat
    return choose_called_off(pending_arrivals(tables, moves), rng)


def tables_needed(n_players: int, rules: SeatingRules) -> int:
    """Number of tables to play `n_players` on (0 players -> 0 tables)."""
    if n_players < 0:
        raise ValueError(f"n_players must be >= 0, got {n_players}")
    if n_players == 0:
        return 0
    by_size = math.ceil(n_players / rules.seats_per_table)
    thresholds = rules.table_thresholds
    if thresholds is None:
        return 1 if n_players <= rules.single_table_seats else by_size
    for index, threshold in enumerate(thresholds):
        if n_players <= threshold:
            return index + 1
    return max(len(thresholds) + 1, by_size)


def sample_sorted(population: Sequence[int], k: int, rng: random.Random) -> list[int]:
    """A uniform random k-subset of an ascending `population`, ascending.

    Draws the smaller of the subset and its complement, which keeps the common case (a full
    or nearly full table) to zero or one random call.
    """
    size = len(population)
    if k >= size:
        return list(population)
    if 2 * k > size:
        excluded = set(rng.sample(population, size - k))
        return [x for x in population if x not in excluded]
    return sorted(rng.sample(population, k))


def _shuffle(items: list[int], rng: random.Random) -> None:
    """Uniform Fisher-Yates shuffle in place, taking its random bits from one rng call.

    `rng.shuffle` asks the generator once per item, and with SystemRandom every ask is an
    os.urandom syscall; that was half the time of a 25,000-player draw. Indices come from
    machine words by rejection sampling, so the result is exactly uniform (no modulo bias).
    """
    words = array("I")
    word_range = 1 << (8 * words.itemsize)
    pos = 0
    for i in range(len(items) - 1, 0, -1):
        bound = i + 1
        limit = word_range - word_range % bound
        while True:
            if pos == len(words):
                # Rejections are rare (p < bound / word_range), so refills almost never happen.
                words = array("I", rng.randbytes(words.itemsize * max(i, 16)))
                pos = 0
            word = words[pos]
            pos += 1
            if word < limit:
                break
        j = word % bound
        items[i], items[j] = items[j], items[i]


def _even_counts(n: int, capacities: Sequence[int], rng: random.Random) -> list[int]:
    """Split n players over tables of the given capacities as evenly as capacity allows.

    Each table gets min(capacity, q) or q + 1 players for the largest level q whose capped sum
    fits n; the tables getting the +1 are a uniform random subset of those with room for it.
    Requires sum(capacities) >= n.
    """
    low, high = 0, max(capacities)
    while low < high:
        mid = (low + high + 1) // 2
        if sum(min(c, mid) for c in capacities) <= n:
            low = mid
        else:
            high = mid - 1
    counts = [min(c, low) for c in capacities]
    extra = n - sum(counts)
    if extra:
        with_room = [i for i, c in enumerate(capacities) if c > low]
        for i in sample_sorted(with_room, extra, rng):
            counts[i] += 1
    return counts


def draw_seats(
    entry_ids: Sequence[int],
    tables: Sequence[TableSpec],
    rules: SeatingRules,
    rng: random.Random,
) -> SeatDraw:
    """Random initial seating of `entry_ids` at `tables`, given in opening order.

    Uses the first k tables with at least one available seat, k = tables_needed(n), raised
    until their available seats hold everyone. Counts differ by at most 1 except where a table
    is capped by its available seats; which tables get the extra player is random, players are
    shuffled uniformly and each table's seats are a uniform sample of its available seats.
    O(n + tables) random calls and work.

    Raises SeatingError: "not_enough_seats" (all tables together are too small),
    "not_enough_tables" (fewer usable tables than tables_needed), "duplicate_entry",
    "duplicate_table".
    """
    players = list(entry_ids)
    n = len(players)
    if len(set(players)) != n:
        raise SeatingError("duplicate_entry", "an entry appears more than once")
    if len({t.number for t in tables}) != len(tables):
        raise SeatingError("duplicate_table", "a table number appears more than once")
    if n == 0:
        return SeatDraw((), {})
    # A table whose seats are all blocked cannot be opened; it is skipped, not counted.
    usable = [(t.number, seats) for t in tables if (seats := t.available_seats)]
    capacities = [len(seats) for _, seats in usable]
    if sum(capacities) < n:
        raise SeatingError(
            "not_enough_seats", f"{n} players but only {sum(capacities)} available seats"
        )
    k = tables_needed(n, rules)
    if k > len(usable):
        raise SeatingError(
            "not_enough_tables", f"{n} players need {k} tables but only {len(usable)} are usable"
        )
    room = sum(capacities[:k])
    while room < n:
        room += capacities[k]
        k += 1

    counts = _even_counts(n, capacities[:k], rng)
    _shuffle(players, rng)
    assignments: list[SeatAssignment] = []
    table_counts: dict[int, int] = {}
    start = 0
    for (number, available), count in zip(usable, counts, strict=False):
        # Players are already in uniform random order, so pairing them with the sampled
        # seats in ascending order keeps every (player, seat) pairing equally likely.
        seats = sample_sorted(available, count, rng)
        chunk = players[start : start + count]
        assignments.extend(map(SeatAssignment, chunk, itertools.repeat(number, count), seats))
        table_counts[number] = count
        start += count
    return SeatDraw(tuple(assignments), table_counts)


def draw_spread(draw: SeatDraw, order: Sequence[int], rng: random.Random) -> SeatDraw:
    """The same tables, counts and seats as `draw`, its players dealt again in `order`
    (biggest stack first: docs/rules.md §15.5): round after round, one player to each table
    with a seat left, the tables of a round in random order, those with the most seats left
    first; each player then takes a random one of his table's drawn seats. So the k biggest
    stacks sit at k different tables (k tables), and no table gets two of the top 2k before
    every table has two. `order` holds exactly the draw's entries."""
    seats_of: dict[int, list[int]] = {}
    for a in draw.assignments:
        seats_of.setdefault(a.table_number, []).append(a.seat)
    if sorted(order) != sorted(a.entry_id for a in draw.assignments):
        raise SeatingError("duplicate_entry", "the order must hold the draw's entries once each")
    left = {number: len(seats) for number, seats in seats_of.items()}
    players: dict[int, list[int]] = {number: [] for number in seats_of}
    pending = list(order)
    while pending:
        tables = [n for n in seats_of if left[n]]
        rng.shuffle(tables)
        tables.sort(key=lambda n: -left[n])
        for number, entry_id in zip(tables, pending, strict=False):
            players[number].append(entry_id)
            left[number] -= 1
        pending = pending[len(tables) :]
    assignments: list[SeatAssignment] = []
    for number, seats in seats_of.items():
        dealt = list(players[number])
        rng.shuffle(dealt)
        assignments.extend(map(SeatAssignment, dealt, itertools.repeat(number), sorted(seats)))
    return SeatDraw(tuple(assignments), dict(draw.table_counts))


def button_from_cards(cards: Iterable[tuple[int, Card]]) -> int:
    """The seat holding the highest card (rank, then suit) among (seat, card) pairs."""
    pairs = list(cards)
    if not pairs:
        raise ValueError("no cards dealt")
    if len({card for _, card in pairs}) != len(pairs):
        raise ValueError("the same card was dealt twice")
    return max(pairs, key=lambda pair: pair[1].sort_key)[0]


def draw_button(occupied_seats: Sequence[int], rng: random.Random) -> ButtonDraw:
    """High-card draw for the button: one face-up card per occupied seat.

    Cards come from a freshly shuffled 52-card deck and are dealt in seat order from the lowest
    seat (the first seat left of the dealer). At most 52 players.
    """
    seats = sorted(occupied_seats)
    if not seats:
        raise ValueError("no players to draw for the button")
    if len(set(seats)) != len(seats) or seats[0] < 1:
        raise ValueError(f"invalid occupied seats: {occupied_seats!r}")
    deck = full_deck()
    if len(seats) > len(deck):
        raise ValueError(f"cannot deal one card each to {len(seats)} players")
    # The top cards of a uniformly shuffled deck are a uniform sample without replacement;
    # drawing only those costs one random number per player instead of 51.
    cards = tuple(zip(seats, rng.sample(deck, len(seats)), strict=True))
    return ButtonDraw(cards, button_from_cards(cards))


def choose_late_seat(tables: Sequence[LateTable], rng: random.Random) -> LateSeat | None:
    """Seat for a late registrant or re-entry (TDA 8-A), or None if no seat is free anywhere.

    A uniformly random free seat (available and not occupied), pooled over the tables with the
    fewest players that have a free seat dealt in this hand, i.e. not between the button and the
    small blind. If the fewest tables have only such not-dealt seats, the next-fewest tables
    are tried, and so on. Only if every free seat is not dealt in, one of those at the fewest
    tables is returned with `waits_for_button=True`.
    """
    # player count -> (seats dealt in this hand, seats not dealt), as (table, seat) pairs
    by_count: dict[int, tuple[list[tuple[int, int]], list[tuple[int, int]]]] = {}
    for table in tables:
        not_dealt = seats_not_dealt(table.blinds, table.seats) if table.blinds else frozenset()
        for seat in range(1, table.seats + 1):
            if seat in table.unavailable_seats or seat in table.occupied:
                continue
            live, dead = by_count.setdefault(len(table.occupied), ([], []))
            (dead if seat in not_dealt else live).append((table.number, seat))
    if not by_count:
        return None
    for count in sorted(by_count):
        live, _ = by_count[count]
        if live:
            number, seat = rng.choice(live)
            return LateSeat(number, seat, waits_for_button=False)
    _, dead = by_count[min(by_count)]
    number, seat = rng.choice(dead)
    return LateSeat(number, seat, waits_for_button=True)
