"""The production process recipe (deploy/): what dies is restarted, and the levels go on.

`deploy/supervisord.conf` is run for real: supervisord starts two uvicorn processes, two Celery
workers and two Celery beats against this run's test database and a redis-server of the test's
own; a worker, a beat and then a web server are killed with SIGKILL, supervisord starts them
again, the other web process serves meanwhile, and the clock's levels keep arriving exactly
once and on schedule. The systemd units (no systemd runs here) are checked by
`systemd-analyze verify` and must run the same programs, two of each.
"""

import configparser
import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from clocks.clock.usecases import clock_operate
from tests.clocks.level_changes import advances, assert_consecutive_without_drift, wait_advances
from tests.clocks.worker_harness import wait_until
from tests.factories import turbo_tournament
from tests.processes import REPO, RedisServer, free_port, process_env, wait_until_serving

DEPLOY = REPO / "deploy"
UNITS = DEPLOY / "systemd"
LEVEL_S = 3


class Supervisor:
    """supervisord running deploy/supervisord.conf in a session of its own."""

    def __init__(self, env: dict[str, str]) -> None:
        self.env = env
        self.run_dir = Path(env["TOURNEY_RUN_DIR"])
        self.process = subprocess.Popen(
            [sys.executable, "-m", "supervisor.supervisord", "-c", str(self.conf)],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    conf = DEPLOY / "supervisord.conf"

    def ctl(self, *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "supervisor.supervisorctl", "-c", str(self.conf), *args],
            env=self.env,
            capture_output=True,
            text=True,
            timeout=30,
        )
        return done.stdout.strip()

    def pid(self, program: str) -> int:
        """The process's pid ("web:web-0") while RUNNING, else 0."""
        status = self.ctl("status", program)
        match = re.search(r"RUNNING\s+pid (\d+)", status)
        return int(match[1]) if match else 0

    def logs(self) -> str:
        return "\n".join(
            f"--- {path.name} ---\n{path.read_text(errors='replace')[-4000:]}"
            for path in sorted(self.run_dir.glob("*.log"))
        )

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)  # stops every program, then itself
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)


def two_free_ports() -> int:
    """A free port whose next one is free too (the two web processes')."""
    while True:
        port = free_port()
        with socket.socket() as s, contextlib.suppress(OSError):
            s.bind(("127.0.0.1", port + 1))
            return port


@pytest.fixture
def supervisor(transactional_db):
    broker = RedisServer()
    broker.start()
    run_dir = Path(tempfile.mkdtemp(prefix="tourney-supervisor-"))
    env = process_env(
        REDIS_URL=broker.url,
        TOURNEY_CELERY_QUEUE=f"tourney-deploy-test-{os.getpid()}",
        TOURNEY_RUN_DIR=str(run_dir),
        TOURNEY_PORT=str(two_free_ports()),
        TOURNEY_WORKER_CONCURRENCY="1",
        # the programs run the `python` on PATH: this environment's
        PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
    )
    supervisor = Supervisor(env)
    try:
        yield supervisor
    finally:
        supervisor.stop()
        broker.close()
        shutil.rmtree(run_dir, ignore_errors=True)


def restarted(supervisor: Supervisor, program: str) -> int:
    """SIGKILL the program's process and wait for supervisord to run a new one."""
    old = supervisor.pid(program)
    os.kill(old, signal.SIGKILL)
    return wait_until(
        lambda: (pid := supervisor.pid(program)) not in (0, old) and pid,
        30,
        f"supervisord to restart {program}",
        supervisor.logs,
    )


PROCESSES = [f"{program}:{program}-{n}" for program in ("web", "worker", "beat") for n in (0, 1)]


