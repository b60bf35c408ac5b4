"""The floor planner's field (docs/rules.md §5, §6, §7): the tables as it sees them, its
rules and results, and the rules every part of a plan shares (how many tables, who sits out on
arrival, the worst seat, which tables halt).

Pure functions: tables come in as `FloorTable`s, every random choice comes from the
`random.Random` passed in (the service passes `random.SystemRandom()`), and results are frozen
dataclasses the service turns into pending moves, draw slips and screen updates.

Counting: a table's planning count is `len(occupied) - leaving + len(reserved)`, so pending
moves (a seat promised to a mover, a player promised to leave) already count where the player
will be. Seats are numbered 1..seats clockwise; "between a and b" is strictly between, clockwise.
"""

import random
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from tables.domain.button import Blinds, next_hand_blinds, seats_not_dealt
from tables.domain.cards import Card, full_deck
from tables.domain.seating import SeatingRules, tables_needed

TableOrder = Literal["lowest_first", "highest_first", "random"]
BreakOrder = Literal["fewest_players", "fixed_list", "random"]
NotDealt = Literal["between_btn_sb", "sb_or_btn_seat"]


@dataclass(frozen=True, slots=True)
class FloorTable:
    """A table in play as the floor planner sees it.

    `occupied` maps seat -> entry id of players sitting there now. `blinds` are the positions
    of the hand in play (the last hand dealt, whose end is being reported); None = button not
    known. `reserved` are empty seats promised to movers not yet seated there (their own
    pending moves); `leaving` = how many of `occupied` are promised to leave but not yet named
    (a pending move from a table whose button is unknown). Planning counts
    count = len(occupied) - leaving + len(reserved).

    Positions (next big blind, a mover's wait) treat reserved seats as seated: their movers sit
    down before the next hand. Players in reserved seats are never picked to move again.
    """

    number: int
    seats: int
    occupied: Mapping[int, int]
    unavailable: frozenset[int] = frozenset()
    blinds: Blinds | None = None
    reserved: frozenset[int] = frozenset()
    leaving: int = 0
    recent: frozenset[int] = frozenset()
    """Entry ids of players the floor moved here lately (docs/rules.md §5.4): a balancing
    move takes somebody else when another player can go."""
    dead_button: bool = True
    """False: the house moves the button one player a hand (docs/rules.md §4.1)."""
    held: frozenset[int] = frozenset()
    """Seats named movers have not left yet (their moves pending, docs/rules.md §3.4): empty
    on the chart, but no mover may be given one. A final-table redraw, where everybody
    stands up at once, may."""

    def __post_init__(self) -> None:
        # A private copy: the caller's mapping may change after the plan is made.
        object.__setattr__(self, "occupied", dict(self.occupied))
        object.__setattr__(self, "unavailable", frozenset(self.unavailable))
        object.__setattr__(self, "reserved", frozenset(self.reserved))
        object.__setattr__(self, "recent", frozenset(self.recent))
        object.__setattr__(self, "held", frozenset(self.held))
        if self.seats < 2:
            raise ValueError(f"table {self.number} needs at least 2 seats, got {self.seats}")
        for seat in (*self.occupied, *self.reserved):
            if not 1 <= seat <= self.seats:
                raise ValueError(f"table {self.number}: seat {seat} is outside 1..{self.seats}")
        if set(self.occupied) & self.reserved:
            raise ValueError(f"table {self.number}: a reserved seat is occupied")
        if not 0 <= self.leaving <= len(self.occupied):
            raise ValueError(f"table {self.number}: leaving={self.leaving} is out of range")

    @property
    def count(self) -> int:
        """Players for balancing and breaking: seated, minus unnamed leavers, plus arrivals."""
        return len(self.occupied) - self.leaving + len(self.reserved)

    def free_seats(self) -> tuple[int, ...]:
        """Seats a mover may take, ascending: in play, not unavailable, occupied, reserved or
        held."""
        taken = self.unavailable | self.reserved | self.held
        return tuple(
            s for s in range(1, self.seats + 1) if s not in taken and s not in self.occupied
        )

    def seated(self) -> frozenset[int]:
        """Seats that hold a player at the next hand as far as positions go."""
        return frozenset(self.occupied) | self.reserved


