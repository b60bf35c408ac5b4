"""The room's cash event stream (docs/api.md "Cash games"): `GET /api/v1/rooms/{id}/events`,
as uvicorn serves it (ASGI): the room's cash events in order from a Last-Event-ID, the new ones
as they are written; staff or the room's board link, else refused."""

import asyncio

import pytest
from asgiref.sync import async_to_sync, sync_to_async

from clocks.festival.selectors import board_token
from infra.web.asgi_handler import TourneyASGIHandler
from tables.cash.usecases import cash_list_create, cash_table_open
from tables.cash_stream import views as stream_views
from tests.factories import asgi_http_scope
from tests.sse_client import DEADLINE_S, parse
from tourney.staff.usecases import api_token_create

pytestmark = pytest.mark.django_db(transaction=True)


class Call:
    def __init__(self, path: str, query: str = "", headers: dict[str, str] | None = None):
        self.sent: asyncio.Queue = asyncio.Queue()
        self.inbox: asyncio.Queue = asyncio.Queue()
        self.inbox.put_nowait({"type": "http.request", "body": b"", "more_body": False})
        raw = [(k.lower().encode(), v.encode()) for k, v in (headers or {}).items()]
        self.task = asyncio.create_task(
            TourneyASGIHandler()(asgi_http_scope(path, query, raw), self.inbox.get, self.sent.put)
        )

    async def start(self) -> int:
        message = await asyncio.wait_for(self.sent.get(), DEADLINE_S)
        return message["status"]

    async def frames(self) -> list[dict]:
        message = await asyncio.wait_for(self.sent.get(), DEADLINE_S)
        return parse(message["body"].decode())

    async def close(self) -> None:
        self.inbox.put_nowait({"type": "http.disconnect"})
        self.task.cancel()


def test_the_rooms_cash_events_in_order_resumed_and_live(director, room, monkeypatch):
    monkeypatch.setattr(stream_views, "POLL_SECONDS", 0.02)
    cash_table_open(
        actor=director,
        room_id=room.pk,
        table_number=1,
        game="holdem",
        game_limit="no_limit",
        small_blind=200,
        big_blind=400,
        min_buy_in=20_000,
        max_buy_in=80_000,
    )
    raw, _token = api_token_create(actor=director, user=director)
    path = f"/api/v1/rooms/{room.pk}/events"

    async def scenario():
        refused = Call(path)
        assert await refused.start() == 401
        forged = Call(path, "board=nope")
        assert await forged.start() == 403
        call = Call(path, "", {"Authorization": f"Bearer {raw}", "Last-Event-ID": "0"})
        assert await call.start() == 200
        seen = []
        while not any(f.get("event") == "cash_seat" for f in seen):
            seen += await call.frames()
        opened = next(f for f in seen if f.get("event") == "cash_seat")
        assert opened["data"]["reason"] == "table_opened" and opened["data"]["version"] == 1
        await sync_to_async(cash_list_create, thread_sensitive=False)(
            actor=director,
            room_id=room.pk,
            game="omaha",
            game_limit="pot_limit",
            small_blind=500,
            big_blind=1000,
        )
        while not any(f.get("event") == "cash_list" for f in seen):
            seen += await call.frames()
        made = next(f for f in seen if f.get("event") == "cash_list")
        assert made["data"]["version"] == 2 and int(made["id"]) > int(opened["id"])
        await call.close()
        # the TV by the room's board link, resuming after the first: only the second
        tv = Call(path, f"board={board_token(room)}&last_id={opened['id']}")
        assert await tv.start() == 200
        frames = []
        while not any(f.get("event") for f in frames):
            frames += await tv.frames()
        assert [f["event"] for f in frames if f.get("event")] == ["cash_list"]
        await tv.close()

    async_to_sync(scenario)()
