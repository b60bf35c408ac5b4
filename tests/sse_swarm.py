"""Thousands of event streams in one process, for the scale benchmark (no Django here).

    python -m tests.sse_swarm HOST PORT PATHS_FILE [--tls]

Opens one stream per line of PATHS_FILE (a path with its query) on HOST:PORT, over TLS with
`--tls` (the tests' self-signed certificate is not verified), CONNECT_BATCH at a time, and
prints `ready CONNECTED FAILED` once each has its `ready` event (or failed). Every `clock` event
is then recorded per stream: its id, the wall clock (Unix ns) when its frame had been read, and
its `scheduled_at_ms` if any. Commands on standard input, one a line:

- `wait ID`: reply `have ID RECEIVED` once every live stream has received event ID (at most
  WAIT_S seconds);
- `dump`: reply one JSON line: per event id its scheduled instant and every arrival, the
  failures, the number of streams and this process's resident memory (kB); then exit.
"""

import asyncio
import json
import ssl
import sys
import time

CONNECT_BATCH = 200
WAIT_S = 20.0


class Stream:
    __slots__ = ("error", "latest", "ready")

    def __init__(self) -> None:
        self.ready = False
        self.latest = 0
        self.error: str | None = None


def rss_kb() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


class Swarm:
    def __init__(self, host: str, port: int, tls: bool) -> None:
        self.host, self.port = host, port
        self.context = ssl._create_unverified_context() if tls else None
        self.events: dict[int, dict] = {}  # id -> {"scheduled_at_ms", "arrivals_ns"}
        self.streams: list[Stream] = []
        self.writers: list[asyncio.StreamWriter] = []

    async def watch(self, path: str, stream: Stream, opened: asyncio.Event) -> None:
        try:
            reader, writer = await asyncio.open_connection(
                self.host, self.port, ssl=self.context, limit=2**16
            )
            self.writers.append(writer)  # a collected writer closes its socket
            head = f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\nAccept: text/event-stream\r\n\r\n"
            writer.write(head.encode())
            await writer.drain()
            status = await reader.readline()
            if b" 200 " not in status:
                raise RuntimeError(f"refused: {status!r}")
            event_id, kind = 0, b""
            while line := await reader.readline():
                if line.startswith(b"id: "):
                    event_id = int(line[4:])
                elif line.startswith(b"event: "):
                    kind = line[7:].strip()
                elif line.startswith(b"data: ") and kind == b"clock":
                    now = time.time_ns()
                    event = self.events.get(event_id)
                    if event is None:
                        data = json.loads(line[6:])
                        event = self.events[event_id] = {
                            "scheduled_at_ms": data.get("scheduled_at_ms"),
                            "reason": data.get("reason"),
                            "arrivals_ns": [],
                        }
                    event["arrivals_ns"].append(now)
                    stream.latest = event_id
                elif line.startswith(b"data: ") and kind == b"ready":
                    stream.ready = True
                    opened.set()
            raise EOFError("stream closed")
        except Exception as exc:  # counted and reported, never raised: one broken stream
            stream.error = repr(exc)[:200]
            opened.set()

    async def open_all(self, paths: list[str]) -> None:
        tasks = []
        for first in range(0, len(paths), CONNECT_BATCH):
            batch = paths[first : first + CONNECT_BATCH]
            opened = [asyncio.Event() for _ in batch]
            for path, event in zip(batch, opened, strict=True):
                stream = Stream()
                self.streams.append(stream)
                tasks.append(asyncio.create_task(self.watch(path, stream, event)))
            await asyncio.gather(*(event.wait() for event in opened))
        self.tasks = tasks

    async def wait_for(self, event_id: int) -> int:
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:
            if all(s.error or s.latest >= event_id for s in self.streams):
                break
            await asyncio.sleep(0.02)  # polling the streams' progress against a deadline
        return len(self.events.get(event_id, {}).get("arrivals_ns", []))


async def main(host: str, port: int, paths_file: str, tls: bool) -> None:
    with open(paths_file) as lines:
        paths = [line.strip() for line in lines if line.strip()]
    swarm = Swarm(host, port, tls)
    await swarm.open_all(paths)
    failed = sum(1 for s in swarm.streams if s.error)
    print(f"ready {len(paths) - failed} {failed}", flush=True)
    while True:
        line = (await asyncio.to_thread(sys.stdin.readline)).split()
        if not line or line[0] == "dump":
            break
        if line[0] == "wait":
            event_id = int(line[1])
            print(f"have {event_id} {await swarm.wait_for(event_id)}", flush=True)
    errors = [s.error for s in swarm.streams if s.error]
    result = {
        "streams": len(swarm.streams),
        "events": swarm.events,
        "errors": errors[:20],
        "failed": len(errors),
        "rss_kb": rss_kb(),
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], "--tls" in sys.argv[4:]))