@dataclass(frozen=True, slots=True)
class FloorRules:
    """The house rules the planner needs (plain values, see tourney/domain/house_rules.py).

    `ft_redraw` False: the final table forms by breaking tables like any other break, with
    no redraw (docs/rules.md §7.4).
    """

    balance_threshold: int
    halt_threshold: int
    source_order: TableOrder
    break_order: BreakOrder
    break_tiebreak: TableOrder
    final_table_size: int
    seating: SeatingRules
    not_dealt: NotDealt = "between_btn_sb"
    ft_redraw: bool = True
    hold_breaks: bool = False
    """Late registration is open and the house holds (`late_reg_hold`, docs/rules.md §5.10):
    no table breaks while every table has two players or more."""

    def __post_init__(self) -> None:
        if self.balance_threshold < 2:
            raise ValueError(f"balance_threshold must be >= 2, got {self.balance_threshold}")
        if self.halt_threshold < 1:
            raise ValueError(f"halt_threshold must be >= 1, got {self.halt_threshold}")
        if self.final_table_size < 2:
            raise ValueError(f"final_table_size must be >= 2, got {self.final_table_size}")


@dataclass(frozen=True, slots=True)
class Move:
    """One player to move. entry_id/from_seat None = 'the player who is big blind next' at a
    table whose button is unknown (the floor names the player on confirming)."""

    entry_id: int | None
    from_table: int
    from_seat: int | None
    to_table: int
    to_seat: int
    wait_hands: int | None
    """Hands before the mover posts the BB at the new table (0 = next hand); None when the
    destination's button is unknown. Computed when the move is planned: a later move to the
    same table in the same plan may add one."""
    sits_out: bool
    """True: the new seat is not dealt in the next hand (newcomer rule, docs/rules.md §4.3)."""


@dataclass(frozen=True, slots=True)
class DrawnSeat:
    entry_id: int
    card: Card
    """The face-up card the player was dealt (highest card takes the first seat card)."""
    to_table: int
    to_seat: int
    sits_out: bool


@dataclass(frozen=True, slots=True)
class TableBreak:
    """Breaking one table by the two-step random draw (TDA Addendum 10)."""

    table: int
    seat_pool: tuple[tuple[int, int], ...]
    """(table, seat) seat cards shown, ascending."""
    scrambled: tuple[tuple[int, int], ...]
    """The seat cards in the order they were handed out."""
    seats: tuple[DrawnSeat, ...]
    """By the players' cards, highest first."""


@dataclass(frozen=True, slots=True)
class FinalTableDraw:
    table: int
    """The table number that hosts the final table."""
    seats: tuple[DrawnSeat, ...]
    """Everyone, random seats at that table, by the players' cards, highest first."""
    button_cards: tuple[tuple[int, Card], ...]
    """(seat, card) of the high-card button draw, in dealing order."""
    button_seat: int


@dataclass(frozen=True, slots=True)
class FloorPlan:
    moves: tuple[Move, ...] = ()
    breaks: tuple[TableBreak, ...] = ()
    final_table: FinalTableDraw | None = None
    halted: frozenset[int] = field(default_factory=frozenset)
    """Tables that must hold play (TDA 11-D), judged on the state after the plan."""


@dataclass(frozen=True, slots=True)
class TableCount:
    """A table in play by its numbers alone. Choosing tables (which breaks, which gives or
    takes a player) looks at counts only; the planner reads a table's seats (`FloorTable`)
    only when it moves players from or to it, so a plan in a field of a thousand tables
    reads a handful of them."""

    number: int
    seats: int
    seated: int
    """Players sitting there: len(occupied)."""
    free: int
    """Seats a mover may take: len(free_seats())."""
    leaving: int = 0
    reserved: int = 0
    """How many seats are reserved: len(reserved)."""

    @property
    def count(self) -> int:
        """The planning count, as `FloorTable.count`."""
        return self.seated - self.leaving + self.reserved


def table_count(table: FloorTable) -> TableCount:
    """The counts of a table read in full."""
    return TableCount(
        table.number,
        table.seats,
        len(table.occupied),
        len(table.free_seats()),
        table.leaving,
        len(table.reserved),
    )


