"""SSE clients for tests and benchmarks: a minimal blocking one over http.client, against uvicorn
(or the nginx in front of it: https without verifying the tests' self-signed certificate), and
`Stream`, which reads a streaming response of the test client in the test's own process."""

import asyncio
import http.client
import json
import ssl
from urllib.parse import urlsplit


class SseClient:
    """Opens `url` and yields parsed messages `{id, event, data}`; comments as `{"comment"}`."""

    def __init__(self, url: str, headers: dict[str, str] | None = None, timeout: float = 5):
        parts = urlsplit(url)
        if parts.scheme == "https":
            self.connection = http.client.HTTPSConnection(
                parts.hostname,
                parts.port,
                timeout=timeout,
                context=ssl._create_unverified_context(),
            )
        else:
            self.connection = http.client.HTTPConnection(
                parts.hostname, parts.port, timeout=timeout
            )
        path = parts.path + (f"?{parts.query}" if parts.query else "")
        self.connection.request(
            "GET", path, headers={"Accept": "text/event-stream", **(headers or {})}
        )
        self.response = self.connection.getresponse()
        self.status = self.response.status

    def next(self) -> dict:
        message: dict = {}
        while True:
            line = self.response.readline()
            if not line:
                raise EOFError("stream closed")
            text = line.decode().rstrip("\n")
            if text == "":
                if message:
                    return message
                continue
            if text.startswith(":"):
                message["comment"] = text[1:].strip()
                continue
            name, _sep, value = text.partition(":")
            value = value.removeprefix(" ")
            message[name] = json.loads(value) if name == "data" else value

    def until(self, event: str) -> dict:
        while True:
            message = self.next()
            if message.get("event") == event:
                return message

    def close(self) -> None:
        self.connection.close()


DEADLINE_S = 5  # a bound on a stream that should answer at once, never a wait for a result


def parse(chunks: str) -> list[dict]:
    """SSE text -> [{id, event, data}] (comments become {"comment": ...})."""
    messages = []
    for block in chunks.strip().split("\n\n"):
        fields: dict = {}
        for line in block.splitlines():
            if line.startswith(":"):
                fields["comment"] = line[1:].strip()
            else:
                name, _sep, value = line.partition(": ")
                fields[name] = json.loads(value) if name == "data" else value
        messages.append(fields)
    return messages


class Stream:
    """Reads an async streaming response message by message, each read with a deadline."""

    def __init__(self, response):
        self.response = response
        self.chunks = response.streaming_content.__aiter__()

    async def next(self) -> dict:
        chunk = await asyncio.wait_for(self.chunks.__anext__(), timeout=DEADLINE_S)
        return parse(chunk.decode())[0]

    async def until(self, event: str) -> dict:
        while True:
            message = await self.next()
            if message.get("event") == event:
                return message

    async def close(self) -> None:
        await self.chunks.aclose()


def events_url(tournament_id: int, query: str = "") -> str:
    """The path of a tournament's event stream (`query`: "?display=...", "?player=...")."""
    return f"/api/v1/tournaments/{tournament_id}/events{query}"
