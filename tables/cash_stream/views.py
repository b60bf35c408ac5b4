"""The room's cash event stream (docs/api.md "Cash games": `cash_call`, `cash_seat`,
`cash_list`): `GET /api/v1/rooms/{id}/events`, Server-Sent Events, for staff (a session or a
bearer token) or the room's board link (`?board=`). A client resumes from its Last-Event-ID
and misses nothing: every event is a row of the room's log, read in order. The stream reads
the log every second (the cash floor changes at a human pace; no broker needed)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse, StreamingHttpResponse
from django.utils.translation import gettext as _

from clocks.festival.selectors import board_room_id
from infra.streams.frames import RETRY_MS, heartbeat_frame, parse_last_event_id
from tables.cash_stream.selectors import events_after
from tables.models import Room
from tourney.core import roles
from tourney.system.auth import BearerTokenAuth

POLL_SECONDS = 1.0
HEADERS = {"Cache-Control": "no-cache, no-transform", "X-Accel-Buffering": "no"}


def _error(code: str, detail: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


def _refusal(request: HttpRequest, room_id: int) -> JsonResponse | None:
    if "board" in request.GET:
        if board_room_id(request.GET["board"]) != room_id:
            return _error("link_revoked", _("This link is not valid for this room."), 403)
        return None
    scheme, _sep, token = request.headers.get("Authorization", "").partition(" ")
    user = (
        BearerTokenAuth().authenticate(request, token.strip())
        if scheme.lower() == "bearer"
        else request.user
    )
    if user is None or not user.is_authenticated or not roles.can(user, "read"):
        return _error("not_authenticated", _("Log in or send a valid bearer token."), 401)
    if not Room.objects.filter(pk=room_id).exists():
        return _error("not_found", _("There is no such object."), 404)
    return None


def _read(room_id: int, after: int | None):
    try:
        return events_after(room_id, after)
    finally:
        if not connection.in_atomic_block:  # a stream lives for hours: no connection held
            connection.close()


def _heartbeat_seconds() -> float:
    return float(getattr(settings, "EVENTS_HEARTBEAT_SECONDS", 15))


async def _stream_async(room_id: int, after: int | None) -> AsyncIterator[str]:
    yield f"retry: {RETRY_MS}\n\n"
    beat = time.monotonic()
    while True:
        chunks, after = await sync_to_async(_read, thread_sensitive=False)(room_id, after)
        for chunk in chunks:
            yield chunk
        if time.monotonic() - beat > _heartbeat_seconds():
            beat = time.monotonic()
            yield heartbeat_frame()
        if not chunks:
            await asyncio.sleep(POLL_SECONDS)


def _stream_sync(room_id: int, after: int | None) -> Iterator[str]:
    yield f"retry: {RETRY_MS}\n\n"
    while True:
        chunks, after = _read(room_id, after)
        yield from chunks
        if not chunks:
            time.sleep(POLL_SECONDS)  # a WSGI server's thread (the test server): its own pace
            yield heartbeat_frame()


async def room_events(request: HttpRequest, room_id: int) -> HttpResponse:
    is_asgi = isinstance(request, ASGIRequest)
    if request.method not in ("GET", "HEAD"):
        return _error("method_not_allowed", _("Only GET is allowed here."), 405)
    refusal = await sync_to_async(_refusal, thread_sensitive=not is_asgi)(request, room_id)
    if refusal is not None:
        return refusal
    after = parse_last_event_id(request.headers.get("Last-Event-ID"), request.GET.get("last_id"))
    stream = _stream_async(room_id, after) if is_asgi else _stream_sync(room_id, after)
    return StreamingHttpResponse(stream, content_type="text/event-stream", headers=HEADERS)
