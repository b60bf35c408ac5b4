"""A whole tournament played through the real services at accelerated time (issue 4).

`simulate(SimulationConfig(players=N))` sets up a room, a tournament and its players, draws the
seats, starts the clock and plays until one player is left: hands are reported at tables
chosen at random (weighted by players), some hands bust one or two players
(`eliminations_record`, with start-of-hand stacks from a simple chip model), a few bust-outs
are undone and recorded again, and every move, table break and final-table redraw the floor
plans is carried out (`floor_action_done`) before the next hand, as a floor person would.
Near the money the field can go hand-for-hand. Nothing sleeps: the clock moves only when the
engine calls `clock_operate("next")` after a number of hands per table.

It is both the demo (`manage.py simulate`) and the load generator of the floor benchmark, so it
measures what it does: the wall time of every bust-out decision (`eliminations_record`, the
whole use case), and, through the floor's timing probes (tourney/probes.py), the replanning
inside it and the pure planner (`floor_plan_counts`).

Shortcut: above `bulk_registration_above` players (default 300) the players, entries and
ledger rows are bulk-created in one transaction by the use case `entries_register_bulk` (the
same rows as `entry_register`: entry numbers, buy-in and fee rows, receipt numbers), with one
audit entry for the lot instead of one audit entry and one event per player. Registration
has its own benchmark; this keeps a 10,000-player setup to seconds.

The engine prints nothing; `progress` (optional) receives one line now and then. Invariants
are checked every `check_every` bust-outs and at the end; a broken one raises
`InvariantError`.
"""

import math
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from django.db import connection
from django.db.models import Count, Subquery
from django.utils import timezone

from clocks.domain.structures import TEMPLATES
from clocks.models import Structure
from clocks.services.clock import clock_operate
from clocks.services.structures import structure_template_install
from tables.domain.button import next_big_blind_seat
from tables.domain.floor import tables_wanted
from tables.domain.floor_rules import floor_rules
from tables.floor.selectors import floor_actions_out, floor_halted_tables, multi_table_start
from tables.floor.usecases import floor_action_done
from tables.hand_for_hand.operations import hand_for_hand_state
from tables.hand_for_hand.usecases import hand_for_hand_set
from tables.models import FloorAction, Room, TournamentTable
from tables.selectors import table_blinds, table_players_drift
from tables.services.hands import hand_report
from tables.services.rooms import room_create
from tables.services.seating import seats_draw
from tourney.errors import Conflict, NotFound
from tourney.models import Elimination, Entry, LedgerEntry, Player, Tournament
from tourney.probes import probes_heard
from tourney.selectors import tournament_rules
from tourney.services.eliminations import elimination_undo, eliminations_record
from tourney.services.entries import entries_register_bulk, entry_register
from tourney.services.players import player_create
from tourney.services.staff import staff_user_ensure
from tourney.services.tournaments import tournament_create

ACTIVE = Entry.Status.ACTIVE
OPEN = TournamentTable.Status.OPEN
PENDING = FloorAction.Status.PENDING
STRUCTURE_TEMPLATE = "rimoc-championship"
SIMULATOR_USERNAME = "simulator"


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


class _ActiveSet:
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


def _ms(start_ns: int) -> float:
    return (time.perf_counter_ns() - start_ns) / 1e6


# --- setup ----------------------------------------------------------------------------------


def _structure() -> Structure:
    return Structure.objects.filter(
        template_key=STRUCTURE_TEMPLATE
    ).first() or structure_template_install(TEMPLATES[STRUCTURE_TEMPLATE])


def _unique_room_name(base: str) -> str:
    name, n = base, 1
    while Room.objects.filter(name=name).exists():
        n += 1
        name = f"{base} ({n})"
    return name


# --- the engine -----------------------------------------------------------------------------