TableLoader = Callable[[Collection[int]], Mapping[int, FloorTable]]
"""Reads the given table numbers in full (one call per batch of tables the planner needs)."""


class PlanField:
    """The planner's working state: every table by its counts, the few it has read in full
    (and changed: arrivals reserved, movers gone)."""

    def __init__(self, counts: Iterable[TableCount], load: TableLoader):
        self.counts: dict[int, TableCount] = {c.number: c for c in counts}
        self.full: dict[int, FloorTable] = {}
        self._load = load

    def tables(self, numbers: Sequence[int]) -> list[FloorTable]:
        missing = [n for n in numbers if n not in self.full]
        if missing:
            loaded = self._load(missing)
            for number in missing:
                self.full[number] = loaded[number]
        return [self.full[n] for n in numbers]

    def set(self, table: FloorTable) -> None:
        self.full[table.number] = table
        self.counts[table.number] = table_count(table)


def loader_of(tables: Sequence[FloorTable]) -> TableLoader:
    by_number = {t.number: t for t in tables}
    return lambda numbers: {n: by_number[n] for n in numbers}


# --- small helpers -----------------------------------------------------------------------


def seats_after(seat: int, seats: int) -> Iterator[int]:
    """Every other seat once, clockwise, starting right after `seat` (`seat` itself excluded)."""
    yield from range(seat + 1, seats + 1)
    yield from range(1, min(seat, seats + 1))


def pick_table(tables: Sequence[FloorTable], order: TableOrder, rng: random.Random) -> FloorTable:
    """One of `tables` (non-empty) by a published order: lowest/highest number, or at random."""
    if order == "lowest_first":
        return min(tables, key=lambda t: t.number)
    if order == "highest_first":
        return max(tables, key=lambda t: t.number)
    if order == "random":
        return rng.choice(sorted(tables, key=lambda t: t.number))
    raise ValueError(f"unknown table order {order!r}")


def check_numbers(tables: Sequence[FloorTable]) -> None:
    if len({t.number for t in tables}) != len(tables):
        raise ValueError("a table number appears more than once")


def deal_cards(n: int, rng: random.Random) -> list[Card]:
    deck = full_deck()
    if n > len(deck):
        raise ValueError(f"cannot deal one card each to {n} players")
    # The top n cards of a uniformly shuffled deck are a uniform sample without replacement.
    return rng.sample(deck, n)


def two_step_draw(
    players: Sequence[int], pool: Sequence[tuple[int, int]], rng: random.Random
) -> tuple[tuple[tuple[int, int], ...], list[tuple[int, Card, tuple[int, int]]]]:
    """Scramble the seat cards, deal each player a face-up card, highest card picks first.

    `players` are entry ids in dealing order, `pool` has exactly one seat card per player.
    Returns the scrambled seat cards and (entry, card, seat) by card, highest first.
    """
    scrambled = list(pool)
    rng.shuffle(scrambled)
    cards = deal_cards(len(players), rng)
    ranked = sorted(zip(players, cards, strict=True), key=lambda pc: pc[1].sort_key, reverse=True)
    return tuple(scrambled), [
        (entry, card, seat) for (entry, card), seat in zip(ranked, scrambled, strict=True)
    ]


def table_next_blinds(table: FloorTable, seated: Collection[int]) -> Blinds | None:
    """Positions of the table's next hand with `seated` players, None when not computable."""
    if table.blinds is None or len(seated) < 2:
        return None
    return next_hand_blinds(table.blinds, seated, table.seats, dead_button=table.dead_button)


# --- table count -------------------------------------------------------------------------


def tables_wanted(players: int, multi_table_start: bool, rules: FloorRules) -> int:
    """Tables `players` should play on now (docs/rules.md §3.1, §6.1, §7.3).

    After a multi-table start play stays on at least 2 tables until the field is down to
    `final_table_size`, even where the table thresholds already say 1 (docs/rules.md §7.3).
    """
    if players < 0:
        raise ValueError(f"players must be >= 0, got {players}")
    if players == 0:
        return 0
    if multi_table_start:
        if players <= rules.final_table_size:
            return 1
        return max(2, tables_needed(players, rules.seating))
    return tables_needed(players, rules.seating)


