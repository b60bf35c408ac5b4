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
whole use case), and, through the floor's timing probes (infra/probes.py), the replanning
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
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import connection
from django.db.models import Subquery
from django.utils import timezone

from clocks.clock.usecases import clock_operate
from clocks.domain.structures import TEMPLATES
from clocks.models import Structure
from clocks.structures.usecases import structure_template_install
from infra.probes import probes_heard
from tables.devtools.simulation_floor import FloorPerson, next_big_blind_entry
from tables.devtools.simulation_results import (
    ActiveSet,
    InvariantError,
    MoveStats,
    SimulationConfig,
    SimulationResult,
    ms_since,
    paid_places,
    smallest_wait,
    timing_summary,
)
from tables.hand_for_hand.operations import hand_for_hand_state
from tables.hand_for_hand.usecases import hand_for_hand_set
from tables.hands.usecases import hand_report
from tables.models import FloorAction, Room, Seat, TournamentTable
from tables.rooms.usecases import room_create
from tables.seating.selectors import at_table
from tables.seating.usecases import seats_draw
from tourney.core.errors import Conflict, NotFound
from tourney.eliminations.usecases import elimination_undo, eliminations_record
from tourney.models import Elimination, Entry, LedgerEntry, Player, Tournament
from tourney.players.usecases import player_create
from tourney.registration.usecases import entries_register_bulk, entry_register
from tourney.staff.usecases import staff_user_ensure
from tourney.tournaments.usecases import tournament_create

ACTIVE = Entry.Status.ACTIVE
OPEN = TournamentTable.Status.OPEN
STRUCTURE_TEMPLATE = "rimoc-championship"
SIMULATOR_USERNAME = "simulator"


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


class _Simulation(FloorPerson):
    def __init__(self, config: SimulationConfig, progress: Callable[[str], None] | None):
        self.config = config
        seed = config.seed if config.seed is not None else random.SystemRandom().randrange(2**32)
        self.rng = random.Random(seed)
        self.seed = seed
        self.progress = progress or (lambda _line: None)
        self.actor = None
        self.tournament_id = 0
        self.result: SimulationResult | None = None
        self.active = ActiveSet(())
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
        infra/probes.py), and count SQL statements, while the run lasts."""
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
        self.active = ActiveSet(ids)
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

    # -- hands and bust-outs --

    def _table_of_random_player(self) -> list[tuple[int, bool, int]]:
        """(entry, waits_for_button, table number) of everyone at the table of a player chosen
        uniformly: a table chosen with probability proportional to its players."""
        chosen = self.active.choice(self.rng)
        table_of = Entry.objects.filter(pk=chosen).values("tournament_table_id")
        return list(
            Entry.objects.filter(
                seat_row__tournament_table_id=Subquery(table_of), status=ACTIVE
            ).values_list("pk", "waits_for_button", "tournament_table__number")
        )

    def _table_players(self, number: int) -> list[tuple[int, bool, int]]:
        return list(
            Entry.objects.filter(
                at_table(self.tournament_id, number),
                tournament_id=self.tournament_id,
                status=ACTIVE,
                seat_row__tournament_table__status=OPEN,
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
        elapsed = ms_since(start)
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
                result.undo_ms.append(ms_since(start))
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
                self.result.hand_ms.append(ms_since(start))
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
                    at_table(self.tournament_id, number), status=ACTIVE
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
        models = (Entry, Seat, TournamentTable, Elimination, FloorAction, Player, LedgerEntry)
        # VACUUM cannot run inside a transaction (a test's): then statistics only.
        command = "ANALYZE" if connection.in_atomic_block else "VACUUM ANALYZE"
        with connection.cursor() as cursor:
            cursor.execute(f"{command} " + ", ".join(m._meta.db_table for m in models))
        self.result.analyzed += 1

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
