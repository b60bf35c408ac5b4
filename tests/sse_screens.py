"""Many lobby screens in one process, for load benchmarks: each an SSE stream read line by line.

    python -m tests.sse_screens HOST PORT PATH SCREENS

Opens SCREENS streams on PATH and prints `ready` once every one has its `ready` event. Then it
reads events until a line `stop LAST_ID` comes on standard input; it waits (30 s at most) until
every screen has seen LAST_ID and prints one JSON object: per screen the event ids it received
in order, per event id the latest time (Unix ns) a screen received it, and the streams that
failed. No Django here: this runs beside the server as a separate process with its own GIL.
"""

import asyncio
import json
import sys
import time

CONNECT_BATCH = 50
FINISH_S = 30


class Screen:
    def __init__(self) -> None:
        self.ids: list[int] = []
        self.error: str | None = None
        self.ready = asyncio.Event()


async def watch(host: str, port: int, path: str, screen: Screen, arrivals: dict[int, int]) -> None:
    try:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"refused: {status!r}")
        event_id, kind = None, None
        while line := await reader.readline():
            if line.startswith(b"id: "):
                event_id = int(line[4:])
            elif line.startswith(b"event: "):
                kind = line[7:].strip()
            elif line == b"\n":  # the end of an event (or of a keep-alive comment)
                if kind == b"ready":
                    screen.ready.set()
                elif event_id is not None and screen.ready.is_set():
                    screen.ids.append(event_id)
                    arrivals[event_id] = time.time_ns()
                event_id, kind = None, None
        raise EOFError("stream closed")
    except Exception as exc:  # reported, not raised: one broken screen must not stop the rest
        screen.error = repr(exc)
        screen.ready.set()


async def main(host: str, port: int, path: str, count: int) -> None:
    screens = [Screen() for _ in range(count)]
    arrivals: dict[int, int] = {}
    tasks = []
    for first in range(0, count, CONNECT_BATCH):
        batch = screens[first : first + CONNECT_BATCH]
        tasks += [asyncio.create_task(watch(host, port, path, s, arrivals)) for s in batch]
        await asyncio.gather(*(s.ready.wait() for s in batch))
    print("ready", flush=True)
    line = await asyncio.to_thread(sys.stdin.readline)
    last_id = int(line.split()[1])
    deadline = time.monotonic() + FINISH_S
    while time.monotonic() < deadline and any(
        s.error is None and (not s.ids or s.ids[-1] < last_id) for s in screens
    ):
        await asyncio.sleep(0.05)  # polling the screens' progress against a deadline
    for task in tasks:
        task.cancel()
    result = {
        "ids": [s.ids for s in screens],
        "arrivals": arrivals,
        "errors": [s.error for s in screens if s.error],
    }
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])))
