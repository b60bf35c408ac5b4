"""The floor after a bust-out: a 10,000-player field simulated down to one winner through the
services (target: the decision after a bust-out at a median under 5 ms, p99 under 25 ms).

`tables.devtools.simulation.simulate` plays the tournament: hands reported at tables chosen at
random (weighted by players), one bust-out hand in three at a table, 5 % of them busting two
players, 1 % undone and recorded again, every move, table break and the final-table redraw confirmed
by the floor before the next hand, hand-for-hand from paid + 3 players left to the paid 10 %.
The 10,000 players, entries and ledger rows are bulk-created in one transaction (registration
has its own benchmark); the seats are drawn and the clock started through the services.

What is timed, each call on its own (`time.perf_counter_ns`), on whatever database the settings
use (SQLite by default, PostgreSQL with DATABASE_URL):
- the decision: each `eliminations_record` call, the whole service (tournament lock, places,
  the floor's replanning (balancing, breaking, final table) and its writes, audit, events,
  commit: `django_db(transaction=True)`);
- inside it, `floor_replan` (reads of the seating, the planner, applying the plan);
- the pure planner `tables.domain.floor.floor_plan`, every time it is called;
- the other floor services the run calls: undo, hand reports, confirmations.
It also reports the moves per bust-out, breaks, the final table and how many balancing movers
landed in the worst position (checked against docs/rules.md §5.5 computed independently).

Run: .venv/bin/pytest -m benchmark tests/benchmarks/bench_floor.py -s -p no:warnings
PostgreSQL: DATABASE_URL=postgres://postgres@127.0.0.1:5432/test (same command).
BENCH_FLOOR_PLAYERS=2000 runs a smaller field.

PostgreSQL: the simulation runs VACUUM ANALYZE on its tables after the setup and every 100
bust-outs (not timed), as autovacuum would; the benchmark server here has autovacuum off, and
a 10,000-row bulk load left unanalyzed made the planner choose plans for an empty table (the
decision's median was 54.6 ms that way, 27.9 ms with the statistics; docs/benchmarks.md).
"""

import os
import statistics

import pytest
from django.db import connection

from tables.devtools.simulation import simulate
from tables.devtools.simulation_results import SimulationConfig
from tests.benchmarks.report import percentile, report

PLAYERS = int(os.environ.get("BENCH_FLOOR_PLAYERS", "10000"))
SEED = 20261130
MEDIAN_TARGET_MS = 5.0
P99_TARGET_MS = 25.0


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_floor_simulation() -> None:
    config = SimulationConfig(
        players=PLAYERS,
        seed=SEED,
        hand_for_hand=True,
        undo_rate=0.01,
        check_every=100,
        analyze=True,
    )
    lines = []

    def progress(line: str) -> None:
        lines.append(line)
        if len(lines) % 10 == 1:
            print(f"[sim] {line}", flush=True)

    result = simulate(config, progress=progress)

    # Correctness only (the simulation checked its invariants every 100 bust-outs and raises
    # InvariantError otherwise); timings are reported, never asserted.
    assert result.players_busted == PLAYERS - 1 and result.winner_entry_id is not None
    assert result.final_table_players is not None
    moves = result.moves
    assert moves.worst_position == moves.worst_checked

    vendor = connection.vendor
    waits = {str(k): v for k, v in sorted(moves.wait_hands.items(), key=lambda kv: str(kv[0]))}
    decision = report(
        f"floor_bust_decision_{vendor}",
        result.record_ms,
        MEDIAN_TARGET_MS,
        p99_target_ms=P99_TARGET_MS,
        players=PLAYERS,
        bust_outs=result.bust_outs,
        double_busts=result.double_busts,
        undos=result.undos,
        statements_median=statistics.median(result.record_statements),
        statements_max=max(result.record_statements),
        moves_per_bust_mean=round(statistics.mean(result.moves_per_bust), 3),
        moves_per_bust_max=max(result.moves_per_bust),
        moves_total_per_bust=round(moves.total / result.bust_outs, 3),
        balancing_moves=moves.balancing,
        break_moves=moves.break_moves,
        redraw_moves=moves.redraw_moves,
        table_breaks=moves.table_breaks,
        worst_position=f"{moves.worst_position}/{moves.worst_checked}",
        wait_hands=waits,
        sits_out=moves.sits_out,
        final_table_players=result.final_table_players,
        final_table_seats=result.final_table_seats,
        levels=result.levels_advanced,
        clock_breaks=result.clock_breaks,
        halted_seen=result.halted_seen,
        max_open_tables=result.max_open_tables,
        hands=result.hands,
        h4h=f"{result.h4h_started_at_players}->{result.h4h_ended_at_players}"
        f" ({result.h4h_hands} hands)",
        total_s=round(result.total_seconds, 1),
        analyzed=result.analyzed,
    )
    for name, samples, target in (
        ("bust_decision_cpu", result.record_cpu_ms, None),
        ("bust_decision_planned", result.record_planned_ms, None),
        ("replan_in_bust", result.replan_ms, None),
        ("plan_pure", result.plan_ms, MEDIAN_TARGET_MS),
        ("undo", result.undo_ms, None),
        ("hand_report", result.hand_ms, None),
        ("action_done", result.action_ms, None),
    ):
        if samples:  # a small field may have no undo
            report(f"floor_{name}_{vendor}", samples, target)
    p99 = percentile(result.record_ms, 99)
    print(
        f"[bench] decision targets: median {decision['median_ms']:.1f} / {MEDIAN_TARGET_MS:g} ms,"
        f" p99 {p99:.1f} / {P99_TARGET_MS:g} ms; setup {result.setup_seconds:.1f} s,"
        f" play {result.play_seconds:.1f} s"
    )
