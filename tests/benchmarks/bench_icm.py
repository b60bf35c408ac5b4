"""Deal calculators and payouts at scale: exact ICM for 10 players (target 50 ms), ICM for 20
players with every place paid (target 1 s; bounded estimate past the exact budget), payouts
recomputed for a 10,000-entry field (target 10 ms).

Run: .venv/bin/pytest -m benchmark tests/benchmarks/bench_icm.py -s
  or .venv/bin/python -m tests.benchmarks.bench_icm
"""

import math
import random
import time

import pytest

from tests.benchmarks.report import report
from tourney.domain.icm import icm
from tourney.domain.payouts import PAYOUT_TEMPLATES, payouts_for

REPETITIONS = 15
PAYOUT_REPETITIONS = 200


def _field(players: int, seed: int) -> tuple[list[int], list[int]]:
    """Uneven stacks (1-100 big blinds of 1,000) and a top-heavy prize for every place."""
    rng = random.Random(seed)
    stacks = [rng.randint(1, 100) * 1_000 for _ in range(players)]
    prizes = [round(1_000_000 / (place**0.9)) for place in range(1, players + 1)]
    return stacks, prizes


def _bench_icm(players: int, target_ms: float) -> None:
    samples_ms = []
    result = None
    for repetition in range(REPETITIONS):
        stacks, prizes = _field(players, repetition)
        start = time.perf_counter()
        result = icm(stacks, prizes)
        samples_ms.append((time.perf_counter() - start) * 1000)
        assert math.isclose(math.fsum(result.equities), sum(prizes), rel_tol=1e-9)
    assert result is not None
    report(
        f"icm_{players}_players",
        samples_ms,
        target_ms,
        players=players,
        exact=result.exact,
        depth=result.depth,
        max_error_share=round(result.max_error / sum(prizes), 5),
    )


@pytest.mark.benchmark
def test_bench_icm_10_players() -> None:
    _bench_icm(10, 50.0)


@pytest.mark.benchmark
def test_bench_icm_20_players() -> None:
    _bench_icm(20, 1_000.0)


@pytest.mark.benchmark
def test_bench_payouts_10000_entries() -> None:
    structure = PAYOUT_TEMPLATES["standard"]
    rng = random.Random(5)
    samples_ms = []
    for _ in range(PAYOUT_REPETITIONS):
        pool = rng.randint(10**8, 10**10)
        start = time.perf_counter()
        amounts = payouts_for(pool, 10_000, structure, 1_000)
        samples_ms.append((time.perf_counter() - start) * 1000)
        assert sum(amounts) == pool  # correctness only; timing is reported
    report("payouts_10000_entries", samples_ms, 10.0, entries=10_000, places=len(amounts))


if __name__ == "__main__":
    test_bench_icm_10_players()
    test_bench_icm_20_players()
    test_bench_payouts_10000_entries()
