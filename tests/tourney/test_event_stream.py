"""GET /api/v1/tournaments/{id}/events: SSE with resume, heartbeat and every reader's access."""

import os

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, Client, override_settings

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from infra import bus
from tests.conftest import bearer
from tests.processes import DEFAULT_REDIS_URL, redis_or_missing, uvicorn_server
from tests.sse_client import SseClient, Stream, events_url, parse
from tourney.models import TournamentEvent
from tourney.streams.selectors import EventCursor


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="")
def test_stream_opens_with_ready_then_sends_each_clock_change(director, seated_tournament):
    headers = bearer(director)

    async def scenario():
        response = await AsyncClient().get(events_url(seated_tournament.pk), headers=headers)
        assert response.status_code == 200
        assert response["Content-Type"] == "text/event-stream"
        assert response["Cache-Control"].startswith("no-cache")
        stream = Stream(response)
        assert (await stream.next()) == {"retry": "2000"}
        ready = await stream.next()
        assert ready["event"] == "ready" and ready["data"]["server_time_ms"] > 0
        await sync_to_async(clock_operate)(
            actor=director, tournament_id=seated_tournament.pk, operation="start"
        )
        events = [await stream.next(), await stream.next()]
        await stream.close()
        return events

    tournament_event, clock_event = async_to_sync(scenario)()
    assert tournament_event["event"] == "tournament"
    assert clock_event["event"] == "clock"
    assert clock_event["data"]["status"] == "running" and clock_event["data"]["reason"] == "start"
    stored = TournamentEvent.objects.get(pk=int(clock_event["id"]))
    assert stored.kind == "clock" and stored.payload == clock_event["data"]


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="")
def test_last_event_id_replays_what_the_screen_missed(director, seated_tournament):
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    first = TournamentEvent.objects.filter(tournament=seated_tournament).order_by("pk").last()
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="pause")
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="resume")
    missed = list(
        TournamentEvent.objects.filter(tournament=seated_tournament, pk__gt=first.pk).order_by("pk")
    )
    headers = {**bearer(director), "Last-Event-ID": str(first.pk)}

    async def scenario():
        response = await AsyncClient().get(events_url(seated_tournament.pk), headers=headers)
        stream = Stream(response)
        await stream.next()  # retry
        replayed = [await stream.next() for _ in missed]
        await stream.close()
        return replayed

    replayed = async_to_sync(scenario)()
    assert [int(m["id"]) for m in replayed] == [e.pk for e in missed]
    assert [m["data"]["reason"] for m in replayed] == ["pause", "resume"]


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="", EVENTS_HEARTBEAT_SECONDS=0)
def test_idle_stream_sends_heartbeat_comments(director, seated_tournament):
    headers = bearer(director)

    async def scenario():
        stream = Stream(await AsyncClient().get(events_url(seated_tournament.pk), headers=headers))
        await stream.until("ready")
        beat = await stream.next()
        await stream.close()
        return beat

    beat = async_to_sync(scenario)()
    assert beat["comment"].startswith("ping ")


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="")
def test_display_link_reads_its_own_tournament_only(tournament):
    good = events_url(tournament.pk, f"?display={display_token(tournament.pk)}")
    other = events_url(tournament.pk, f"?display={display_token(tournament.pk + 1)}")

    async def scenario():
        client = AsyncClient()
        ok = await client.get(good)
        stream = Stream(ok)
        await stream.until("ready")
        await stream.close()
        refused = await client.get(other)
        forged = await client.get(events_url(tournament.pk, "?display=forged"))
        return ok.status_code, refused, forged

    status, refused, forged = async_to_sync(scenario)()
    assert status == 200
    assert refused.status_code == forged.status_code == 403
    assert refused.json()["code"] == "forbidden"


@pytest.mark.django_db
def test_anonymous_and_unknown_tournaments_are_refused(director, seated_tournament):
    anonymous = Client().get(events_url(seated_tournament.pk))
    assert anonymous.status_code == 401 and anonymous.json()["code"] == "not_authenticated"
    missing = Client().get(events_url(seated_tournament.pk + 999), headers=bearer(director))
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"


@pytest.mark.django_db
def test_session_login_reads_the_stream_under_wsgi(director, seated_tournament):
    client = Client()
    client.force_login(director)
    response = client.get(events_url(seated_tournament.pk))
    assert response.status_code == 200
    chunks = iter(response.streaming_content)
    assert next(chunks).decode() == "retry: 2000\n\n"
    assert parse(next(chunks).decode())[0]["event"] == "ready"
    response.close()


@pytest.mark.django_db
def test_cursor_sends_in_order_skips_duplicates_and_rereads_on_a_gap(director, seated_tournament):
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    cursor = EventCursor(seated_tournament.pk)
    cursor.opening(resume_from=None)
    version = cursor.last_version

    def message(event_id: int, v: int) -> dict:
        return {"id": event_id, "event": "clock", "version": v, "data": {"v": v}}

    assert cursor.accept(message(cursor.last_event_id, version)) == ""  # already sent
    assert cursor.accept(message(10_000, version + 2)) is None  # version+1 never arrived
    sent = cursor.accept(message(10_001, version + 1))
    assert "id: 10001\nevent: clock\n" in sent and cursor.last_version == version + 1
    assert cursor.accept(message(10_001, version + 1)) == ""


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_uvicorn_streams_a_change_written_by_another_process_through_redis(
    director, seated_tournament
):
    redis_url = os.environ.get("REDIS_URL") or DEFAULT_REDIS_URL
    redis_or_missing(redis_url)
    headers = bearer(director)
    bus.redis_client.cache_clear()
    try:
        with override_settings(REDIS_URL=redis_url), uvicorn_server(redis_url) as base:
            stream = SseClient(f"{base}{events_url(seated_tournament.pk)}", headers)
            assert stream.status == 200
            ready = stream.until("ready")
            clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
            clock = stream.until("clock")
            stream.close()
            # A reconnecting screen resumes after the last id it saw and misses nothing.
            clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="pause")
            resumed = SseClient(
                f"{base}{events_url(seated_tournament.pk)}",
                {**headers, "Last-Event-ID": clock["id"]},
            )
            replayed = resumed.until("clock")
            resumed.close()
    finally:
        bus.redis_client.cache_clear()
    assert int(clock["id"]) > int(ready["id"])
    assert clock["data"]["status"] == "running" and clock["data"]["reason"] == "start"
    assert replayed["data"]["reason"] == "pause"
