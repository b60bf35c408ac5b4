"""The simulator's settings, results and small helpers (tables/devtools/simulation.py)."""

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field


class InvariantError(AssertionError):
    """The tournament reached a state the rules forbid (a seat twice, a lost player...)."""


@dataclass(frozen=True, slots=True)
class SimulationConfig:
    """What to simulate. Probabilities are per hand or per bust-out, in 0..1."""

    players: int
    seed: int | None = None
    house_rules: str = "rimoc"
    hands_per_bust: float = 3.0
    """Average hands a table plays between two of its bust-out hands."""
    undo_rate: float = 0.01
    """Chance that a bust-out is undone right away and recorded again."""
    double_bust_rate: float = 0.05
    """Chance that a bust-out hand busts two players at the table."""
    hand_for_hand: bool = False
    """Go hand-for-hand from paid + 3 players left down to the paid places."""
    paid_fraction: float = 0.10
    """[INF] Share of the field that is paid (places 1..ceil(players x fraction))."""
    level_hands: int = 8
    """The clock moves to the next level after this many hands per open table."""
    check_every: int = 100
    """Check the invariants every this many bust-outs (and at the end)."""
    bulk_registration_above: int = 300
    analyze: bool = False
    """PostgreSQL only: VACUUM ANALYZE the tournament's tables after the setup and at every
    check, standing in for autovacuum on a server that has it switched off (not timed)."""
    starting_stack: int = 40_000
    buy_in: int = 10_000
    fee: int = 2_000
    name: str | None = None
    """Tournament name; default "Simulation <players> <timestamp>"."""

    def __post_init__(self) -> None:
        if self.players < 2:
            raise ValueError(f"a tournament needs at least 2 players, got {self.players}")
        if self.hands_per_bust < 1:
            raise ValueError(f"hands_per_bust must be >= 1, got {self.hands_per_bust}")
        for name in ("undo_rate", "double_bust_rate", "paid_fraction"):
            if not 0 <= getattr(self, name) <= 1:
                raise ValueError(f"{name} must be within 0..1")
        if self.level_hands < 1 or self.check_every < 1:
            raise ValueError("level_hands and check_every must be >= 1")


@dataclass(slots=True)
class MoveStats:
    """Moves the floor planned and the simulation carried out (undone plans excluded)."""

    balancing: int = 0
    """Single moves (balancing), each to the destination's worst position."""
    break_moves: int = 0
    """Players drawn to new seats by table breaks."""
    redraw_moves: int = 0
    """Players drawn to the final table."""
    table_breaks: int = 0
    unnamed: int = 0
    """Moves whose mover the floor had to name (source button unknown)."""
    sits_out: int = 0
    """Movers whose new seat is not dealt the next hand (newcomer rule)."""
    wait_hands: Counter = field(default_factory=Counter)
    """Balancing moves by hands before the mover posts the big blind (None: unknown)."""
    worst_checked: int = 0
    """Balancing moves checked against an independent worst-position computation."""
    worst_position: int = 0
    """... of which the mover got the smallest wait available at the destination."""

    @property
    def total(self) -> int:
        return self.balancing + self.break_moves + self.redraw_moves


