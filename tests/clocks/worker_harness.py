"""Real `celery -A tourney worker` and `celery -A tourney beat` processes for integration tests.

The processes are told the test database (`DATABASE_URL`, the name the test runner really
created), a Redis broker and a queue of their own (`TOURNEY_CELERY_QUEUE`), so they never take
tasks meant for another run's worker or database, and nobody else takes theirs. Each process
runs in its own session (process group): stopping or killing it ends its pool children too.
Logs go to files in a temporary folder and are shown when a wait fails.

Waiting is always a condition polled against a deadline (`wait_until`), never a fixed sleep.
"""

import contextlib
import itertools
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

from tests.processes import database_url_for_tests, process_env, redis_or_missing

__all__ = ["CeleryHarness", "Proc", "database_url_for_tests", "wait_until"]

PROJECT_DIR = Path(__file__).resolve().parent.parent.parent
POLL_S = 0.01  # interval between two looks at a condition
# The worker's INFO lines "Task <name>[<id>] received" and "... succeeded in <s>s: <result>".
TASK_LINE = re.compile(
    r"Task (?P<name>[\w.]+)\[(?P<id>[0-9a-f-]+)\] (?:received|succeeded in \S+: (?P<result>.*))$",
    re.MULTILINE,
)
T = TypeVar("T")
_serial = itertools.count(1)


def redis_url_for_tests() -> str:
    """The broker for worker tests: TOURNEY_TEST_REDIS_URL, else REDIS_URL, else local Redis.

    The SQLite run has no REDIS_URL (the app is eager there), yet a real worker needs a real
    broker; queues are unique per harness, so sharing a Redis database with others is safe.
    """
    return (
        os.environ.get("TOURNEY_TEST_REDIS_URL")
        or os.environ.get("REDIS_URL")
        or "redis://127.0.0.1:6379/0"
    )


def wait_until(
    condition: Callable[[], T], timeout_s: float, what: str, on_fail: Callable[[], str] = str
) -> T:
    """Poll `condition` until it returns something truthy (and return that), or fail after
    `timeout_s` saying `what` and the text `on_fail()` gives (e.g. the process logs)."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout_s} s waiting for {what}\n{on_fail()}")
        time.sleep(POLL_S)


@dataclass
class Proc:
    name: str
    popen: subprocess.Popen
    log_path: Path

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    @property
    def alive(self) -> bool:
        return self.popen.poll() is None

    def tasks(self, name: str) -> dict[str, str | None]:
        """Tasks `name` this worker received, in order: id -> logged result (None until run)."""
        seen: dict[str, str | None] = {}
        for match in TASK_LINE.finditer(self.log()):
            if match["name"] == name:
                seen[match["id"]] = match["result"]
        return seen


@dataclass
class CeleryHarness:
    """Worker and beat subprocesses on one queue, against the test database."""

    broker_url: str
    database_url: str
    queue: str = field(default_factory=lambda: f"tourney-test-{os.getpid()}-{next(_serial)}")
    workdir: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="tourney-celery-")))
    procs: list[Proc] = field(default_factory=list)

    def env(self) -> dict[str, str]:
        return process_env(
            DATABASE_URL=self.database_url,
            REDIS_URL=self.broker_url,
            TOURNEY_CELERY_QUEUE=self.queue,
            DJANGO_SETTINGS_MODULE="tourney.settings",
        )

    def _spawn(self, name: str, args: list[str]) -> Proc:
        log_path = self.workdir / f"{name}.log"
        out = log_path.open("ab")
        popen = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "tourney", *args],
            cwd=PROJECT_DIR,
            env=self.env(),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group: signals reach the pool children
        )
        out.close()
        proc = Proc(name, popen, log_path)
        self.procs.append(proc)
        return proc

    def start_worker(self, concurrency: int = 2, wait: bool = True) -> Proc:
        """A prefork worker (as in production) that is ready to take tasks when this returns."""
        n = sum(1 for p in self.procs if p.name.startswith("worker"))
        proc = self._spawn(
            f"worker{n}",
            [
                "worker",
                "--loglevel=info",
                "--pool=prefork",
                f"--concurrency={concurrency}",
                # mingle waits a second for other workers; gossip and heartbeats are not needed
                "--without-mingle",
                "--without-gossip",
                "--without-heartbeat",
                f"--hostname={self.queue}-w{n}@%h",
            ],
        )
        if wait:
            wait_until(
                lambda: " ready." in proc.log() or not proc.alive,
                30,
                f"{proc.name} to be ready",
                self.logs,
            )
            assert proc.alive, self.logs()
        return proc

    def start_beat(self) -> Proc:
        n = sum(1 for p in self.procs if p.name.startswith("beat"))
        proc = self._spawn(
            f"beat{n}",
            [
                "beat",
                "--loglevel=info",
                f"--schedule={self.workdir / f'beat{n}-schedule'}",
                f"--pidfile={self.workdir / f'beat{n}.pid'}",
            ],
        )
        return proc

    def kill(self, proc: Proc) -> None:
        """SIGKILL the process and its pool children: no warm shutdown, no acks, no cleanup."""
        if proc.alive:
            os.killpg(proc.popen.pid, signal.SIGKILL)
        proc.popen.wait(timeout=10)

    def stop(self, purge: bool = True) -> None:
        """Kill every process with its pool children (nothing of theirs is needed: the queue
        and its unacknowledged messages are purged, unless the broker is the test's own and
        goes with it), then remove the logs."""
        for proc in self.procs:
            # also reaches pool children left behind by an earlier kill of their parent
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.popen.pid, signal.SIGKILL)
            proc.popen.wait(timeout=10)
        if purge:
            self.purge()
        shutil.rmtree(self.workdir, ignore_errors=True)

    def purge(self) -> None:
        """Delete this queue and its unacknowledged messages from Redis, so nothing of this
        harness is redelivered to anyone after the visibility timeout."""
        client = redis_or_missing(self.broker_url)
        client.delete(
            self.queue,
            f"_kombu.binding.{self.queue}",
            f"_kombu.binding_permanent.{self.queue}",
        )
        for tag, raw in client.hscan_iter("unacked"):
            try:
                routing_key = json.loads(raw)[2]
            except (ValueError, IndexError, TypeError):
                continue
            if routing_key == self.queue:
                client.hdel("unacked", tag)
                client.zrem("unacked_index", tag)

    def logs(self) -> str:
        return "\n".join(f"--- {p.name} ---\n{p.log()[-6000:]}" for p in self.procs)

    def send(self, task: str, args: tuple[Any, ...], eta_ms: int | None = None) -> str:
        """Put a task on this harness's queue as a producer would (e.g. a duplicate or a
        redelivered copy); returns its id."""
        from celery import Celery

        producer = Celery("tourney-test-producer", broker=self.broker_url)
        try:
            eta = None if eta_ms is None else datetime.fromtimestamp(eta_ms / 1000, tz=UTC)
            return producer.send_task(task, args=args, eta=eta, queue=self.queue).id
        finally:
            producer.close()
