"""GET /api/v1/tournaments/{id}/events: Server-Sent Events with resume and heartbeat.

Served by an async generator under ASGI (uvicorn: one coroutine per screen, no thread), and by a
plain generator under WSGI (the test server), with the same cursor deciding what is sent.
"""

import queue
from collections.abc import AsyncIterator, Callable, Iterator
from typing import Any

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.handlers.asgi import ASGIRequest
from django.db import connection
from django.http import (
    HttpRequest,
    HttpResponse,
    JsonResponse,
    QueryDict,
    StreamingHttpResponse,
)
from django.utils.translation import gettext as _

from clocks.display.selectors import REVOKED_EVENT, display_token_tournament_id
from infra.streams.frames import heartbeat_frame, parse_last_event_id
from tables.dealer_links.selectors import dealer_actor
from tables.dealer_links.usecases import REVOKED_EVENT as DEALER_REVOKED_EVENT
from tourney.core import roles
from tourney.core.errors import TourneyError
from tourney.models import Tournament
from tourney.player_page.selectors import REVOKED_EVENT as PLAYER_REVOKED_EVENT
from tourney.player_page.selectors import link_ended_detail, player_link, player_token_signed_ids
from tourney.streams.selectors import EventCursor
from tourney.system.auth import BearerTokenAuth

WSGI_PROBE_SECONDS = 1.0
STREAM_HEADERS = {
    "Cache-Control": "no-cache, no-transform",
    "X-Accel-Buffering": "no",  # a reverse proxy must not buffer the stream
}


def _heartbeat_seconds() -> float:
    return float(getattr(settings, "EVENTS_HEARTBEAT_SECONDS", 15))


async def db_read(function: Callable[..., Any], *args: Any, detached: bool = True) -> Any:
    """Run a short database read off the event loop and give its connection back at once.

    A stream lives for hours; holding a connection for each of a thousand screens would exhaust
    PostgreSQL. Inside a test's atomic block the connection stays (it holds the test's data).
    `detached=False` runs in the request's own thread (WSGI: the test server and client).
    """

    def run() -> Any:
        try:
            return function(*args)
        finally:
            if not connection.in_atomic_block:
                connection.close()

    return await sync_to_async(run, thread_sensitive=not detached)()


def _error(code: str, detail: str, status: int) -> JsonResponse:
    return JsonResponse({"code": code, "detail": detail}, status=status)


LINK_PARAMETERS = ("display", "dealer", "player")


def link_refusal(query: QueryDict, tournament_id: int) -> tuple[JsonResponse | None, int | None]:
    """For a stream opened with a link (display, dealer or player): the error response, or None
    when the link may read this tournament's events; and when a player's link expires, the
    instant (Unix ms) its stream ends (reads the database)."""
    display = query.get("display")
    player = query.get("player")
    expires_ms = None
    if display is not None:
        if display_token_tournament_id(display) != tournament_id:
            return _error("forbidden", _("This display link is not valid here."), 403), None
    elif query.get("dealer") is not None:
        actor = dealer_actor(query["dealer"])
        if actor is None or actor.revoked or actor.tournament_id != tournament_id:
            return _error("forbidden", _("This dealer link is not valid here."), 403), None
    elif player is not None:
        link = player_link(player)
        if link is None or link.tournament_id != tournament_id:
            return _error("forbidden", _("This player link is not valid here."), 403), None
        if not link.ok:
            return _error(*link_ended_detail(link.status), 403), None
        if (
            link.expires_at is not None
        ):  # the stream ends with the link (tourney/streams/selectors.py)
            expires_ms = int(link.expires_at.timestamp() * 1000)
    return _missing(tournament_id), expires_ms


def _missing(tournament_id: int) -> JsonResponse | None:
    if not Tournament.objects.filter(pk=tournament_id).exists():
        return _error("not_found", _("There is no such object."), 404)
    return None


def _refusal(request: HttpRequest, tournament_id: int) -> JsonResponse | None:
    """None when the caller may read this tournament's events, else the error response."""
    if any(name in request.GET for name in LINK_PARAMETERS):
        refusal, request.player_link_expires_ms = link_refusal(request.GET, tournament_id)
        return refusal
    header = request.headers.get("Authorization", "")
    scheme, _sep, token = header.partition(" ")
    user = (
        BearerTokenAuth().authenticate(request, token.strip())
        if scheme.lower() == "bearer"
        else request.user
    )
    if user is None or not user.is_authenticated:
        return _error("not_authenticated", _("Log in or send a valid bearer token."), status=401)
    try:
        roles.require(user, "read")
    except TourneyError as exc:
        return _error(exc.code, str(exc.detail), exc.status_code)
    return _missing(tournament_id)


