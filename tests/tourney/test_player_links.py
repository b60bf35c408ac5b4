"""Players' page links are revocable (one player's or all of a tournament's, with undo) and
expire a configurable time after the tournament finished (tourney/player_page/selectors.py, by the
mechanism of every revocable link, tourney/core/link_generations.py)."""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.conf import settings
from django.core import signing
from django.test import AsyncClient, override_settings
from django.utils import timezone

from infra.streams.frames import now_ms
from tests.sse_client import Stream
from tourney.audit.selectors import undo_links
from tourney.models import AuditEntry, Entry, Tournament
from tourney.player_page.selectors import player_link, player_token
from tourney.player_page.usecases import player_link_revoke, player_links_revoke
from tourney.streams.selectors import EventCursor

pytestmark = pytest.mark.django_db


def entries(tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament).order_by("pk"))


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def events(tournament, token: str) -> str:
    return f"/api/v1/tournaments/{tournament.pk}/events?player={token}"


def refused(client, tournament, token: str, code: str) -> None:
    """The page says so (403), its state and its stream answer {code, detail}."""
    page = client.get(f"/p/{token}/")
    assert page.status_code == 403 and f'data-code="{code}"' in page.content.decode()
    for url in (f"/p/{token}/state.json", events(tournament, token)):
        answer = client.get(url)
        assert answer.status_code == 403
        assert set(answer.json()) == {"code", "detail"} and answer.json()["code"] == code


def works(client, tournament, token: str) -> None:
    assert client.get(f"/p/{token}/").status_code == 200
    assert client.get(f"/p/{token}/state.json").status_code == 200


def test_links_printed_before_generations_keep_working(seated_tournament, client):
    entry = entries(seated_tournament)[0]
    old = signing.Signer(salt=settings.PLAYER_LINK_SALT).sign_object(
        {"t": seated_tournament.pk, "e": entry.pk}
    )
    assert player_token(seated_tournament.pk, entry.pk) == old
    works(client, seated_tournament, old)


def test_a_director_revokes_one_players_link_and_the_reprint_carries_the_new_one(
    api, api_as, seated_tournament, client, director_client
):
    mine, other = entries(seated_tournament)[:2]
    base = f"/tournaments/{seated_tournament.pk}/entries/{mine.pk}/player-link"
    old = token_of(api.get(base).json()["url"])
    for role in ("desk", "floor"):
        answer = api_as(role).post(f"{base}/revoke", {})
        assert answer.status_code == 403 and set(answer.json()) == {"code", "detail"}
    works(client, seated_tournament, old)

    new = token_of(api.post(f"{base}/revoke", {}).json()["url"])
    assert new != old and token_of(api.get(base).json()["url"]) == new
    refused(client, seated_tournament, old, "player_link_revoked")
    works(client, seated_tournament, new)
    works(client, seated_tournament, player_token(seated_tournament.pk, other.pk))
    card = director_client.get(f"/tournaments/{seated_tournament.pk}/entries/{mine.pk}/seat-card/")
    assert card.status_code == 200
    audit = AuditEntry.objects.get(action="entry.player_link_revoke")
    assert audit.target_id == mine.pk and audit.before == {"player_link_generation": 0}
    missing = api.post(f"/tournaments/{seated_tournament.pk}/entries/98765/player-link/revoke", {})
    assert missing.status_code == 404


