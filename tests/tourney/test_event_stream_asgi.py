"""The links' event streams served beside Django (tourney/streams/asgi.py), as uvicorn runs them:
the same frames, redaction and resume as through Django, the same security headers, and every
refusal (and every other request) answered by Django."""

import asyncio
import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import override_settings

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from infra import bus
from infra.streams.hub import HEARTBEAT, Mailbox
from infra.web.asgi_handler import TourneyASGIHandler
from tests.factories import asgi_http_scope
from tests.sse_client import DEADLINE_S, parse
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry
from tourney.player_page.selectors import player_token
from tourney.streams.asgi import EventStreamApplication
from tourney.streams.selectors import EventCursor

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("local_bus")]


@pytest.fixture
def local_bus():
    with override_settings(REDIS_URL=""):
        yield


class AsgiCall:
    """One GET through the application, as uvicorn makes it; its messages read with a deadline."""

    def __init__(self, path: str, query: str = "", headers: dict[str, str] | None = None):
        self.sent: asyncio.Queue = asyncio.Queue()
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.inbox.put_nowait({"type": "http.request", "body": b"", "more_body": False})
        headers = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
        scope = asgi_http_scope(path, query, headers)
        application = EventStreamApplication(TourneyASGIHandler())
        self.task = asyncio.create_task(application(scope, self.inbox.get, self.sent.put))

    async def start(self) -> tuple[int, dict[str, str]]:
        message = await asyncio.wait_for(self.sent.get(), DEADLINE_S)
        assert message["type"] == "http.response.start"
        return message["status"], {k.decode(): v.decode() for k, v in message["headers"]}

    async def body(self) -> bytes:
        message = await asyncio.wait_for(self.sent.get(), DEADLINE_S)
        assert message["type"] == "http.response.body"
        return message["body"]

    async def next(self) -> dict:
        return parse((await self.body()).decode())[0]

    async def until(self, event: str) -> dict:
        while (message := await self.next()).get("event") != event:
            pass
        return message

    async def disconnect(self) -> None:
        self.inbox.put_nowait({"type": "http.disconnect"})
        await asyncio.wait_for(self.task, DEADLINE_S)


def events_path(tournament_id: int) -> str:
    return f"/api/v1/tournaments/{tournament_id}/events"


def test_a_players_stream_redacted_resumed_and_closed(director, seated_tournament):
    entry, other = Entry.objects.filter(tournament=seated_tournament).order_by("pk")[:2]
    query = f"player={player_token(seated_tournament.pk, entry.pk)}"
    path = events_path(seated_tournament.pk)

    async def scenario():
        call = AsgiCall(path, query)
        status, headers = await call.start()
        assert (await call.next()) == {"retry": "2000"}
        await call.until("ready")
        await sync_to_async(clock_operate)(
            actor=director, tournament_id=seated_tournament.pk, operation="start"
        )
        for player in (other, entry):
            await sync_to_async(eliminations_record)(
                actor=director, tournament_id=seated_tournament.pk, eliminations=[(player.pk, None)]
            )
        live = [await call.next() for _ in range(4)]
        await call.disconnect()
        listeners = len(bus._local_listeners[seated_tournament.pk])
        # A reconnecting phone resumes after the last event it had (the clock) and misses none.
        again = AsgiCall(path, query, {"Last-Event-ID": live[1]["id"]})
        assert (await again.start())[0] == 200
        resumed = [await again.next() for _ in range(3)]
        await again.disconnect()
        return status, headers, live, listeners, resumed

    status, headers, live, listeners, resumed = async_to_sync(scenario)()
    assert status == 200
    assert headers == {
        "content-type": "text/event-stream",
        "cache-control": "no-cache, no-transform",
        "x-accel-buffering": "no",
        "x-frame-options": "DENY",
        "x-content-type-options": "nosniff",
        "referrer-policy": "same-origin",
        "cross-origin-opener-policy": "same-origin",
    }
    assert [m["event"] for m in live] == ["changed", "clock", "changed", "changed"]
    # The tournament's own status (started) is every player's news: refetched at once.
    assert live[0]["data"] == {"kind": "tournament", "mine": True}
    assert live[1]["data"]["status"] == "running" and live[1]["data"]["reason"] == "start"
    # the other player's bust-out and then his own: only `mine` tells them apart
    assert [m["data"] for m in live[2:]] == [
        {"kind": "eliminations", "mine": False},
        {"kind": "eliminations", "mine": True},
    ]
    assert listeners == 0  # the closed stream left no subscription behind
    assert resumed[0] == {"retry": "2000"}
    assert resumed[1:] == live[2:]


