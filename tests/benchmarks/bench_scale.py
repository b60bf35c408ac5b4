"""Scale-out (issue 15, part 4): thousands of phones and screens through nginx, and many
tournaments changing level at the same instant on one worker.

Production setup on this machine: nginx with the repository's `deploy/nginx/tourney.conf`
(TLS, a self-signed certificate) in front of two uvicorn processes, PostgreSQL (or the test
database's engine), Redis; the streams are held by client processes of their own
(`tests/sse_swarm.py`: asyncio, TLS sockets, no Django), each holding its share.

1. `test_ten_thousand_player_streams_and_a_hundred_screens`: BENCH_SCALE_PLAYERS (10,000)
   player streams (`?player=<token>`, one per entry) and BENCH_SCALE_SCREENS (100) screens
   (`?display=<token>`), split over two client processes and, by nginx, over the two web
   processes. The director pauses and resumes the clock through the API (through nginx)
   BENCH_SCALE_ROUNDS (6) times; per stream and change, from sending the request to the stream
   reading the `clock` event. Targets: p99 within 1 s, every stream within 2 s. Also: the time to
   open them all, the memory each stream costs in a web process, nginx and the client (resident
   memory before and after), and the Redis connections with a pattern subscription (one per web
   process, not per stream).
2. `test_twenty_tournaments_change_level_at_the_same_instant_on_one_worker`: 20 tournaments
   whose 3-second levels end at the same instants, one Celery worker (concurrency 2, as
   deployed) and one beat; a screen per tournament through nginx; per change, from its
   scheduled instant to its screen reading it. Target: p99 50 ms.

They report (tests/benchmarks/report.py) and fail only on wrong results: a stream refused or
cut, a change missed or repeated.

Each test starts a redis-server of its own on a free port (nothing else's subscriptions or
load in it). Run (PostgreSQL; redis-server and nginx-light installed; as root, or with
`ulimit -n` of at least 4 × the streams):
    DATABASE_URL=postgres://postgres@127.0.0.1:5432/test \
        .venv/bin/pytest -m benchmark tests/benchmarks/bench_scale.py -s -p no:cacheprovider
A smaller run: BENCH_SCALE_PLAYERS=1000 BENCH_SCALE_SCREENS=20 (and BENCH_SCALE_ROUNDS,
BENCH_SCALE_LEVELS, BENCH_SCALE_WORKER_CONCURRENCY).
"""

import contextlib
import http.client
import json
import os
import resource
import ssl
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from clocks.clock.selectors import now_ms
from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from clocks.models import Clock
from tests.benchmarks.report import percentile, report
from tests.clocks.worker_harness import CeleryHarness, database_url_for_tests, wait_until
from tests.conftest import make_staff, service_missing
from tests.factories import bulk_entries, make_players, turbo_tournament
from tests.nginx_proxy import NginxProxy, nginx_missing
from tests.processes import REPO, RedisServer, UvicornProcess
from tourney.models import Entry, TournamentEvent
from tourney.player_page.selectors import player_token
from tourney.staff.usecases import api_token_create

