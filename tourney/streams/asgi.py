"""The event streams of links (display, dealer, player) as a plain ASGI application.

A festival opens ten thousand player pages: each holds `GET /api/v1/tournaments/{id}/events
?player=...` for hours, and every clock change is written to all of them. Through Django each
stream kept its request (META, middleware state) and each write went through the streaming
response, the handler's `send_response` and the thread-sensitive context: about 70 µs of a web
process's CPU per stream and change, and 70 kB per stream (docs/benchmarks.md, "Scale-out").
Here a link's stream is served beside Django: the same check of the link, the same cursor and
generator (`tourney.streams.views`), one `send` per frame. A link that is refused, a stream read
with a staff session or token, and every other request go to Django, which answers them
(translated errors, its middlewares) as before.
"""

import asyncio
import contextlib
import logging
import re
from typing import Any

from django.conf import settings
from django.http import QueryDict

from tourney.streams.views import (
    LINK_PARAMETERS,
    STREAM_HEADERS,
    db_read,
    link_refusal,
    stream_async,
    stream_cursor,
)

logger = logging.getLogger(__name__)

EVENTS_PATH = re.compile(r"/api/v1/tournaments/([0-9]+)/events")


def _response_headers(scope: dict[str, Any]) -> list[tuple[bytes, bytes]]:
    """What Django's response and security middlewares give the stream (no Content-Language:
    nothing in an event stream is translated)."""
    headers = {"Content-Type": "text/event-stream", **STREAM_HEADERS}
    if settings.X_FRAME_OPTIONS:
        headers["X-Frame-Options"] = settings.X_FRAME_OPTIONS
    if settings.SECURE_CONTENT_TYPE_NOSNIFF:
        headers["X-Content-Type-Options"] = "nosniff"
    if settings.SECURE_REFERRER_POLICY:
        policy = settings.SECURE_REFERRER_POLICY
        headers["Referrer-Policy"] = policy if isinstance(policy, str) else ",".join(policy)
    if settings.SECURE_CROSS_ORIGIN_OPENER_POLICY:
        headers["Cross-Origin-Opener-Policy"] = settings.SECURE_CROSS_ORIGIN_OPENER_POLICY
    if settings.SECURE_HSTS_SECONDS and _is_secure(scope):
        hsts = f"max-age={settings.SECURE_HSTS_SECONDS}"
        if settings.SECURE_HSTS_INCLUDE_SUBDOMAINS:
            hsts += "; includeSubDomains"
        if settings.SECURE_HSTS_PRELOAD:
            hsts += "; preload"
        headers["Strict-Transport-Security"] = hsts
    return [(name.lower().encode(), value.encode()) for name, value in headers.items()]


def _header(scope: dict[str, Any], name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def _is_secure(scope: dict[str, Any]) -> bool:
    """As Django's `request.is_secure()`: the proxy's header when configured, else the scheme."""
    if settings.SECURE_PROXY_SSL_HEADER:
        meta_name, expected = settings.SECURE_PROXY_SSL_HEADER
        name = meta_name.removeprefix("HTTP_").replace("_", "-").lower().encode()
        value = _header(scope, name)
        if value is not None:
            return value.split(",", 1)[0].strip() == expected
    return scope.get("scheme") == "https"


def _link_stream_query(scope: dict[str, Any]) -> tuple[int, QueryDict] | None:
    """(tournament id, query) of a GET for a link's event stream, else None."""
    if scope["type"] != "http" or scope.get("method") != "GET" or scope.get("root_path"):
        return None
    match = EVENTS_PATH.fullmatch(scope.get("path", ""))
    if match is None:
        return None
    try:
        query = QueryDict(scope.get("query_string", b"").decode())
    except UnicodeDecodeError:
        return None
    if not any(name in query for name in LINK_PARAMETERS):
        return None
    return int(match[1]), query


async def _until_disconnect(receive) -> None:
    while (await receive())["type"] != "http.disconnect":
        pass


class EventStreamApplication:
    """ASGI: a link's event stream here, anything else (and any refusal) to `inner` (Django)."""

    def __init__(self, inner) -> None:
        self.inner = inner

    async def __call__(self, scope, receive, send) -> None:
        stream = _link_stream_query(scope)
        if stream is not None and await self._serve(*stream, scope, receive, send):
            return
        await self.inner(scope, receive, send)

    async def _serve(self, tournament_id: int, query: QueryDict, scope, receive, send) -> bool:
        """Stream the events; False, having sent nothing, when the link is refused."""
        refusal, expires_ms = await db_read(link_refusal, query, tournament_id)
        if refusal is not None:
            return False  # Django answers it, in the caller's language
        last_event_id = _header(scope, b"last-event-id")
        cursor, resume_from = stream_cursor(tournament_id, query, last_event_id, expires_ms)
        await send(
            {"type": "http.response.start", "status": 200, "headers": _response_headers(scope)}
        )

        async def pump() -> None:
            async with contextlib.aclosing(stream_async(cursor, resume_from)) as chunks:
                async for chunk in chunks:
                    body = {"type": "http.response.body", "body": chunk.encode(), "more_body": True}
                    await send(body)
            await send({"type": "http.response.body", "body": b"", "more_body": False})

        tasks = (asyncio.create_task(pump()), asyncio.create_task(_until_disconnect(receive)))
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        if not tasks[0].cancelled() and tasks[0].exception() is not None:
            logger.error("event stream failed", exc_info=tasks[0].exception())
        return True
