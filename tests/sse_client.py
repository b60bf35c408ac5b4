"""A minimal blocking SSE client over http.client, for tests and benchmarks against uvicorn (or
the nginx in front of it: https without verifying the tests' self-signed certificate)."""

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
