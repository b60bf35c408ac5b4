"""Events are published after commit: in-process without Redis, through Redis pub/sub with it."""

import json
import os

import pytest
from django.test import override_settings

from tests.conftest import service_missing
from tourney import bus
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


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_redis_subscriber_receives_event(api, tournament):
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
            pid = api.post("/players", {"name": "Bob"}).json()["id"]
            api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid})
            message = pubsub.get_message(timeout=5)
    finally:
        bus.redis_client.cache_clear()
        pubsub.close()
    assert message is not None and message["type"] == "message"
    body = json.loads(message["data"])
    assert body["event"] == "entry" and body["data"]["player_name"] == "Bob"
