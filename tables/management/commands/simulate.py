"""Play a whole tournament through the services at accelerated time and print a summary:
`manage.py simulate --players N [--seed S] [--hand-for-hand] ...` (tables/devtools/simulation.py).

A developer tool: output in English, not translated.
"""

import argparse
import statistics

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from tables.devtools.simulation import simulate
from tables.devtools.simulation_results import (
    InvariantError,
    SimulationConfig,
    SimulationResult,
    paid_places,
    timing_summary,
)
from tourney.domain.house_rules_profiles import PROFILES


def _timing_line(label: str, samples: list[float]) -> str:
    t = timing_summary(samples)
    if not t["n"]:
        return f"  {label}: none"
    return (
        f"  {label}: median {t['median']:.2f} ms, p95 {t['p95']:.2f}, p99 {t['p99']:.2f},"
        f" max {t['max']:.2f} (n={t['n']})"
    )


def summary_lines(result: SimulationResult, config: SimulationConfig) -> list[str]:
    moves = result.moves
    busts = max(1, result.bust_outs)
    waits = ", ".join(
        f"{'?' if k is None else k}: {v}"
        for k, v in sorted(moves.wait_hands.items(), key=lambda kv: (kv[0] is None, kv[0] or 0))
    )
    h4h = "off"
    if config.hand_for_hand:
        if result.h4h_started_at_players is not None:
            h4h = (
                f"from {result.h4h_started_at_players} to {result.h4h_ended_at_players} players"
                f" left, {result.h4h_hands} hand-for-hand hands"
            )
        else:
            h4h = "never started"
        if result.h4h_note:
            h4h += f" ({result.h4h_note})"
    paid = paid_places(result.players, config.paid_fraction)
    return [
        f"{result.name} (tournament {result.tournament_id}, seed {result.seed})",
        f"  Winner: {result.winner_name} (entry {result.winner_entry_id})",
        f"  Players {result.players}, paid places {paid}, hand-for-hand {h4h}",
        f"  Bust-outs {result.bust_outs} ({result.players_busted} players,"
        f" {result.double_busts} with two players), undone and redone {result.undos}",
        f"  Hands reported {result.hands} (refused {result.hands_skipped}),"
        f" levels advanced {result.levels_advanced}, clock breaks passed {result.clock_breaks}",
        f"  Tables: up to {result.max_open_tables} open, {moves.table_breaks} broken;"
        f" final table of {result.final_table_players} players"
        f" ({result.final_table_seats} seats, the hand that brought it busted"
        f" {result.final_table_cause_busts})",
        f"  Moves {moves.total}: {moves.balancing} balancing, {moves.break_moves} from breaks,"
        f" {moves.redraw_moves} to the final table; {moves.sits_out} sat out a hand,"
        f" {moves.unnamed} named by the floor",
        f"  Moves per bust-out: mean {moves.total / busts:.3f},"
        f" max {max(result.moves_per_bust, default=0)}",
        f"  Balancing movers in the worst position: {moves.worst_position} of"
        f" {moves.worst_checked} checked; hands before their big blind: {waits or 'none'}",
        f"  Invariant checks {result.invariant_checks}, halted tables seen {result.halted_seen}",
        "  Timings (wall clock, whole service calls including the commit):",
        _timing_line("bust-out decision (eliminations_record)", result.record_ms),
        f"    SQL statements per bust-out decision: median"
        f" {statistics.median(result.record_statements or [0]):g},"
        f" max {max(result.record_statements, default=0)}",
        _timing_line("  ... its CPU time in this process", result.record_cpu_ms),
        _timing_line("  ... those that planned a move, break or redraw", result.record_planned_ms),
        _timing_line("  ... floor_replan inside it", result.replan_ms),
        _timing_line("pure planner (floor_plan), every call", result.plan_ms),
        _timing_line("bust-out undo (elimination_undo)", result.undo_ms),
        _timing_line("hand report (hand_report)", result.hand_ms),
        _timing_line("floor action confirmed (floor_action_done)", result.action_ms),
        f"  Setup {result.setup_seconds:.1f} s, play {result.play_seconds:.1f} s,"
        f" total {result.total_seconds:.1f} s",
    ]


class Command(BaseCommand):
    help = (
        "Simulate a tournament to one winner through the real services (accelerated time) "
        "and print a summary; in a throwaway database unless --keep."
    )

    def add_arguments(self, parser):
        parser.add_argument("--players", type=int, required=True)
        parser.add_argument("--seed", type=int, help="seed of the random choices")
        parser.add_argument("--house-rules", default="rimoc", choices=sorted(PROFILES))
        parser.add_argument(
            "--hands-per-bust",
            type=float,
            default=3.0,
            help="average hands a table plays between bust-outs (default 3)",
        )
        parser.add_argument(
            "--undo-rate",
            type=float,
            default=0.01,
            help="chance a bust-out is undone at once and recorded again (default 0.01)",
        )
        parser.add_argument(
            "--hand-for-hand",
            action="store_true",
            help="go hand-for-hand from paid+3 players left to the paid places (10%% paid)",
        )
        parser.add_argument("--quiet", action="store_true", help="print the summary only")
        parser.add_argument(
            "--keep",
            action=argparse.BooleanOptionalAction,
            default=False,
            help="play in the configured database and keep the tournament, its room and the "
            "'simulator' account to look at (default: a throwaway database, dropped at the end, "
            "so nothing shows up in the room's lists)",
        )

    def handle(self, *args, **options):
        if options["keep"]:
            self._simulate(options)
            return
        # A database of its own, migrated and dropped again, as the test runner makes one: the
        # simulated room, players and director never appear in the venue's lists.
        old_name = connection.settings_dict["NAME"]
        connection.creation.create_test_db(verbosity=0, autoclobber=True, serialize=False)
        try:
            self._simulate(options)
        finally:
            connection.creation.destroy_test_db(old_name, verbosity=0)
        self.stdout.write("  (played in a throwaway database, dropped again; --keep keeps it)")

    def _simulate(self, options) -> None:
        try:
            config = SimulationConfig(
                players=options["players"],
                seed=options["seed"],
                house_rules=options["house_rules"],
                hands_per_bust=options["hands_per_bust"],
                undo_rate=options["undo_rate"],
                hand_for_hand=options["hand_for_hand"],
            )
        except ValueError as exc:
            raise CommandError(str(exc)) from exc
        progress = None if options["quiet"] else self.stdout.write
        try:
            result = simulate(config, progress=progress)
        except InvariantError as exc:
            raise CommandError(f"invariant broken: {exc}") from exc
        self.stdout.write("\n".join(summary_lines(result, config)))