pytestmark = [pytest.mark.benchmark, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def redis_url():
    """A redis-server of the benchmark's own: its subscriptions and load are this run's only."""
    server = RedisServer()
    server.start()
    yield server.url
    server.close()


PLAYERS = int(os.environ.get("BENCH_SCALE_PLAYERS", "10000"))
SCREENS = int(os.environ.get("BENCH_SCALE_SCREENS", "100"))
ROUNDS = int(os.environ.get("BENCH_SCALE_ROUNDS", "6"))
CLIENTS = 2
P99_TARGET_MS = 1_000.0
ALL_TARGET_MS = 2_000.0
TOURNAMENTS = 20
LEVEL_S = 3
SIMULTANEOUS_LEVELS = int(os.environ.get("BENCH_SCALE_LEVELS", "8"))
SIMULTANEOUS_P99_TARGET_MS = 50.0
WORKER_CONCURRENCY = int(os.environ.get("BENCH_SCALE_WORKER_CONCURRENCY", "2"))
IDLE_S = 15.0  # the heartbeat's period: every stream sends one keep-alive in the window


def raise_file_limit(wanted: int) -> int:
    """As many open files as the streams need (root may raise the hard limit too)."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    with contextlib.suppress(ValueError, OSError):
        resource.setrlimit(resource.RLIMIT_NOFILE, (max(wanted, hard), max(wanted, hard)))
        return wanted
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def rss_kb(pid: int) -> int:
    """Resident memory of a process and its children (nginx's workers), kB."""
    total = 0
    pids = [pid]
    while pids:
        current = pids.pop()
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/{current}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
            pids += [int(child) for child in children]
    return total


def cpu_s(pid: int) -> float:
    """CPU time (user + system) of a process and its children (nginx's workers), seconds."""
    total, pids = 0, [pid]
    while pids:
        current = pids.pop()
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime (clock ticks)
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
            pids += [int(child) for child in children]
    return total / os.sysconf("SC_CLK_TCK")


def machine() -> dict:
    return {
        "db": connection.vendor,
        "cpus": os.cpu_count(),
        "load_avg": [round(x, 2) for x in os.getloadavg()],
    }


class Clients:
    """A client process (tests/sse_swarm.py) holding its share of the streams."""

    def __init__(self, port: int, paths: list[str]) -> None:
        self.paths_file = Path(tempfile.mkstemp(prefix="tourney-swarm-", suffix=".txt")[1])
        self.paths_file.write_text("\n".join(paths))
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "tests.sse_swarm",
                "127.0.0.1",
                str(port),
                str(self.paths_file),
                "--tls",
            ],
            cwd=REPO,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def ready(self) -> tuple[int, int]:
        words = self.process.stdout.readline().split()
        assert words and words[0] == "ready", words
        return int(words[1]), int(words[2])

    def send(self, line: str) -> str:
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()
        return self.process.stdout.readline()

    def wait(self, event_id: int) -> int:
        return int(self.send(f"wait {event_id}").split()[2])

    def dump(self) -> dict:
        result = json.loads(self.send("dump"))
        self.process.wait(timeout=60)
        return result

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()
        self.paths_file.unlink(missing_ok=True)


@contextlib.contextmanager
def web_stack(redis_url: str, streams: int):
    """Two uvicorn processes behind nginx (two nginx workers), as deployed."""
    if reason := nginx_missing():
        service_missing(reason)
    webs = [UvicornProcess(redis_url) for _ in range(2)]
    proxy = None
    try:
        for web in webs:
            web.wait_serving(60)
        proxy = NginxProxy([web.address for web in webs], connections=streams + 1_000, workers=2)
        proxy.start()
        yield proxy, webs
    finally:
        if proxy is not None:
            proxy.close()
        for web in webs:
            web.stop()


def post(proxy: NginxProxy, path: str, token: str) -> None:
    context = ssl._create_unverified_context()
    conn = http.client.HTTPSConnection("127.0.0.1", proxy.https_port, timeout=30, context=context)
    try:
        conn.request(
            "POST",
            path,
            body=b"{}",
            headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"},
        )
        response = conn.getresponse()
        body = response.read()
        assert response.status == 200, body
    finally:
        conn.close()


def register_players(director, tournament, count: int) -> list[int]:
    """`count` entries at once (not timed), as the desk's registrations would leave them."""
    player_ids = make_players(count)
    bulk_entries(director, tournament, player_ids, first_number=1000)
    return list(
        Entry.objects.filter(tournament=tournament, player_id__in=player_ids).values_list(
            "pk", flat=True
        )
    )


def test_ten_thousand_player_streams_and_a_hundred_screens(redis_url):
    import redis

    streams = PLAYERS + SCREENS
    files = raise_file_limit(4 * streams + 4_096)
    client = redis.Redis.from_url(redis_url)
    director, tournament = turbo_tournament([3_600] * 3)
    token, _ = api_token_create(actor=director, user=director)
    base = f"/api/v1/tournaments/{tournament.pk}"
    paths = [
        f"{base}/events?player={quote(player_token(tournament.pk, entry_id))}"
        for entry_id in register_players(director, tournament, PLAYERS)
    ] + [f"{base}/events?display={display_token(tournament.pk)}"] * SCREENS
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    before = machine()

    with web_stack(redis_url, streams) as (proxy, webs):
        idle = {"web": sum(rss_kb(w.process.pid) for w in webs), "nginx": rss_kb(proxy.process.pid)}
        opening = time.monotonic()
        clients = [Clients(proxy.https_port, paths[n::CLIENTS]) for n in range(CLIENTS)]
        try:
            opened = [c.ready() for c in clients]
            open_s = time.monotonic() - opening
            assert sum(failed for _ok, failed in opened) == 0, opened
            held = {
                "web": sum(rss_kb(w.process.pid) for w in webs),
                "nginx": rss_kb(proxy.process.pid),
            }
            subscriptions = sum(1 for c in client.client_list() if int(c.get("psub", 0)))
            sent_ns: dict[int, int] = {}
            received: list[int] = []
            pids = {
                "web": [w.process.pid for w in webs],
                "nginx": [proxy.process.pid],
                "clients": [c.process.pid for c in clients],
            }
            # The streams' keep-alive comments cost CPU too: measured alone first, then taken
            # out of each change's share.
            idle_from = {k: sum(cpu_s(p) for p in v) for k, v in pids.items()}
            time.sleep(IDLE_S)  # a measuring window, not a wait for a result
            cpu_before = {k: sum(cpu_s(p) for p in v) for k, v in pids.items()}
            idle_rate = {k: (cpu_before[k] - idle_from[k]) / IDLE_S for k in pids}
            rounds_from = time.monotonic()
            for n in range(ROUNDS):
                sent = time.time_ns()
                operation = "pause" if n % 2 == 0 else "resume"
                try:
                    post(proxy, f"{base}/clock/{operation}", token)
                except AssertionError as exc:
                    raise AssertionError(f"{exc}\nnginx: {proxy.log()[-3000:]}") from exc
                event_id = TournamentEvent.objects.filter(tournament=tournament).latest("pk").pk
                sent_ns[event_id] = sent
                received.append(sum(c.wait(event_id) for c in clients))
                print(f"round {n}: {operation}, {received[-1]} of {streams} streams")
            # CPU each change cost (a figure the machine's other load does not change much)
            rounds_s = time.monotonic() - rounds_from
            cpu_per_change_s = {
                k: round(
                    (sum(cpu_s(p) for p in v) - cpu_before[k] - idle_rate[k] * rounds_s) / ROUNDS,
                    3,
                )
                for k, v in pids.items()
            }
            dumps = [c.dump() for c in clients]
        finally:
            for c in clients:
                c.close()

    latencies = [
        (arrival - sent_ns[int(event_id)]) / 1e6
        for dump in dumps
        for event_id, event in dump["events"].items()
        if int(event_id) in sent_ns
        for arrival in event["arrivals_ns"]
    ]
    failures = ([d["failed"] for d in dumps], [d["errors"][:5] for d in dumps])
    assert received == [streams] * ROUNDS, (received, failures)
    assert len(latencies) == streams * ROUNDS
    assert sum(d["failed"] for d in dumps) == 0, failures
    per_stream_kb = {
        "web": round((held["web"] - idle["web"]) / streams, 1),
        "nginx": round((held["nginx"] - idle["nginx"]) / streams, 1),
        "client": round(sum(d["rss_kb"] for d in dumps) / streams, 1),
    }
    report(
        "scale.clock_change_to_stream",
        latencies,
        None,
        streams=streams,
        players=PLAYERS,
        screens=SCREENS,
        rounds=ROUNDS,
        max_ms=round(max(latencies), 1),
        p99_target_ms=P99_TARGET_MS,
        all_target_ms=ALL_TARGET_MS,
        open_all_s=round(open_s, 1),
        kb_per_stream=per_stream_kb,
        cpu_s_per_change=cpu_per_change_s,
        cpu_s_per_s_idle={k: round(v, 3) for k, v in idle_rate.items()},
        web_rss_mb=round(held["web"] / 1024),
        redis_pattern_subscriptions=subscriptions,
        open_files=files,
        load_before=before["load_avg"],
        **machine(),
    )


def twenty_tournaments(director) -> list:
    """20 running tournaments whose current level ends at one instant, then every 3 s."""
    tournaments = [
        turbo_tournament([3_600] + [LEVEL_S] * (SIMULTANEOUS_LEVELS + 2), director, f"T{n:02d}")[1]
        for n in range(TOURNAMENTS)
    ]
    for tournament in tournaments:
        clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    return tournaments


def test_twenty_tournaments_change_level_at_the_same_instant_on_one_worker(redis_url):
    director = make_staff("director", "director")
    tournaments = twenty_tournaments(director)
    paths = [
        f"/api/v1/tournaments/{t.pk}/events?display={display_token(t.pk)}" for t in tournaments
    ]
    harness = CeleryHarness(broker_url=redis_url, database_url=database_url_for_tests())
    before = machine()
    try:
        harness.start_beat()
        worker = harness.start_worker(concurrency=WORKER_CONCURRENCY)
        with web_stack(redis_url, len(paths)) as (proxy, _webs):
            clients = Clients(proxy.https_port, paths)
            try:
                assert clients.ready() == (TOURNAMENTS, 0)
                # The current level of all 20 ends at one instant (as 20 clocks started
                # together would store); the levels after it end together every 3 s.
                instant = now_ms() + 5_000
                Clock.objects.filter(tournament__in=tournaments).update(period_ends_at_ms=instant)
                worker_cpu = cpu_s(worker.popen.pid)  # the worker and its pool processes
                expected = TOURNAMENTS * SIMULTANEOUS_LEVELS
                changes = TournamentEvent.objects.filter(
                    tournament__in=tournaments, kind="clock", payload__reason="advance"
                )
                wait_until(
                    lambda: changes.count() >= expected,
                    SIMULTANEOUS_LEVELS * LEVEL_S + 30,
                    f"{expected} level changes",
                    harness.logs,
                )
                worker_cpu = cpu_s(worker.popen.pid) - worker_cpu
                last = max(changes.values_list("pk", flat=True))
                assert clients.wait(last) == 1
                dump = clients.dump()
            finally:
                clients.close()
    finally:
        harness.stop(purge=False)  # the Redis is the benchmark's own and goes with it

    stored = {e.pk: e for e in changes.filter(pk__lte=last)}  # the levels went on after
    delays, commits = [], []
    for event_id, event in dump["events"].items():
        if event["reason"] != "advance" or int(event_id) not in stored:
            continue
        assert len(event["arrivals_ns"]) == 1, event  # one screen per tournament, once
        scheduled = event["scheduled_at_ms"]
        delays.append(event["arrivals_ns"][0] / 1e6 - scheduled)
        commits.append(stored[int(event_id)].at.timestamp() * 1000 - scheduled)
    assert len(delays) == len(stored) >= expected
    instants = sorted({e.payload["scheduled_at_ms"] for e in stored.values()})
    assert instants == [instant + n * LEVEL_S * 1000 for n in range(len(instants))]
    common = {
        "tournaments": TOURNAMENTS,
        "levels": SIMULTANEOUS_LEVELS,
        "worker_concurrency": WORKER_CONCURRENCY,
    }
    report(
        "scale.simultaneous_levels_to_screen",
        delays,
        None,
        p99_target_ms=SIMULTANEOUS_P99_TARGET_MS,
        p99_over_target=round(percentile(delays, 99) / SIMULTANEOUS_P99_TARGET_MS, 3),
        max_ms=round(max(delays), 1),
        # the beat's ticks (one a second) included
        worker_cpu_ms_per_change=round(worker_cpu * 1000 / len(delays), 2),
        load_before=before["load_avg"],
        **common,
        **machine(),
    )
    report("scale.simultaneous_levels_commit", commits, None, **common, **machine())
