"""Two versions of the code side by side, A B A B, in one run: the ratio of each benchmark's
median, pair by pair (the machine's speed drifts by half from day to day, so only a ratio
measured in one run means anything; docs/benchmarks.md).

    .venv/bin/python tests/benchmarks/ab.py A B tests/benchmarks/bench_registration_http.py \
        [more benchmarks] [--rounds 2] [--env KEY=VALUE ...]

A and B are git revisions (or "WORKTREE" for the files as they are, or "REV+PATCH" for a
revision with a patch applied, e.g. main+tests/benchmarks/trials/no-write-batch.patch); each is
checked out in a worktree of its own under /tmp and run with this checkout's virtualenv, so
both run the same libraries. The benchmark file is the path in each version (the benchmarks
move with the code). Prints each result's medians by round and the ratio B/A of each pair,
and their median.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = ROOT / ".venv" / "bin" / "python"


def worktree(revision: str) -> Path:
    """A checkout of `revision` (the working tree itself for "WORKTREE"); "REV+FILE.patch" is
    REV with the patch applied (tests/benchmarks/trials/: the performance machinery taken out,
    one piece a patch)."""
    if revision == "WORKTREE":
        return ROOT
    revision, _, patch = revision.partition("+")
    sha = subprocess.run(
        ["git", "rev-parse", "--short", revision],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    name = f"tourney-ab-{sha}" + (f"-{Path(patch).stem}" if patch else "")
    path = Path("/tmp") / name
    if not path.exists():
        subprocess.run(
            ["git", "worktree", "add", "--detach", "-q", str(path), sha], cwd=ROOT, check=True
        )
        if patch:
            subprocess.run(["git", "apply", str((ROOT / patch).resolve())], cwd=path, check=True)
    return path


def bench_files(tree: Path, bench: list[str]) -> list[str]:
    """The benchmark files of `bench` (files, or folders of bench_*.py) in `tree`."""
    files: list[str] = []
    for item in bench:
        path = tree / item
        if path.is_dir():
            files += sorted(str(p.relative_to(tree)) for p in path.glob("bench_*.py"))
        else:
            files.append(item)
    return files


def run(tree: Path, bench: list[str], env: dict[str, str]) -> dict[str, float]:
    """One run of `bench` in `tree`: each result's median (ms). Each file runs in a pytest
    process of its own: a browser benchmark's event loop left in the process would refuse the
    database to the benchmarks after it."""
    results = tree / "tests" / "benchmarks" / "results.jsonl"
    results.unlink(missing_ok=True)
    for file in bench_files(tree, bench):
        subprocess.run(
            [str(PYTHON), "-m", "pytest", "-m", "benchmark", "-q", "-p", "no:cacheprovider", file],
            cwd=tree,
            env={**os.environ, **env, "BENCH_RESULTS": "1"},
            check=False,
            stdout=subprocess.DEVNULL,
        )
    lines = results.read_text().splitlines() if results.exists() else []
    return {(r := json.loads(line))["name"]: r["median_ms"] for line in lines}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("a")
    parser.add_argument("b")
    parser.add_argument("bench", nargs="+", help="benchmark files or folders")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--env", action="append", default=[])
    args = parser.parse_args()
    env = dict(item.split("=", 1) for item in args.env)
    trees = {"A": worktree(args.a), "B": worktree(args.b)}
    rounds: list[dict[str, dict[str, float]]] = []
    for number in range(args.rounds):
        medians = {side: run(tree, args.bench, env) for side, tree in trees.items()}
        rounds.append(medians)
        print(f"round {number + 1}: A {medians['A']}  B {medians['B']}", flush=True)
    print(f"\nA = {args.a}, B = {args.b}, {' '.join(args.bench)}, {args.rounds} rounds (A B each)")
    nan = float("nan")
    for name in sorted(set().union(*(r["A"].keys() | r["B"].keys() for r in rounds))):
        pairs = [(r["A"].get(name, nan), r["B"].get(name, nan)) for r in rounds]
        ratios = [b / a for a, b in pairs if a == a and b == b and a > 0]
        a_text = " ".join(f"{a:.2f}" for a, _ in pairs)
        b_text = " ".join(f"{b:.2f}" for _, b in pairs)
        middle = f"{statistics.median(ratios):.3f}" if ratios else "-"
        print(
            f"{name}: A {a_text} ms | B {b_text} ms | B/A "
            + " ".join(f"{x:.3f}" for x in ratios)
            + f" (median {middle})"
        )
    sys.stdout.flush()


if __name__ == "__main__":
    main()
