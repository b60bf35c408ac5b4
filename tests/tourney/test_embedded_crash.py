"""The embedded default killed mid-evening (issue 24): `manage.py quickstart` on its SQLite file
takes registrations over HTTP in a loop and is killed with SIGKILL among them. The file is
sound (`PRAGMA integrity_check`) and every registration it acknowledged is there after the
restart."""

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.processes import REPO, free_port, wait_until_serving

pytestmark = pytest.mark.skipif(
    os.environ.get("DATABASE_URL", "").startswith("postgres"),
    reason="the embedded default is SQLite",
)


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.update(
        DATABASE_URL=f"sqlite:///{folder / 'tourney.sqlite3'}",
        DJANGO_SECRET_KEY="embedded-crash-test-key-" + "x" * 40,
        PYTHONUNBUFFERED="1",
    )
    return env


def _quickstart(folder: Path, port: int) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "manage.py", "quickstart", "--port", str(port)],
        cwd=REPO,
        env=_env(folder),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def _call(base: str, token: str, method: str, path: str, body: dict | None = None) -> dict:
    request = urllib.request.Request(
        f"{base}/api/v1{path}",
        data=json.dumps(body).encode() if body is not None else None,
        method=method,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


class Desk(threading.Thread):
    """Registers new players in a loop over HTTP; `acknowledged` holds every entry id the
    server answered 201 for. Stops at the first refused or broken request (the kill)."""

    def __init__(self, base: str, token: str, tournament_id: int) -> None:
        super().__init__(daemon=True)
        self.base, self.token, self.tournament_id = base, token, tournament_id
        self.acknowledged: list[int] = []
        self.enough = threading.Event()

    def run(self) -> None:
        n = 0
        try:
            while True:
                n += 1
                player = _call(self.base, self.token, "POST", "/players", {"name": f"Éjféli {n}"})
                entry = _call(
                    self.base,
                    self.token,
                    "POST",
                    f"/tournaments/{self.tournament_id}/entries",
                    {"player_id": player["id"]},
                )
                self.acknowledged.append(entry["id"])
                if len(self.acknowledged) >= 40:
                    self.enough.set()
        except (urllib.error.URLError, ConnectionError, OSError):
            self.enough.set()


def test_a_killed_embedded_server_keeps_every_acknowledged_registration(tmp_path):
    port = free_port()
    server = _quickstart(tmp_path, port)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_until_serving(f"{base}/api/v1/health", server, deadline_s=60)
        token = subprocess.run(
            [sys.executable, "manage.py", "apitoken", "director"],
            cwd=REPO,
            env=_env(tmp_path),
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        tournament_id = _call(base, token, "GET", "/tournaments")[0]["id"]
        desk = Desk(base, token, tournament_id)
        desk.start()
        assert desk.enough.wait(120)
        server.send_signal(signal.SIGKILL)  # among the registrations, no shutdown at all
        server.wait(timeout=10)
        desk.join(timeout=30)
    finally:
        if server.poll() is None:
            server.kill()
            server.wait()

    database = tmp_path / "tourney.sqlite3"
    db = sqlite3.connect(database)
    try:
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        stored = {row[0] for row in db.execute("SELECT id FROM tourney_entry")}
    finally:
        db.close()
    assert len(desk.acknowledged) >= 40
    assert set(desk.acknowledged) <= stored

    # It starts again on the same file, with them all.
    port = free_port()
    again = _quickstart(tmp_path, port)
    try:
        wait_until_serving(f"http://127.0.0.1:{port}/api/v1/health", again, deadline_s=60)
        tournament = _call(
            f"http://127.0.0.1:{port}", token, "GET", f"/tournaments/{tournament_id}"
        )
        assert tournament["entries"] >= 12 + len(desk.acknowledged)
    finally:
        again.terminate()
        again.wait(timeout=20)