def test_undo_brings_the_revoked_link_back_and_never_revives_a_later_one(
    api, seated_tournament, client
):
    entry = entries(seated_tournament)[0]
    base = f"/tournaments/{seated_tournament.pk}/entries/{entry.pk}/player-link"
    first = token_of(api.get(base).json()["url"])
    second = token_of(api.post(f"{base}/revoke", {}).json()["url"])
    assert token_of(api.post(f"{base}/revoke/undo", {}).json()["url"]) == first
    works(client, seated_tournament, first)
    refused(client, seated_tournament, second, "player_link_revoked")
    again = api.post(f"{base}/revoke/undo", {})
    assert again.status_code == 409 and again.json()["code"] == "nothing_to_undo"
    third = token_of(api.post(f"{base}/revoke", {}).json()["url"])
    assert third not in (first, second)  # the generation undone is never handed out again
    refused(client, seated_tournament, second, "player_link_revoked")
    actions = list(
        AuditEntry.objects.filter(target_id=entry.pk, action__startswith="entry.player_link")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == [
        "entry.player_link_revoke",
        "entry.player_link_revoke_undo",
        "entry.player_link_revoke",
    ]


def test_revoking_all_then_undo_from_the_activity_list(
    api, api_as, director, seated_tournament, client
):
    tokens = [player_token(seated_tournament.pk, e.pk) for e in entries(seated_tournament)]
    path = f"/tournaments/{seated_tournament.pk}/player-links/revoke"
    assert api_as("desk").post(path, {}).status_code == 403
    assert api.post(path, {}).status_code == 200
    for token in tokens:
        refused(client, seated_tournament, token, "player_link_revoked")
    audit = AuditEntry.objects.filter(action="tournament.player_links_revoke")
    [listed] = undo_links(audit, director)
    assert listed.undo.url == f"/api/v1{path}/undo" and not listed.undo.done
    assert undo_links(audit, make_floor())[0].undo is None  # a director's undo only
    assert api.post(f"{path}/undo", {}).status_code == 200
    for token in tokens:
        works(client, seated_tournament, token)
    assert undo_links(audit, director)[0].undo.done


def make_floor():
    from tests.conftest import make_staff

    return make_staff("floor-undo", "floor")


@override_settings(PLAYER_LINK_DAYS_AFTER_FINISH=7)
def test_links_expire_days_after_the_tournament_finished(seated_tournament, client):
    token = player_token(seated_tournament.pk, entries(seated_tournament)[0].pk)
    finished = Tournament.objects.filter(pk=seated_tournament.pk)
    finished.update(finished_at=timezone.now() - timedelta(days=6, hours=23))
    works(client, seated_tournament, token)
    finished.update(finished_at=timezone.now() - timedelta(days=7, minutes=1))
    refused(client, seated_tournament, token, "player_link_expired")
    for lang, words in (
        ("en", "player pages are closed"),
        ("hu", 'lang="hu"'),
        ("cs", 'lang="cs"'),
    ):
        page = client.get(f"/p/{token}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert words in page
    with override_settings(PLAYER_LINK_DAYS_AFTER_FINISH=30):
        works(client, seated_tournament, token)


def test_an_expired_link_ends_its_open_stream_at_the_next_event():
    payload = {"status": "running"}
    message = {"id": 5, "event": "clock", "version": 5, "data": payload}
    alive = EventCursor(1, last_event_id=4, last_version=4, redacted=True, entry_id=3)
    assert alive.accept(dict(message)) and not alive.closed
    expired = EventCursor(
        1, last_event_id=4, last_version=4, redacted=True, entry_id=3, expires_at_ms=now_ms() - 1
    )
    assert expired.accept(dict(message)) == "" and expired.closed


def test_a_revocation_closes_only_the_streams_it_names():
    closes = frozenset({"player_link_revoked"})
    mine = EventCursor(1, redacted=True, entry_id=3, closes_on=closes)
    assert not mine._closes("player_link_revoked", {"entry_id": 4, "generation": 9})
    assert mine._closes("player_link_revoked", {"entry_id": 3, "generation": 9})
    assert mine._closes("player_link_revoked", {"all": True, "generation": 9})
    assert not mine._closes("clock", {"all": True})


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="")
def test_an_open_stream_closes_when_his_link_is_revoked(director, seated_tournament):
    mine, other = entries(seated_tournament)[:2]
    token = player_token(seated_tournament.pk, mine.pk)

    async def scenario():
        response = await AsyncClient().get(events(seated_tournament, token))
        assert response.status_code == 200
        stream = Stream(response)
        await stream.until("ready")
        await sync_to_async(player_link_revoke)(
            actor=director, tournament_id=seated_tournament.pk, entry_id=other.pk
        )
        first = await stream.next()  # another player's: his stream goes on
        await sync_to_async(player_link_revoke)(
            actor=director, tournament_id=seated_tournament.pk, entry_id=mine.pk
        )
        second = await stream.next()
        with pytest.raises(StopAsyncIteration):
            await stream.next()
        again = await AsyncClient().get(events(seated_tournament, token))
        return first, second, again.status_code, again.json()

    first, second, status, body = async_to_sync(scenario)()
    assert first["data"] == {"kind": "player_link_revoked", "mine": False}
    assert second["data"] == {"kind": "player_link_revoked", "mine": True}
    assert status == 403 and body["code"] == "player_link_revoked"
    assert player_link(token).status == "revoked"


def test_revoke_all_uses_the_common_mechanism(director, seated_tournament):
    tournament = player_links_revoke(actor=director, tournament_id=seated_tournament.pk)
    assert tournament.player_link_generation != 0
    event = tournament.events.order_by("-pk").first()
    assert (event.kind, event.payload) == (
        "player_link_revoked",
        {"all": True, "generation": tournament.player_link_generation},
    )
