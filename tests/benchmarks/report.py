"""Benchmark reporting: median, p95 and p99 of timing samples, printed and optionally logged.

Benchmarks report, they do not fail on timing. Set BENCH_RESULTS (any non-empty value) to also
append one JSON line per report to tests/benchmarks/results.jsonl.
"""

import json
import math
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

RESULTS_FILE = Path(__file__).with_name("results.jsonl")


def percentile(samples: list[float], pct: float) -> float:
    """Nearest-rank percentile (pct in 0..100) of a non-empty sample list."""
    ordered = sorted(samples)
    rank = max(1, math.ceil(pct / 100 * len(ordered)))
    return ordered[rank - 1]


def report(name: str, samples_ms: list[float], target_ms: float | None, **extra: Any) -> dict:
    """Print one summary line for `samples_ms` (milliseconds) and return it as a dict.

    `target_ms` is the budget the median is compared with (None: no target). `extra` values
    (sizes, parameters) are included in the line and the JSON record; they must be JSON-able.
    """
    if not samples_ms:
        raise ValueError(f"{name}: no samples")
    result: dict[str, Any] = {
        "name": name,
        "n": len(samples_ms),
        "median_ms": round(statistics.median(samples_ms), 3),
        "p95_ms": round(percentile(samples_ms, 95), 3),
        "p99_ms": round(percentile(samples_ms, 99), 3),
        "min_ms": round(min(samples_ms), 3),
        "target_ms": target_ms,
        "median_over_target": (
            round(statistics.median(samples_ms) / target_ms, 4) if target_ms else None
        ),
        **extra,
    }
    line = (
        f"[bench] {name}: median {result['median_ms']:.1f} ms, p95 {result['p95_ms']:.1f} ms,"
        f" p99 {result['p99_ms']:.1f} ms"
        f" (n={result['n']})"
    )
    if target_ms:
        line += f", target {target_ms:g} ms, median/target {result['median_over_target']:.3f}"
    if extra:
        line += " " + " ".join(f"{key}={value}" for key, value in extra.items())
    print(line)
    if os.environ.get("BENCH_RESULTS"):
        record = {"at": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "python": platform.python_version()}
        with RESULTS_FILE.open("a", encoding="utf-8") as out:
            out.write(json.dumps({**record, **result}) + "\n")
    return result