async def _rest_of_backlog(cursor: EventCursor) -> AsyncIterator[str]:
    """The stored events after the cursor, page after page, up to the newest."""
    while cursor.behind:
        for chunk in await db_read(cursor.catch_up):
            yield chunk


async def stream_async(cursor: EventCursor, resume_from: int | None) -> AsyncIterator[str]:
    from infra.streams.hub import HEARTBEAT, subscribe_async

    messages, unsubscribe = await subscribe_async(cursor.tournament_id, _heartbeat_seconds())
    try:
        # Subscribed before reading the table, so nothing committed meanwhile is missed.
        for chunk in await db_read(cursor.opening, resume_from):
            yield chunk
        async for chunk in _rest_of_backlog(cursor):
            yield chunk
        while not cursor.closed:
            message = await messages.get()
            if message is HEARTBEAT:
                yield heartbeat_frame()
                continue
            chunk = cursor.accept(message) if message is not None else None
            if chunk is None:
                for missed in await db_read(cursor.catch_up):
                    yield missed
                async for missed in _rest_of_backlog(cursor):
                    yield missed
            elif chunk:
                yield chunk
    finally:
        unsubscribe()


def _stream_sync(cursor: EventCursor, resume_from: int | None) -> Iterator[str]:
    from infra.streams.hub import SyncSubscription

    subscription = SyncSubscription(cursor.tournament_id)
    try:
        yield from cursor.opening(resume_from)
        while cursor.behind:
            yield from cursor.catch_up()
        # A WSGI server learns that a page closed only when a write fails: probe every second
        # so the thread (and its database connection) ends with the page.
        heartbeat = min(_heartbeat_seconds(), WSGI_PROBE_SECONDS)
        while not cursor.closed:
            try:
                message = subscription.get(timeout=heartbeat)
            except queue.Empty:
                yield heartbeat_frame()
                continue
            chunk = cursor.accept(message)
            if chunk is None:
                yield from cursor.catch_up()
                while cursor.behind:
                    yield from cursor.catch_up()
            elif chunk:
                yield chunk
    finally:
        subscription.close()
        if not connection.in_atomic_block:  # a test's atomic block keeps its connection
            connection.close()


async def tournament_events(request: HttpRequest, tournament_id: int) -> HttpResponse:
    is_asgi = isinstance(request, ASGIRequest)
    if request.method not in ("GET", "HEAD"):  # a stream to read, never a write
        return _error("method_not_allowed", _("Only GET is allowed here."), 405)
    refusal = await db_read(_refusal, request, tournament_id, detached=is_asgi)
    if refusal is not None:
        return refusal
    cursor, resume_from = stream_cursor(
        tournament_id,
        request.GET,
        request.headers.get("Last-Event-ID"),
        getattr(request, "player_link_expires_ms", None),
    )
    stream = stream_async(cursor, resume_from) if is_asgi else _stream_sync(cursor, resume_from)
    return StreamingHttpResponse(stream, content_type="text/event-stream", headers=STREAM_HEADERS)


def stream_cursor(
    tournament_id: int, query: QueryDict, last_event_id: str | None, expires_at_ms: int | None
) -> tuple[EventCursor, int | None]:
    """The cursor of a stream the caller may read (checked already), and where it resumes."""
    resume_from = parse_last_event_id(last_event_id, query.get("last_event_id"))
    # A display link's stream ends when the links are revoked; its reconnection is refused.
    # A dealer link's stream ends when a table's dealer link is revoked; if it was this one,
    # its reconnection is refused. A player link's stream ends when his link or all of them
    # are revoked (tourney/streams/selectors.py closes it only on those), and at its first event
    # once the link has expired; its reconnection is refused with {code, detail}.
    closes_on = (
        frozenset({REVOKED_EVENT})
        if "display" in query
        else frozenset({DEALER_REVOKED_EVENT})
        if "dealer" in query
        else frozenset({PLAYER_REVOKED_EVENT})
        if "player" in query
        else frozenset()
    )
    # A player's stream carries the clock and, for everything else, only that something
    # changed: his page refetches its own state (tourney/streams/selectors.py, `redacted`).
    # checked by the refusal before: only the entry id is read from it here (no database)
    ids = player_token_signed_ids(query["player"]) if "player" in query else None
    cursor = EventCursor(
        tournament_id,
        closes_on=closes_on,
        redacted="player" in query,
        entry_id=ids[1] if ids else None,
        expires_at_ms=expires_at_ms,
    )
    return cursor, resume_from