def test_refusals_and_staff_streams_are_answered_by_django(seated_tournament):
    path = events_path(seated_tournament.pk)
    foreign_link = display_token(seated_tournament.pk + 1)

    async def answer(query: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
        call = AsgiCall(path, query, headers)
        status, _headers = await call.start()
        body = await call.body()
        await asyncio.wait_for(call.task, DEADLINE_S)
        return status, body

    async def scenario():
        return [
            await answer("player=forged", {"Accept-Language": "hu"}),
            await answer(f"display={foreign_link}"),
            await answer(""),
        ]

    (forged, forged_body), (foreign, _), (anonymous, _) = async_to_sync(scenario)()
    assert forged == 403 and "nem érvényes" in json.loads(forged_body)["detail"]
    assert foreign == 403
    assert anonymous == 401


def test_the_mailbox_beats_after_a_heartbeat_of_silence_only():
    async def scenario():
        box = Mailbox(0.2)
        loop = asyncio.get_running_loop()
        box.put_nowait({"id": 1})
        first = await box.get()
        silent_from = loop.time()
        beat = await box.get()  # nothing came: the keep-alive, a heartbeat after the put
        waited = loop.time() - silent_from
        box.put_nowait({"id": 2})
        after = await box.get()
        box.close()
        return first, beat, waited, after

    first, beat, waited, after = async_to_sync(scenario)()
    assert first == {"id": 1} and after == {"id": 2}
    assert beat is HEARTBEAT and waited >= 0.15


def test_one_published_message_read_by_many_players_streams_each_sees_his_own_view():
    """The hub hands the same message to every stream of the process: the frames rendered once
    per view must still say `mine` to the named player only, and carry no entry id."""
    from infra.streams.hub import _with_frame

    move = {"actions": [{"entry_id": 7, "moves": [{"entry_id": 9, "name": "Secret Sam"}]}]}
    published = [
        _with_frame({"id": 11, "event": "actions", "version": 2, "data": move}),
        _with_frame({"id": 12, "event": "clock", "version": 3, "data": {"status": "running"}}),
    ]
    # two phones of player 9, then players 8 and 7, in the order the hub hands it out
    streams = [
        (
            entry_id,
            EventCursor(1, last_event_id=10, last_version=1, redacted=True, entry_id=entry_id),
        )
        for entry_id in (9, 8, 7, 9)
    ]
    screen = EventCursor(1, last_event_id=10, last_version=1)
    frames = [(entry_id, [c.accept(m) for m in published]) for entry_id, c in streams]
    seen = dict(frames)
    assert frames[0][1] == frames[3][1]  # both phones of player 9 alike
    shown = [screen.accept(m) for m in published]
    assert [parse(f)[0]["data"] for f in seen[9]] == [
        {"kind": "actions", "mine": True},
        {"status": "running"},
    ]
    assert parse(seen[8][0])[0]["data"] == {"kind": "actions", "mine": False}
    assert parse(seen[7][0])[0]["data"] == {"kind": "actions", "mine": True}
    assert all("Secret Sam" not in f and "entry_id" not in f for f in seen[8] + seen[9])
    assert seen[8][1] is published[1]["frame"]  # the clock's frame, rendered once
    assert parse(shown[0])[0]["data"] == move  # a screen's stream has the event whole
