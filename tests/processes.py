"""Real server processes for tests and benchmarks, pointed at the test database.

A test that starts one must use ``django_db(transaction=True)`` so the process sees committed
rows. Waiting for a process to come up polls with a deadline; nothing sleeps for a result.
"""

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

from tests.conftest import service_missing

REPO = Path(__file__).resolve().parent.parent
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def database_url_for_tests() -> str:
    """DATABASE_URL of the database this test process uses (the per-process test database)."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = settings.get("USER") or "postgres"
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"


def redis_or_missing(url: str):  # type: ignore[no-untyped-def]
    """A connected Redis client, or the test fails in CI / skips on a laptop."""
    import redis

    client = redis.Redis.from_url(url, socket_timeout=2, socket_connect_timeout=2)
    try:
        client.ping()
    except redis.RedisError as exc:
        service_missing(f"Redis at {url}: {exc}")
    return client


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": database_url_for_tests(), "PYTHONUNBUFFERED": "1"}
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    env.update(extra)
    return env


def wait_until_serving(url: str, process: subprocess.Popen, deadline_s: float = 20) -> None:
    deadline = time.monotonic() + deadline_s
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"server exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.05)  # polling a starting process, not waiting for a result
    raise TimeoutError(f"{url} did not answer within {deadline_s} s")


class UvicornProcess:
    """`uvicorn tourney.asgi:application` (as in production) on a free port of its own."""

    def __init__(
        self, redis_url: str = "", *, log_level: str = "warning", port: int = 0, **env: str
    ) -> None:
        self.port = port or free_port()  # a restarted process takes its old port again
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "uvicorn",
                "tourney.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--log-level",
                log_level,
                "--no-access-log",
                "--timeout-graceful-shutdown",
                "1",
            ],
            cwd=REPO,
            env=process_env(REDIS_URL=redis_url, **env),
        )

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def wait_serving(self, deadline_s: float = 20) -> "UvicornProcess":
        wait_until_serving(f"{self.base}/api/v1/health", self.process, deadline_s)
        return self

    def kill(self) -> None:
        """SIGKILL: no graceful shutdown, its streams cut mid-flight."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


@contextmanager
def uvicorn_server(redis_url: str = "", *, log_level: str = "warning", **env: str) -> Iterator[str]:
    """Serve the app with uvicorn (as in production) on a free port; yields its base URL.
    `env` adds to the process's environment (e.g. TOURNEY_DB_POOL_SIZE)."""
    server = UvicornProcess(redis_url, log_level=log_level, **env)
    try:
        yield server.wait_serving().base
    finally:
        server.stop()


class RedisServer:
    """A redis-server of a test's own on a free port (never the shared one), stopped and
    started again on the same port to simulate a broker outage."""

    def __init__(self) -> None:
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="tourney-redis-"))
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        if shutil.which("redis-server") is None:
            service_missing("redis-server is not installed")
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--dir",
                str(self.dir),
                "--save",
                "",
                "--appendonly",
                "no",
                "--logfile",
                str(self.dir / "redis.log"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 10
        while not self.answers():
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"redis-server on {self.port} did not start")
            time.sleep(0.01)  # polling a starting process

    def answers(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5) as s:
                s.sendall(b"PING\r\n")
                return s.recv(16).startswith(b"+PONG")
        except OSError:
            return False

    def stop(self, *, keep_data: bool = False) -> None:
        """Shut it down: with `keep_data` as a Redis that persists (an RDB snapshot it reloads
        on start), else as one that loses every key (queued and unacknowledged tasks too)."""
        if self.process is None:
            return
        if self.process.poll() is None:
            with socket.create_connection(("127.0.0.1", self.port), timeout=2) as s:
                s.sendall(b"SHUTDOWN SAVE\r\n" if keep_data else b"SHUTDOWN NOSAVE\r\n")
                s.recv(16)  # the server closes the connection once it has shut down
            self.process.wait(timeout=10)
        self.process = None

    def close(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        self.process = None
        shutil.rmtree(self.dir, ignore_errors=True)


class ConnectionSampler:
    """Polls pg_stat_activity for the backends of one application name, from its own
    connection, until stopped; keeps the largest count seen and every backend pid."""

    def __init__(self, application_name: str) -> None:
        self.application_name = application_name
        self.most = 0
        self.pids: set[int] = set()
        self.samples = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        import psycopg

        with psycopg.connect(database_url_for_tests(), autocommit=True) as conn:
            while not self._stop.wait(0.005):
                rows = conn.execute(
                    "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                    [self.application_name],
                ).fetchall()
                self.most = max(self.most, len(rows))
                self.pids.update(pid for (pid,) in rows)
                self.samples += 1

    def __enter__(self) -> "ConnectionSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)