# --- newcomers, worst seat, halting -----------------------------------------------------


def sits_out_at(
    seat: int, blinds_next_hand: Blinds | None, seats: int, not_dealt: NotDealt
) -> bool:
    """Whether a player newly seated at `seat` is not dealt in the next hand (docs/rules.md §4.3).

    `blinds_next_hand` are the positions of that hand (None = unknown -> False).
    between_btn_sb (TDA 10-A): the seat lies strictly between BTN and SB.
    sb_or_btn_seat (Doyle #7): the seat is the BTN or SB seat, or between them.
    """
    if blinds_next_hand is None:
        return False
    if seat in seats_not_dealt(blinds_next_hand, seats):
        return True
    if not_dealt == "between_btn_sb":
        return False
    if not_dealt == "sb_or_btn_seat":
        return seat in (blinds_next_hand.button, blinds_next_hand.small_blind)
    raise ValueError(f"unknown not_dealt rule {not_dealt!r}")


def worst_seat(
    table: FloorTable, taken: Collection[int] = (), rng: random.Random | None = None
) -> tuple[int, int | None]:
    """The seat for a balancing mover, as (seat, wait) (docs/rules.md §5.5, TDA 11-A).

    `taken` are extra seats already promised in this plan (treated as seated). Among the free
    seats other than the next small-blind seat (prevBB = `blinds.big_blind` of the hand in
    play): wait(e) = 0 when e lies between prevBB and the next BB (the first seated seat after
    prevBB), else the number of seated seats in [nextBB, e) clockwise. Smallest wait wins; a
    tie goes to the first seat clockwise. If prevBB is the only free seat it is used anyway
    (a mover is never left without a seat; they post the small blind there). `wait` counts
    hands before the mover posts the BB, 0 = the next hand.

    Button unknown: a uniformly random free seat from `rng` (required then), wait None.
    Raises ValueError when no seat is free.
    """
    extra = frozenset(taken)
    free = [s for s in table.free_seats() if s not in extra]
    if not free:
        raise ValueError(f"table {table.number} has no free seat")
    if table.blinds is None:
        if rng is None:
            raise ValueError(f"table {table.number}: the button is unknown, pass rng")
        return rng.choice(free), None
    prev_bb = table.blinds.big_blind
    seated = table.seated() | extra
    free_set = frozenset(free)
    best: tuple[int, int] | None = None
    before_next_bb = True
    players_from_next_bb = 0
    # Walking clockwise from prevBB visits seats in tie-break order: seats before the next BB
    # (wait 0) first, then each seat after the next BB in turn.
    for seat in seats_after(prev_bb, table.seats):
        if seat in seated:
            before_next_bb = False
            players_from_next_bb += 1
        elif seat in free_set:
            wait = 0 if before_next_bb else players_from_next_bb
            if best is None or wait < best[1]:
                best = (seat, wait)
    if best is not None:
        return best
    return prev_bb, players_from_next_bb


def halted_tables(tables: Sequence[FloorTable], rules: FloorRules) -> frozenset[int]:
    """Tables that must hold play until they get players (TDA 11-D, docs/rules.md §5.7).

    A table halts when its count is at least `halt_threshold` below the largest table's count
    and the seat right after the big blind of the hand in play (bb % seats + 1, the physical
    next seat) holds no player: "the blinds are impacted". Button unknown -> never halted.
    Judged on `occupied`: a seat reserved for a mover who has not sat down is still empty.
    """
    return halted_among(tables, rules, lambda t: frozenset(t.occupied))


def halted_among(
    tables: Sequence[FloorTable],
    rules: FloorRules,
    seated_of: Callable[[FloorTable], Collection[int]],
    largest: int | None = None,
) -> frozenset[int]:
    """`largest`: the largest count in the field, when `tables` are only the short ones."""
    if not tables:
        return frozenset()
    if largest is None:
        largest = max(t.count for t in tables)
    halted = set()
    for table in tables:
        if table.blinds is None or largest - table.count < rules.halt_threshold:
            continue
        if table.blinds.big_blind % table.seats + 1 not in seated_of(table):
            halted.add(table.number)
    return frozenset(halted)