class _Simulation:
    def __init__(self, config: SimulationConfig, progress: Callable[[str], None] | None):
        self.config = config
        seed = config.seed if config.seed is not None else random.SystemRandom().randrange(2**32)
        self.rng = random.Random(seed)
        self.seed = seed
        self.progress = progress or (lambda _line: None)
        self.actor = None
        self.tournament_id = 0
        self.result: SimulationResult | None = None
        self.active = _ActiveSet(())
        self.stacks: dict[int, int] = {}
        self.last_action_id = 0
        self.collected: dict[int, dict] = {}  # action id -> API row, while pending
        self.worst: dict[int, bool] = {}  # balancing move id -> got the smallest wait
        self.open_tables = 0
        self.hands_this_level = 0
        self.clock_done = False
        self.paid = paid_places(config.players, config.paid_fraction)
        self.h4h_possible = config.hand_for_hand
        self.h4h_on = False
        # Filled by the wrappers while a timed service call runs.
        self.plan_calls = 0
        self.replan_sink: list[float] | None = None
        self.statements = 0

    # -- instrumentation --

    @contextmanager
    def instrumented(self) -> Iterator[None]:
        """Time the pure planner and the replanning inside bust-outs (the floor's probes,
        tourney/probes.py), and count SQL statements, while the run lasts."""
        result = self.result

        def heard(name: str, ms: float) -> None:
            if name == "floor.plan":
                result.plan_ms.append(ms)
                self.plan_calls += 1
            elif name == "floor.replan" and self.replan_sink is not None:
                self.replan_sink.append(ms)

        def counted(execute, sql, params, many, context):
            self.statements += 1
            return execute(sql, params, many, context)

        with probes_heard(heard), connection.execute_wrapper(counted):
            yield

    # -- setup --

    def setup(self) -> None:
        cfg = self.config
        self.actor = staff_user_ensure(actor=None, username=SIMULATOR_USERNAME, role="director")
        stamp = timezone.localtime().strftime("%Y-%m-%d %H:%M:%S")
        name = cfg.name or f"Simulation {cfg.players} {stamp}"
        tables = math.ceil(cfg.players / 9) + 2
        room = room_create(
            actor=self.actor,
            name=_unique_room_name(f"Simulation room {cfg.players} {stamp}"),
            tables=[{"number": n, "seats": 10} for n in range(1, tables + 1)],
        )
        tournament = tournament_create(
            actor=self.actor,
            name=name,
            structure_id=_structure().pk,
            starting_stack=cfg.starting_stack,
            buy_in=cfg.buy_in,
            fee=cfg.fee,
            room_id=room.pk,
            house_rules=cfg.house_rules,
            waiting_list_enabled=False,
        )
        self.tournament_id = tournament.pk
        self.result = SimulationResult(
            tournament_id=tournament.pk, name=name, seed=self.seed, players=cfg.players
        )
        names = [f"Sim {i:05d}" for i in range(1, cfg.players + 1)]
        if cfg.players <= cfg.bulk_registration_above:
            for player_name in names:
                player = player_create(actor=self.actor, name=player_name)
                entry_register(
                    actor=self.actor,
                    tournament_id=tournament.pk,
                    player_id=player.pk,
                    rng=self.rng,
                )
        else:
            entries_register_bulk(actor=self.actor, tournament_id=tournament.pk, names=names)
        seats_draw(actor=self.actor, tournament_id=tournament.pk, rng=self.rng)
        clock_operate(actor=self.actor, tournament_id=tournament.pk, operation="start")
        ids = list(
            Entry.objects.filter(tournament_id=tournament.pk, status=ACTIVE)
            .order_by("pk")
            .values_list("pk", flat=True)
        )
        self.active = _ActiveSet(ids)
        self.stacks = dict.fromkeys(ids, cfg.starting_stack)
        self.open_tables = self._count_open_tables()
        self.result.max_open_tables = self.open_tables
        self.analyze()
        self.last_action_id = (
            FloorAction.objects.filter(tournament_id=tournament.pk)
            .order_by("-pk")
            .values_list("pk", flat=True)
            .first()
            or 0
        )

    def _tournament(self) -> Tournament:
        return Tournament.objects.get(pk=self.tournament_id)

    def _count_open_tables(self) -> int:
        return TournamentTable.objects.filter(tournament_id=self.tournament_id, status=OPEN).count()

    # -- the floor's to-do list --

    def collect(self) -> list[dict]:
        """Read the actions planned since the last look, before anything else changes the
        seating, and check each balancing move's seat against the worst position."""
        new = list(
            FloorAction.objects.filter(
                tournament_id=self.tournament_id, parent__isnull=True, pk__gt=self.last_action_id
            ).order_by("pk")
        )
        if not new:
            return []
        self.last_action_id = new[-1].pk
        rows = floor_actions_out(new)
        self._check_worst([r for r in rows if r["kind"] == FloorAction.Kind.MOVE])
        for row in rows:
            self.collected[row["id"]] = row
        return rows

    def _check_worst(self, moves: list[dict]) -> None:
        """For each balancing move of one plan, in planning order: the destination as the
        planner saw it and the smallest wait a seat there offered. The seating is read after
        the plan was applied, so movers of this and later moves to the table are taken out,
        later movers from it put back, and seats held for earlier unnamed movers kept."""
        if not any(m["entry_id"] is not None and m["wait_hands"] is not None for m in moves):
            return
        numbers = {m["to_table"] for m in moves}
        tables = {
            t.number: t
            for t in TournamentTable.objects.filter(
                tournament_id=self.tournament_id, number__in=numbers
            )
        }
        seated_now: dict[int, dict[int, int]] = {n: {} for n in numbers}
        for number, seat, entry_id in Entry.objects.filter(
            tournament_id=self.tournament_id, status=ACTIVE, tournament_table__number__in=numbers
        ).values_list("tournament_table__number", "seat", "pk"):
            seated_now[number][entry_id] = seat
        for i, move in enumerate(moves):
            if move["entry_id"] is None or move["wait_hands"] is None:
                continue
            number = move["to_table"]
            blinds = table_blinds(tables[number])
            if blinds is None:
                continue
            later = moves[i:]
            arriving = {m["entry_id"] for m in later if m["to_table"] == number}
            seated = {s for e, s in seated_now[number].items() if e not in arriving}
            seated |= {m["from_seat"] for m in later[1:] if m["from_table"] == number}
            seated |= {
                m["to_seat"] for m in moves[:i] if m["to_table"] == number and m["entry_id"] is None
            }
            seated.discard(None)
            best = smallest_wait(tables[number].seats, blinds.big_blind, seated)
            self.worst[move["id"]] = best is not None and move["wait_hands"] == best

    def _name_next_big_blind(self, table_number: int) -> int | None:
        return next_big_blind_entry(self.tournament_id, table_number, self.rng)

    def carry_out(self) -> None:
        """Confirm every pending action, oldest first, as the floor would before the next
        hand; confirming may plan more, which is carried out too."""
        for _round in range(1_000):
            pending = list(
                FloorAction.objects.filter(
                    tournament_id=self.tournament_id, parent__isnull=True, status=PENDING
                )
                .order_by("pk")
                .values_list("pk", "kind", "entry_id", "from_table")
            )
            if not pending:
                # What is left was undone or replaced by a later plan: never to be done.
                self.collected.clear()
                self.worst.clear()
                return
            for action_id, kind, entry_id, from_table in pending:
                named = None
                if kind == FloorAction.Kind.MOVE and entry_id is None:
                    named = self._name_next_big_blind(from_table)
                    self.result.moves.unnamed += 1
                start = time.perf_counter_ns()
                try:
                    floor_action_done(
                        actor=self.actor,
                        tournament_id=self.tournament_id,
                        action_id=action_id,
                        entry_id=named,
                    )
                except Conflict as exc:
                    if exc.code == "action_not_pending":
                        continue  # done by an earlier confirmation (its parent)
                    raise
                self.result.action_ms.append(_ms(start))
                self._count_done(action_id)
                self.collect()
            self.open_tables = self._count_open_tables()
        raise InvariantError("the floor's to-do list does not empty")

    def _count_done(self, action_id: int) -> None:
        row = self.collected.pop(action_id, None)
        if row is None:
            return
        stats = self.result.moves
        if row["kind"] == FloorAction.Kind.MOVE:
            stats.balancing += 1
            stats.wait_hands[row["wait_hands"]] += 1
            stats.sits_out += row["sits_out"]
            if action_id in self.worst:
                stats.worst_checked += 1
                stats.worst_position += self.worst.pop(action_id)
        elif row["kind"] == FloorAction.Kind.BREAK_TABLE:
            stats.table_breaks += 1
            stats.break_moves += len(row["moves"])
            stats.sits_out += sum(m["sits_out"] for m in row["moves"])
        elif row["kind"] == FloorAction.Kind.FINAL_TABLE_REDRAW:
            stats.redraw_moves += len(row["moves"])

    # -- hands and bust-outs --

    def _table_of_random_player(self) -> list[tuple[int, bool, int]]:
        """(entry, waits_for_button, table number) of everyone at the table of a player chosen
        uniformly: a table chosen with probability proportional to its players."""
        chosen = self.active.choice(self.rng)
        table_of = Entry.objects.filter(pk=chosen).values("tournament_table_id")
        return list(
            Entry.objects.filter(tournament_table_id=Subquery(table_of), status=ACTIVE).values_list(
                "pk", "waits_for_button", "tournament_table__number"
            )
        )

    def _table_players(self, number: int) -> list[tuple[int, bool, int]]:
        return list(
            Entry.objects.filter(
                tournament_id=self.tournament_id,
                status=ACTIVE,
                tournament_table__number=number,
                tournament_table__status=OPEN,
            ).values_list("pk", "waits_for_button", "tournament_table__number")
        )

    def _bust_victims(self, dealt: list[int]) -> tuple[int | None, list[int]]:
        """A winner and the players it busts (each covered by the winner's stack)."""
        cfg = self.config
        if len(dealt) < 2 or self.rng.random() >= 1 / cfg.hands_per_bust:
            return None, []
        wanted = 1
        if len(dealt) >= 3 and len(self.active) >= 3 and self.rng.random() < cfg.double_bust_rate:
            wanted = 2
        winner = dealt[self.rng.randrange(len(dealt))]
        covered = [p for p in dealt if p != winner and self.stacks[p] <= self.stacks[winner]]
        victims = self.rng.sample(covered, min(wanted, len(covered)))
        return winner, victims

    def _chips_change_hands(self, dealt: list[int]) -> None:
        """A hand without a bust: one player loses part of the smaller stack to another."""
        if len(dealt) < 2:
            return
        loser, winner = self.rng.sample(dealt, 2)
        at_risk = min(self.stacks[loser] - 1, self.stacks[winner])
        if at_risk < 1:
            return
        amount = max(1, round(at_risk * self.rng.uniform(0.05, 0.6)))
        self.stacks[loser] -= amount
        self.stacks[winner] += amount

    def _record(self, busts: list[tuple[int, int]]) -> dict:
        result = self.result
        replan: list[float] = []
        self.replan_sink, calls_before = replan, self.plan_calls
        statements_before = self.statements
        cpu = time.thread_time_ns()
        start = time.perf_counter_ns()
        try:
            response = eliminations_record(
                actor=self.actor,
                tournament_id=self.tournament_id,
                eliminations=busts,
                rng=self.rng,
            )
        finally:
            self.replan_sink = None
        elapsed = _ms(start)
        result.record_cpu_ms.append((time.thread_time_ns() - cpu) / 1e6)
        result.record_ms.append(elapsed)
        result.record_statements.append(self.statements - statements_before)
        result.replan_ms.extend(replan)
        if self.plan_calls > calls_before:
            result.record_planned_ms.append(elapsed)
        return response

    def bust(self, winner: int, victims: list[int]) -> bool:
        """Record the bust-out (maybe undo and redo it); True when a final-table redraw came
        of it. Chips move only once the bust stands."""
        result = self.result
        busts = [(v, self.stacks[v]) for v in victims]
        response = self._record(busts)
        self.collect()
        if self.rng.random() < self.config.undo_rate:
            for victim in victims:
                start = time.perf_counter_ns()
                elimination_undo(
                    actor=self.actor,
                    tournament_id=self.tournament_id,
                    entry_id=victim,
                    rng=self.rng,
                )
                result.undo_ms.append(_ms(start))
            result.undos += 1
            self.collect()
            response = self._record(busts)
            self.collect()
        moves = sum(
            len(a["moves"]) if a["kind"] != FloorAction.Kind.MOVE else 1
            for a in response["actions"]
        )
        result.moves_per_bust.append(moves)
        result.bust_outs += 1
        result.players_busted += len(victims)
        result.double_busts += len(victims) > 1
        for victim in victims:
            self.stacks[winner] += self.stacks.pop(victim)
            self.active.remove(victim)
        redraw = next(
            (a for a in response["actions"] if a["kind"] == FloorAction.Kind.FINAL_TABLE_REDRAW),
            None,
        )
        if redraw is not None:
            result.final_table_players = len(redraw["moves"])
            result.final_table_cause_busts = len(victims)
            result.final_table_seats = (
                TournamentTable.objects.filter(
                    tournament_id=self.tournament_id, number=redraw["to_table"]
                )
                .values_list("seats", flat=True)
                .first()
            )
        return redraw is not None

    def play_hand(self, rows: list[tuple[int, bool, int]]) -> bool:
        """One hand at one table: maybe a bust-out, then the dealer's hand report, then the
        floor's actions. True when something happened (a bust-out or a hand reported)."""
        if not rows:
            return False
        number = rows[0][2]
        dealt = [entry_id for entry_id, waits, _n in rows if not waits]
        winner, victims = self._bust_victims(dealt)
        redrawn = False
        if victims:
            redrawn = self.bust(winner, victims)
        else:
            self._chips_change_hands(dealt)
        reported = False
        # After the final-table redraw the host's positions are those of its first hand: the
        # hand that brought it is not reported again.
        if len(self.active) > 1 and not redrawn:
            start = time.perf_counter_ns()
            try:
                reported = self._report_hand(number)
            except NotFound:
                pass  # the table just broke
            except Conflict as exc:
                if exc.code not in ("table_short", "h4h_wait"):
                    raise
            if reported:
                self.result.hand_ms.append(_ms(start))
                self.result.hands += 1
                self.collect()
            else:
                self.result.hands_skipped += 1
        self.carry_out()
        if reported:
            self.hands_this_level += 1
        return reported or bool(victims)

    def _report_hand(self, number: int) -> bool:
        """The dealer reports the hand; at a table whose button nobody recorded (a table just
        opened for an undone bust-out) the dealer says where the button is."""
        try:
            hand_report(actor=self.actor, tournament_id=self.tournament_id, table_number=number)
        except Conflict as exc:
            if exc.code != "button_unknown":
                raise
            seats = list(
                Entry.objects.filter(
                    tournament_id=self.tournament_id,
                    status=ACTIVE,
                    tournament_table__number=number,
                ).values_list("seat", flat=True)
            )
            hand_report(
                actor=self.actor,
                tournament_id=self.tournament_id,
                table_number=number,
                button_seat=self.rng.choice(sorted(seats)),
            )
            self.result.buttons_named += 1
        return True

    # -- the clock --

    def maybe_next_level(self) -> None:
        """Move the clock on after `level_hands` hands per open table; breaks pass at once."""
        if self.clock_done:
            return
        if self.hands_this_level < self.config.level_hands * max(1, self.open_tables):
            return
        self.hands_this_level = 0
        for _ in range(2):
            try:
                clock = clock_operate(
                    actor=self.actor, tournament_id=self.tournament_id, operation="next"
                )
            except Conflict:
                self.clock_done = True
                return
            if clock["period"]["kind"] == "break":
                self.result.clock_breaks += 1
                if clock["next_period"] is None:
                    self.clock_done = True
                    return
                continue  # accelerated time: the break is over at once
            self.result.levels_advanced += 1
            if clock["next_period"] is None:
                self.clock_done = True  # stay on the last level: "next" would end the clock
            return

    # -- hand-for-hand --

    def maybe_hand_for_hand(self) -> bool:
        """Switch hand-for-hand on at the bubble and off once it burst; True while on."""
        left = len(self.active)
        result = self.result
        if self.h4h_on:
            if left <= self.paid or self.open_tables < 2:
                self._h4h_off()
                return False
            return True
        if self.h4h_possible and self.paid < left <= self.paid + 3:
            self.h4h_possible = False  # once per tournament
            try:
                hand_for_hand_set(actor=self.actor, tournament_id=self.tournament_id, active=True)
            except Conflict as exc:
                result.h4h_note = f"not started at {left} players left: {exc.code}"
                return False
            result.h4h_started_at_players = left
            self.h4h_on = True
            return True
        return False

    def _h4h_off(self) -> None:
        hand_for_hand_set(actor=self.actor, tournament_id=self.tournament_id, active=False)
        self.h4h_on = False
        self.result.h4h_ended_at_players = len(self.active)

    def play_h4h_round(self) -> None:
        """Every table still to play the current hand-for-hand hand plays it."""
        state = hand_for_hand_state(self._tournament())
        progressed = False
        for number in state["tables_playing"]:
            progressed |= self.play_hand(self._table_players(number))
            if len(self.active) <= 1:
                return
        self.result.h4h_hands += 1
        if not progressed:
            # No table could play: leave hand-for-hand rather than wait for ever.
            self.result.h4h_note = f"stalled at {len(self.active)} players: ended"
            self._h4h_off()

    def analyze(self) -> None:
        """Vacuumed tables and fresh planner statistics, as autovacuum keeps them: a 10,000-row
        bulk load left unanalyzed makes PostgreSQL plan for an empty table, and without vacuum
        every seat change leaves a dead row that index scans must visit."""
        if not self.config.analyze or connection.vendor != "postgresql":
            return
        models = (Entry, TournamentTable, Elimination, FloorAction, Player, LedgerEntry)
        # VACUUM cannot run inside a transaction (a test's): then statistics only.
        command = "ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE"
        with connection.cursor() as cursor:
            cursor.execute(f"{command} " + ", ".join(m._meta.db_table for m in models))
        self.result.analyzed += 1

    # -- invariants --

    def check(self) -> None:
        """The seating, the field and the places are what the rules allow (InvariantError)."""
        tid = self.tournament_id
        result = self.result
        result.invariant_checks += 1
        tournament = self._tournament()
        tables = {t.pk: t for t in TournamentTable.objects.filter(tournament_id=tid)}
        seats: set[tuple[int, int]] = set()
        active_ids = set()
        for entry_id, table_id, seat in Entry.objects.filter(
            tournament_id=tid, status=ACTIVE
        ).values_list("pk", "tournament_table_id", "seat"):
            active_ids.add(entry_id)
            table = tables.get(table_id)
            if table is None or seat is None:
                raise InvariantError(f"entry {entry_id} plays without a seat")
            if table.status != OPEN or not 1 <= seat <= table.seats:
                raise InvariantError(f"entry {entry_id} sits at table {table.number} seat {seat}")
            if (table_id, seat) in seats:
                raise InvariantError(f"table {table.number} seat {seat} holds two players")
            seats.add((table_id, seat))
        drift = table_players_drift(tid)
        if drift:
            raise InvariantError(f"stored player counts (stored, counted) are wrong: {drift}")
        if active_ids != set(self.active.items):
            lost = set(self.active.items) ^ active_ids
            raise InvariantError(f"the field differs from the simulation's: entries {sorted(lost)}")
        open_tables = sum(t.status == OPEN for t in tables.values())
        rules = floor_rules(tournament_rules(tournament))
        wanted = max(1, tables_wanted(len(active_ids), multi_table_start(tournament), rules))
        if open_tables > wanted:
            raise InvariantError(f"{open_tables} tables open for {len(active_ids)} players")
        self._check_places(len(active_ids))
        result.halted_seen += len(floor_halted_tables(tournament))

    def _check_places(self, remaining: int) -> None:
        """Every entry is playing or out with a place; the places of the standing bust-outs
        tile remaining+1 .. players, each shared range held by as many players as it spans."""
        tid = self.tournament_id
        players = self.config.players
        statuses = dict(
            Entry.objects.filter(tournament_id=tid)
            .values("status")
            .annotate(n=Count("pk"))
            .values_list("status", "n")
        )
        if statuses.get(ACTIVE, 0) + statuses.get(Entry.Status.ELIMINATED, 0) != players:
            raise InvariantError(f"entries by status {statuses} do not add up to {players}")
        rows = list(
            Elimination.objects.filter(tournament_id=tid, undone_at__isnull=True).values_list(
                "entry_id", "place", "place_to"
            )
        )
        eliminated = dict(
            Entry.objects.filter(tournament_id=tid, status=Entry.Status.ELIMINATED).values_list(
                "pk", "place"
            )
        )
        if len(rows) != len(eliminated) or {r[0] for r in rows} != set(eliminated):
            raise InvariantError("eliminated entries and standing eliminations differ")
        worst = players
        for (place, place_to), n in sorted(
            Counter((place, place_to) for _e, place, place_to in rows).items(), reverse=True
        ):
            if place_to != worst or place_to - place + 1 != n:
                raise InvariantError(f"places {place}-{place_to} held by {n} players")
            worst = place - 1
        if worst != remaining:
            raise InvariantError(f"places end at {worst + 1} with {remaining} players left")
        for entry_id, place, _to in rows:
            if eliminated[entry_id] != place:
                raise InvariantError(f"entry {entry_id} shows place {eliminated[entry_id]}")

    # -- the run --

    def run(self) -> SimulationResult:
        cfg = self.config
        start = time.perf_counter()
        self.setup()
        result = self.result
        result.setup_seconds = time.perf_counter() - start
        self.progress(
            f"{result.name}: {cfg.players} players on {self.open_tables} tables, seed {self.seed}"
        )
        play_start = time.perf_counter()
        with self.instrumented():
            checked_at = 0
            while len(self.active) > 1:
                h4h = self.maybe_hand_for_hand()
                if h4h:
                    self.play_h4h_round()
                else:
                    self.play_hand(self._table_of_random_player())
                    self.maybe_next_level()
                result.max_open_tables = max(result.max_open_tables, self.open_tables)
                if result.bust_outs - checked_at >= cfg.check_every:
                    checked_at = result.bust_outs
                    self.check()
                    self.analyze()
                    self.progress(
                        f"{len(self.active)} left on {self.open_tables} tables, "
                        f"{result.bust_outs} bust-outs, {result.hands} hands"
                    )
            self.check()
        result.play_seconds = time.perf_counter() - play_start
        winner = Entry.objects.select_related("player").get(pk=self.active.items[0])
        tournament = self._tournament()
        if winner.place != 1 or tournament.status != Tournament.Status.FINISHED:
            raise InvariantError("the last player is not the winner of a finished tournament")
        if sum(self.stacks.values()) != cfg.players * cfg.starting_stack:
            raise InvariantError("chips appeared or vanished")
        result.winner_entry_id, result.winner_name = winner.pk, winner.player.name
        result.total_seconds = time.perf_counter() - start
        return result


def next_big_blind_entry(tournament_id: int, table_number: int, rng: random.Random) -> int | None:
    """The entry a floor person names for a move "the player who is big blind next": read from
    the table's positions, or a random player there when its button is not known."""
    table = TournamentTable.objects.filter(tournament_id=tournament_id, number=table_number).first()
    if table is None:
        return None
    occupied = dict(
        Entry.objects.filter(tournament_table=table, status=ACTIVE).values_list("seat", "pk")
    )
    if not occupied:
        return None
    blinds = table_blinds(table)
    if blinds is None or len(occupied) < 2:
        return occupied[rng.choice(sorted(occupied))]
    return occupied[next_big_blind_seat(blinds, occupied, table.seats)]


def simulate(
    config: SimulationConfig, progress: Callable[[str], None] | None = None
) -> SimulationResult:
    """Play a whole tournament through the services; see the module docstring."""
    return _Simulation(config, progress).run()


__all__ = [
    "InvariantError",
    "MoveStats",
    "SimulationConfig",
    "SimulationResult",
    "next_big_blind_entry",
    "paid_places",
    "simulate",
    "smallest_wait",
    "timing_summary",
]
