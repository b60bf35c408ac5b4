"""Fan-out: 1,000 screens on one uvicorn process all see a clock change within 1 s at p99.

One uvicorn process (as in production, with Redis) serves 1,000 concurrent
`GET /api/v1/tournaments/{id}/events` streams opened with a display link. The director then
pauses and resumes the clock through the API (`POST .../clock/pause|resume`, bearer token) from
this process; each round's sample is, per screen, the time from sending the director's request
to that screen reading the `clock` event. The screens are asyncio sockets in this process, so
the figure includes their own reading (conservative).

Run: REDIS_URL=redis://127.0.0.1:6379/0 .venv/bin/pytest -m benchmark \
    tests/benchmarks/bench_sse_fanout.py -s   (PostgreSQL: also DATABASE_URL=...)
"""

import asyncio
import json
import os
import time
import urllib.request
from urllib.parse import urlsplit

import pytest

from clocks.display.selectors import display_token
from tests.benchmarks.report import report
from tests.processes import DEFAULT_REDIS_URL, redis_or_missing, uvicorn_server
from tourney.staff.usecases import api_token_create

SCREENS = int(os.environ.get("BENCH_SSE_SCREENS", "1000"))
ROUNDS = 6
CONNECT_BATCH = 50
TARGET_P99_MS = 1_000.0
DEADLINE_S = 15


Screen = tuple[asyncio.StreamReader, asyncio.StreamWriter]


async def open_screen(host: str, port: int, path: str) -> Screen:
    # The writer is kept with the reader: a collected StreamWriter closes its socket.
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
    )
    await writer.drain()
    status = await reader.readline()
    if b" 200 " not in status:
        raise RuntimeError(f"stream refused: {status!r}")
    await read_until(reader, b"event: ready")
    return reader, writer


async def read_until(reader: asyncio.StreamReader, marker: bytes) -> float:
    """Read lines until one starts with `marker`; the perf_counter instant it arrived."""
    while True:
        line = await reader.readline()
        if not line:
            raise EOFError("stream closed")
        if line.startswith(marker):
            return time.perf_counter()


def post(url: str, token: str) -> None:
    request = urllib.request.Request(
        url, data=b"{}", method="POST", headers={"Authorization": f"Bearer {token}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        json.load(response)


async def run(base: str, tournament_id: int, token: str, path: str) -> tuple[list[float], float]:
    """`path`: the screens' stream, made beforehand (the display link reads the database,
    which Django refuses inside the event loop)."""
    parts = urlsplit(base)
    started = time.perf_counter()
    screens: list[Screen] = []
    for first in range(0, SCREENS, CONNECT_BATCH):
        batch = min(CONNECT_BATCH, SCREENS - first)
        screens += await asyncio.gather(
            *(open_screen(parts.hostname, parts.port, path) for _ in range(batch))
        )
    connect_s = time.perf_counter() - started
    clock_url = f"{base}/api/v1/tournaments/{tournament_id}/clock"
    samples: list[float] = []
    for round_number in range(ROUNDS):
        operation = "pause" if round_number % 2 == 0 else "resume"
        arrivals = [
            asyncio.ensure_future(read_until(reader, b"event: clock"))
            for reader, _writer in screens
        ]
        sent = time.perf_counter()
        await asyncio.to_thread(post, f"{clock_url}/{operation}", token)
        done = await asyncio.wait_for(asyncio.gather(*arrivals), timeout=DEADLINE_S)
        samples += [(arrived - sent) * 1000 for arrived in done]
    for _reader, writer in screens:
        writer.close()
    return samples, connect_s


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True)
def test_thousand_screens_receive_a_clock_change(director, seated_tournament):
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    redis_or_missing(redis_url)
    token, _api_token = api_token_create(actor=director, user=director)
    with uvicorn_server(redis_url) as base:
        post(f"{base}/api/v1/tournaments/{seated_tournament.pk}/clock/start", token)
        t = seated_tournament.pk
        path = f"/api/v1/tournaments/{t}/events?display={display_token(t)}"
        samples, connect_s = asyncio.run(run(base, t, token, path))
    result = report(
        "sse fan-out: director's request -> every screen",
        samples,
        None,
        screens=SCREENS,
        rounds=ROUNDS,
        connect_s=round(connect_s, 2),
        target_p99_ms=TARGET_P99_MS,
    )
    assert len(samples) == SCREENS * ROUNDS  # every screen got every change
    print(f"[bench] p99/target {result['p99_ms'] / TARGET_P99_MS:.3f}")
