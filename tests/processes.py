"""Real server processes for tests and benchmarks, pointed at the test database.

A test that starts one must use ``django_db(transaction=True)`` so the process sees committed
rows. Waiting for a process to come up polls with a deadline; nothing sleeps for a result.
"""

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection

REPO = Path(__file__).resolve().parent.parent
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"


def test_database_url() -> str:
    """DATABASE_URL of the database this test process uses (the per-process test database)."""
    settings = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{settings['NAME']}"
    user = settings.get("USER") or "postgres"
    password = f":{settings['PASSWORD']}" if settings.get("PASSWORD") else ""
    host = settings.get("HOST") or "127.0.0.1"
    port = settings.get("PORT") or 5432
    return f"postgres://{user}{password}@{host}:{port}/{settings['NAME']}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def process_env(**extra: str) -> dict[str, str]:
    env = {**os.environ, "DATABASE_URL": test_database_url(), "PYTHONUNBUFFERED": "1"}
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


@contextmanager
def uvicorn_server(redis_url: str = "", *, log_level: str = "warning") -> Iterator[str]:
    """Serve the app with uvicorn (as in production) on a free port; yields its base URL."""
    port = free_port()
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "uvicorn",
            "tourney.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--log-level",
            log_level,
            "--no-access-log",
            "--timeout-graceful-shutdown",
            "1",
        ],
        cwd=REPO,
        env=process_env(REDIS_URL=redis_url),
    )
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(f"{base}/api/v1/health", process)
        yield base
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
