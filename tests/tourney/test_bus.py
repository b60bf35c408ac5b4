"""Events are published after commit: in-process without Redis, through Redis pub/sub with it."""

import json
import os
import threading

import pytest
from django.test import override_settings

from infra import bus
from tests.conftest import service_missing
from tourney.models import TournamentEvent

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="")
def test_in_process_listener_receives_event_after_commit(api, tournament):
    received = []
    unsubscribe = bus.subscribe_local(tournament.pk, received.append)
    try:
        pid = api.post("/players", {"name": "Ann"}).json()["id"]
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid})
    finally:
        unsubscribe()
    assert [m["event"] for m in received] == ["entry"]
    stored = TournamentEvent.objects.get(pk=received[0]["id"])
    assert stored.payload["player_name"] == "Ann"


@pytest.fixture
def subscribed(tournament):
    """A Redis subscriber of the tournament's channel (the web process's own client made
    afresh for the test, with Redis set)."""
    import redis

    client = redis.Redis.from_url(REDIS_URL, socket_timeout=5)
    try:
        client.ping()
    except redis.RedisError as exc:
        service_missing(f"Redis at {REDIS_URL}: {exc}")
    pubsub = client.pubsub()
    pubsub.subscribe(bus.channel_name(tournament.pk))
    assert pubsub.get_message(timeout=5)["type"] == "subscribe"
    bus.redis_client.cache_clear()
    try:
        with override_settings(REDIS_URL=REDIS_URL):
            yield pubsub
    finally:
        bus.redis_client.cache_clear()
        pubsub.close()


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_redis_subscriber_receives_event(api, tournament, subscribed):
    pid = api.post("/players", {"name": "Bob"}).json()["id"]
    api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid})
    message = subscribed.get_message(timeout=5)
    assert message is not None and message["type"] == "message"
    body = json.loads(message["data"])
    assert body["event"] == "entry" and body["data"]["player_name"] == "Bob"


@pytest.mark.services
@pytest.mark.django_db
def test_a_web_process_publishes_from_its_own_thread_in_order(tournament, subscribed):
    drain = bus.publish_in_background()
    publishers = {t.name for t in threading.enumerate()}
    for n in range(25):
        bus.publish(tournament.pk, {"event": "message", "n": n})
    with bus.published_together():  # held, then queued behind the first 25
        for n in range(25, 50):
            bus.publish(tournament.pk, {"event": "message", "n": n})
    drain()  # everything queued is sent
    assert bus._outbox is None
    received = [subscribed.get_message(timeout=5) for _ in range(50)]
    assert "redis-publish" in publishers
    assert [json.loads(m["data"])["n"] for m in received] == list(range(50))