@dataclass(slots=True)
class SimulationResult:
    """Everything a run measured. Times in milliseconds unless the name says seconds."""

    tournament_id: int
    name: str
    seed: int
    players: int
    winner_entry_id: int | None = None
    winner_name: str = ""
    bust_outs: int = 0
    """Bust-out hands recorded (a redo after an undo counts once)."""
    players_busted: int = 0
    double_busts: int = 0
    undos: int = 0
    hands: int = 0
    hands_skipped: int = 0
    """Hands whose report the service refused (table just closed or short): not replayed."""
    buttons_named: int = 0
    """Hands reported with the button's seat, at tables whose button was not known."""
    levels_advanced: int = 0
    clock_breaks: int = 0
    """Breaks of the structure the clock passed (skipped at once: time is accelerated)."""
    final_table_players: int | None = None
    """Players redrawn to the final table."""
    final_table_cause_busts: int | None = None
    """How many players busted in the hand that brought the final table."""
    final_table_seats: int | None = None
    max_open_tables: int = 0
    moves: MoveStats = field(default_factory=MoveStats)
    moves_per_bust: list[int] = field(default_factory=list)
    """Moves (single, break and redraw) each standing bust-out decision planned."""
    record_ms: list[float] = field(default_factory=list)
    """Each `eliminations_record` call: places, balancing, breaking decision, writes, commit."""
    record_cpu_ms: list[float] = field(default_factory=list)
    """... the CPU time of this process in each (the wall time less waiting for the database
    server and for other processes on a shared machine)."""
    record_planned_ms: list[float] = field(default_factory=list)
    """... the subset whose decision called the planner (a move, break or redraw was due)."""
    record_statements: list[int] = field(default_factory=list)
    """SQL statements of each `eliminations_record` call."""
    replan_ms: list[float] = field(default_factory=list)
    """`floor_replan` inside each `eliminations_record` (reads, planning, applying)."""
    plan_ms: list[float] = field(default_factory=list)
    """Each pure `floor_plan` call, whoever called it."""
    undo_ms: list[float] = field(default_factory=list)
    hand_ms: list[float] = field(default_factory=list)
    action_ms: list[float] = field(default_factory=list)
    h4h_started_at_players: int | None = None
    h4h_ended_at_players: int | None = None
    h4h_hands: int = 0
    h4h_note: str = ""
    invariant_checks: int = 0
    analyzed: int = 0
    """VACUUM ANALYZE runs (config.analyze on PostgreSQL)."""
    halted_seen: int = 0
    """Tables found halted (TDA 11-D) at an invariant check, after every action was done."""
    setup_seconds: float = 0.0
    play_seconds: float = 0.0
    total_seconds: float = 0.0


# --- small pure helpers ---------------------------------------------------------------------


def paid_places(players: int, fraction: float) -> int:
    """[INF] Places paid: `fraction` of the field, rounded up, at least 1."""
    return max(1, math.ceil(players * fraction))


def smallest_wait(seats: int, prev_bb: int, seated: set[int] | frozenset[int]) -> int | None:
    """The smallest wait a balancing mover can get at a table (docs/rules.md §5.5), computed
    here from the rule, independently of the planner, to check the planner's choice.

    Candidate seats: every seat not in `seated`, other than `prev_bb` (the next small blind)
    unless it is the only one. wait = 0 for a seat between `prev_bb` and the next big blind
    (the first seated seat after it), otherwise the players seated from the next big blind up
    to the seat. None when no seat is free.
    """
    free = [s for s in range(1, seats + 1) if s not in seated]
    if not free:
        return None
    clockwise = [(prev_bb + k - 1) % seats + 1 for k in range(1, seats + 1)]  # ends at prev_bb
    waits: dict[int, int] = {}
    passed = 0
    for seat in clockwise:
        if seat in seated:
            passed += 1
        else:
            waits[seat] = passed
    # Seats before the next big blind have passed == 0 already: the mover posts it next hand.
    candidates = [s for s in free if s != prev_bb] or free
    return min(waits[s] for s in candidates)


class ActiveSet:
    """The entries still playing, for O(1) uniform choice and removal."""

    def __init__(self, ids: Sequence[int]):
        self.items = list(ids)
        self.index = {e: i for i, e in enumerate(self.items)}

    def __len__(self) -> int:
        return len(self.items)

    def __contains__(self, entry_id: int) -> bool:
        return entry_id in self.index

    def add(self, entry_id: int) -> None:
        if entry_id not in self.index:
            self.index[entry_id] = len(self.items)
            self.items.append(entry_id)

    def remove(self, entry_id: int) -> None:
        i = self.index.pop(entry_id)
        last = self.items.pop()
        if last != entry_id:
            self.items[i] = last
            self.index[last] = i

    def choice(self, rng: random.Random) -> int:
        return self.items[rng.randrange(len(self.items))]


def timing_summary(samples_ms: Sequence[float]) -> dict[str, float | int]:
    """n, median, p95, p99 (nearest rank) and max of timings in milliseconds; n = 0 if none."""
    if not samples_ms:
        return {"n": 0}
    ordered = sorted(samples_ms)

    def rank(pct: float) -> float:
        return ordered[max(1, math.ceil(pct / 100 * len(ordered))) - 1]

    return {
        "n": len(ordered),
        "median": round(statistics.median(ordered), 3),
        "p95": round(rank(95), 3),
        "p99": round(rank(99), 3),
        "max": round(ordered[-1], 3),
    }


def ms_since(start_ns: int) -> float:
    """Milliseconds since `start_ns` (time.perf_counter_ns)."""
    return (time.perf_counter_ns() - start_ns) / 1e6
