"""Issue 12: a screen resumed from more than BACKLOG_LIMIT events behind got one page (500),
then nothing until a new event released the next page (but not itself). It now gets the whole
backlog, page after page, in order, then the live events, through uvicorn and a real SSE
client, and in-process through the ASGI handler."""

import os

import pytest
from asgiref.sync import async_to_sync
from django.test import AsyncClient, override_settings
from django.utils import timezone

from clocks.clock.usecases import clock_operate
from infra import bus
from tests.conftest import bearer
from tests.processes import DEFAULT_REDIS_URL, redis_or_missing, uvicorn_server
from tests.sse_client import SseClient, Stream, events_url
from tourney.models import Tournament, TournamentEvent
from tourney.streams.selectors import BACKLOG_LIMIT, EventCursor

pytestmark = pytest.mark.django_db

BEHIND = 1_259  # the probe's figure: two full pages and a part


def store_backlog(tournament: Tournament, count: int) -> list[int]:
    """`count` stored events after the tournament's latest (versions contiguous); their ids."""
    version = Tournament.objects.get(pk=tournament.pk).version
    now = timezone.now()
    TournamentEvent.objects.bulk_create(
        TournamentEvent(
            tournament=tournament,
            kind="message",
            version=version + i + 1,
            payload={"message": f"note {i}"},
            at=now,
        )
        for i in range(count)
    )
    return list(
        TournamentEvent.objects.filter(tournament=tournament, version__gt=version)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def test_the_cursor_pages_through_a_long_backlog(director, seated_tournament):
    first = TournamentEvent.objects.filter(tournament=seated_tournament).order_by("pk").first()
    ids = store_backlog(seated_tournament, BEHIND)
    cursor = EventCursor(seated_tournament.pk)
    cursor.opening(first.pk)
    assert cursor.last_event_id - first.pk == BACKLOG_LIMIT
    assert cursor.behind
    pages = 1
    while cursor.behind:
        cursor.catch_up()
        pages += 1
    assert cursor.last_event_id == ids[-1]
    assert pages == 3  # 500 + 500 + the rest


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_uvicorn_sends_the_whole_backlog_then_live_events(director, seated_tournament):
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    redis_or_missing(redis_url)
    start = TournamentEvent.objects.filter(tournament=seated_tournament).order_by("-pk").first()
    ids = store_backlog(seated_tournament, BEHIND)
    headers = bearer(director)
    bus.redis_client.cache_clear()
    try:
        with override_settings(REDIS_URL=redis_url), uvicorn_server(redis_url) as base:
            # A socket timeout of 5 s: a stalled stream fails the test instead of hanging.
            stream = SseClient(
                f"{base}{events_url(seated_tournament.pk)}",
                {**headers, "Last-Event-ID": str(start.pk)},
            )
            assert stream.status == 200
            received = []
            while len(received) < len(ids):
                message = stream.next()
                if "id" in message:
                    received.append(int(message["id"]))
            clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
            live = stream.until("clock")
            stream.close()
    finally:
        bus.redis_client.cache_clear()
    assert received == ids
    assert int(live["id"]) > ids[-1]
    assert live["data"]["reason"] == "start"


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="")
def test_asgi_stream_sends_the_whole_backlog_then_live_events(director, seated_tournament):
    start = TournamentEvent.objects.filter(tournament=seated_tournament).order_by("-pk").first()
    ids = store_backlog(seated_tournament, BEHIND)
    headers = {**bearer(director), "Last-Event-ID": str(start.pk)}

    async def scenario() -> tuple[list[int], dict]:
        from asgiref.sync import sync_to_async

        response = await AsyncClient().get(events_url(seated_tournament.pk), headers=headers)
        stream = Stream(response)
        received = []
        while len(received) < len(ids):
            message = await stream.next()
            if "id" in message:
                received.append(int(message["id"]))
        await sync_to_async(clock_operate)(
            actor=director, tournament_id=seated_tournament.pk, operation="start"
        )
        live = await stream.until("clock")
        await stream.close()
        return received, live

    received, live = async_to_sync(scenario)()
    assert received == ids
    assert live["data"]["reason"] == "start"
