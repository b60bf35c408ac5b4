"""Initial seat draw at scale: 25,000 entrants on 2,778 nine-seat tables (target 1 s).

Run: .venv/bin/pytest -m benchmark tests/benchmarks/bench_seat_draw.py -s
  or .venv/bin/python -m tests.benchmarks.bench_seat_draw
"""

import random
import time

import pytest

from tables.domain.seating import SeatingRules, TableSpec, draw_seats
from tests.benchmarks.report import report

ENTRANTS = 25_000
TABLES = 2_778
SEATS = 9
REPETITIONS = 15
TARGET_MS = 1_000.0


@pytest.mark.benchmark
def test_bench_seat_draw() -> None:
    rules = SeatingRules(
        table_thresholds=(10, 18, 27), seats_per_table=SEATS, single_table_seats=10
    )
    tables = [TableSpec(number, SEATS) for number in range(1, TABLES + 1)]
    entries = list(range(1, ENTRANTS + 1))
    rng = random.SystemRandom()
    samples_ms = []
    for _ in range(REPETITIONS):
        start = time.perf_counter()
        draw = draw_seats(entries, tables, rules, rng)
        samples_ms.append((time.perf_counter() - start) * 1000)
        assert len(draw.assignments) == ENTRANTS  # correctness only; timing is reported
    report("seat_draw", samples_ms, TARGET_MS, entrants=ENTRANTS, tables=TABLES)


if __name__ == "__main__":
    test_bench_seat_draw()