@pytest.mark.worker
def test_supervisord_restarts_a_killed_worker_beat_and_web_server_and_no_level_is_lost(
    supervisor,
):
    port = int(supervisor.env["TOURNEY_PORT"])
    wait_until(
        lambda: all(supervisor.pid(p) for p in PROCESSES),
        60,
        "two web processes, two workers and two beats to run",
        supervisor.logs,
    )
    for web in (port, port + 1):
        wait_until_serving(f"http://127.0.0.1:{web}/api/v1/health", supervisor.process, 60)
    director, tournament = turbo_tournament([LEVEL_S] * 30)
    started = clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    wait_until(lambda: advances(tournament), LEVEL_S + 30, "a level change", supervisor.logs)

    restarted(supervisor, "worker:worker-0")
    restarted(supervisor, "beat:beat-0")
    events = wait_advances(supervisor, tournament, len(advances(tournament)) + 2, 2 * LEVEL_S + 30)
    assert_consecutive_without_drift(events, started["ends_at_ms"], level_ms=LEVEL_S * 1000)

    restarted(supervisor, "web:web-0")
    # the other web process serves all along; the killed one comes back on its port
    wait_until_serving(f"http://127.0.0.1:{port + 1}/api/v1/health", supervisor.process, 5)
    wait_until_serving(f"http://127.0.0.1:{port}/api/v1/health", supervisor.process, 30)


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # keys are case-sensitive in systemd
    parser.read(UNITS / name)
    return parser


def wanted() -> list[str]:
    """The units tourney.target wants (several `Wants=` lines)."""
    lines = (UNITS / "tourney.target").read_text().splitlines()
    return [name for line in lines if line.startswith("Wants=") for name in line[6:].split()]


def program_args(command: str) -> list[str]:
    """The program's own arguments: after `python -m`, without the values supervisord and
    systemd fill in (ports, host names, the defaults of the supervisord program's variables),
    so a unit and a supervisord program can be compared."""
    words = command.replace("'", " ").replace('"', " ").split()
    words = words[words.index("-m") + 1 :]
    settings = {"127.0.0.1", "2", "+"}  # "+": the second web process's port is the next
    return [w for w in words if not {"$", "%", "/"} & set(w[:1] + w) and w not in settings]


@pytest.mark.parametrize("program", ["web", "worker", "beat"])
def test_systemd_units_restart_what_dies_and_run_two_of_each_supervisord_program(program):
    service = unit(f"tourney-{program}@.service")["Service"]
    assert service["Restart"] == "always"
    assert unit(f"tourney-{program}@.service")["Unit"]["StartLimitIntervalSec"] == "0"
    supervisord = configparser.ConfigParser(interpolation=None)
    supervisord.read(DEPLOY / "supervisord.conf")
    section = supervisord[f"program:{program}"]
    assert program_args(service["ExecStart"]) == program_args(section["command"])
    assert section["numprocs"] == "2"
    instances = [name for name in wanted() if name.startswith(f"tourney-{program}@")]
    assert len(set(instances)) == 2, wanted()


def test_systemd_units_pass_systemd_analyze_verify(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed")
    env_file = tmp_path / "tourney.env"
    env_file.write_text((DEPLOY / "tourney.env.example").read_text())
    for path in UNITS.iterdir():
        text = path.read_text().replace("/srv/tourney/.venv/bin/python", sys.executable)
        text = text.replace("/srv/tourney", str(REPO)).replace(
            "/etc/tourney/tourney.env", str(env_file)
        )
        (tmp_path / path.name).write_text(text)
    for instance in wanted():  # each instance the target starts, from its template
        template = re.sub(r"@[^.]+\.", "@.", instance)
        if template != instance:
            shutil.copy(tmp_path / template, tmp_path / instance)
    names = ["tourney.target", *wanted(), "tourney-backup.service"]
    done = subprocess.run(
        [analyze, "verify", "--man=no", *(f"./{n}" for n in names)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert (done.returncode, done.stdout + done.stderr) == (0, "")


def test_the_backup_timer_runs_the_backup_command_every_15_minutes():
    """The PostgreSQL schedule (docs/backups.md): the target wants the timer, the timer fires
    every quarter of an hour and catches up after a stop, the service runs `backup --auto`."""
    assert "tourney-backup.timer" in wanted()
    timer = unit("tourney-backup.timer")
    assert timer["Timer"]["OnCalendar"] == "*:0/15" and timer["Timer"]["Persistent"] == "true"
    service = unit("tourney-backup.service")["Service"]
    assert service["Type"] == "oneshot"
    assert service["ExecStart"].split()[-3:] == ["manage.py", "backup", "--auto"]
