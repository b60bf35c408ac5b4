"""Issue 15 part 1: the player's own page from the seat card's QR code (no login).

The desk's `GET .../entries/{entry_id}/player-link` -> {"url"}; the page, its state, manifest
and service worker; the stream `?player=<token>` is read-only and redacted: clock events whole,
every other event only as `changed` {kind}, so no other player's details reach a phone.
"""

import json

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.test import AsyncClient, override_settings

from clocks.clock.usecases import clock_operate
from tests.sse_client import Stream
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry
from tourney.player_page.selectors import player_token
from tourney.players.usecases import player_create

pytestmark = pytest.mark.django_db

EMAIL, PHONE = "bela.nagy@example.com", "+36 20 111 2233"


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def entries(tournament) -> list[Entry]:
    return list(Entry.objects.filter(tournament=tournament).order_by("pk"))


def test_desk_and_director_get_the_player_link_others_are_refused(
    api, api_as, seated_tournament, client
):
    entry = entries(seated_tournament)[0]
    path = f"/tournaments/{seated_tournament.pk}/entries/{entry.pk}/player-link"
    body = api.get(path).json()
    assert list(body) == ["url"] and body["url"].startswith("http://testserver/p/")
    assert api_as("desk").get(path).json() == body
    for role in ("floor", "display"):
        refused = api_as(role).get(path)
        assert refused.status_code == 403 and set(refused.json()) == {"code", "detail"}
    assert (
        api.get(f"/tournaments/{seated_tournament.pk}/entries/98765/player-link").status_code == 404
    )
    page = client.get(body["url"].removeprefix("http://testserver"))
    assert page.status_code == 200
    assert page["Referrer-Policy"] == "no-referrer"


def test_the_state_shows_his_seat_and_no_other_players(api, seated_tournament, client):
    mine, other = entries(seated_tournament)[:2]
    other.player.email, other.player.phone = EMAIL, PHONE
    other.player.save()
    token = player_token(seated_tournament.pk, mine.pk)
    state = client.get(f"/p/{token}/state.json").json()
    player = state["player"]
    assert (player["table"], player["seat"]) == (mine.tournament_table.number, mine.seat)
    seats = player["map"]["seats"]
    assert [s["seat"] for s in seats if s["mine"]] == [mine.seat]
    assert sum(s["taken"] for s in seats) >= 1
    assert state["stats"]["players_remaining"] == 4
    assert state["tournament"]["money"] == "%(n)s\xa0Ft"  # "12 000 Ft", as every page
    text = json.dumps(state) + client.get(f"/p/{token}/").content.decode()
    for secret in (EMAIL, PHONE, other.player.name):
        assert secret not in text


def test_bad_tokens_are_refused_everywhere(seated_tournament, client):
    entry = entries(seated_tournament)[0]
    forged = player_token(seated_tournament.pk, entry.pk)[:-2] + "xx"
    wrong = player_token(seated_tournament.pk + 1, entry.pk)
    for token in (forged, wrong, "nonsense"):
        assert client.get(f"/p/{token}/").status_code == 404
        assert client.get(f"/p/{token}/state.json").status_code == 404
    good = player_token(seated_tournament.pk, entry.pk)
    other = f"/api/v1/tournaments/{seated_tournament.pk + 1}/events?player={good}"
    refused = client.get(other)
    assert refused.status_code == 403 and refused.json()["code"] == "forbidden"


def test_the_stream_is_read_only(seated_tournament, client):
    token = player_token(seated_tournament.pk, entries(seated_tournament)[0].pk)
    url = f"/api/v1/tournaments/{seated_tournament.pk}/events?player={token}"
    assert client.post(url).status_code in (401, 403, 405)
    # the token is no credential for the API
    headers = {"Authorization": f"Bearer {token}"}
    assert (
        client.get(f"/api/v1/tournaments/{seated_tournament.pk}", headers=headers).status_code
        == 401
    )


def test_manifest_and_service_worker(seated_tournament, client):
    token = player_token(seated_tournament.pk, entries(seated_tournament)[0].pk)
    manifest = client.get(f"/p/{token}/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["start_url"] == f"/p/{token}/" and data["display"] == "standalone"
    worker = client.get("/p/sw.js")
    assert worker.status_code == 200 and "javascript" in worker["Content-Type"]
    svg = client.get(f"/p/{token}/qr.svg")
    assert svg["Content-Type"] == "image/svg+xml" and svg.content.startswith(b"<svg")


def test_the_page_speaks_the_phones_language(seated_tournament, client):
    token = player_token(seated_tournament.pk, entries(seated_tournament)[0].pk)
    for lang, word in (("hu", "Díjalap"), ("cs", "Výherní fond"), ("en", "Prize pool")):
        page = client.get(f"/p/{token}/", HTTP_ACCEPT_LANGUAGE=lang).content.decode()
        assert f'lang="{lang}"' in page and word in page


def test_after_the_bust_out_his_place(director, seated_tournament, client):
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    entry = entries(seated_tournament)[0]
    eliminations_record(
        actor=director, tournament_id=seated_tournament.pk, eliminations=[(entry.pk, None)]
    )
    state = client.get(f"/p/{player_token(seated_tournament.pk, entry.pk)}/state.json").json()
    assert state["player"]["status"] == "eliminated"
    assert state["result"]["place"] == 4
    assert state["receipts"] and state["receipts"][0]["purpose"] == "entry"


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="")
def test_the_player_stream_has_the_clock_and_only_changed_for_the_rest(director, seated_tournament):
    entry, busted = entries(seated_tournament)[:2]
    busted_name = busted.player.name
    token = player_token(seated_tournament.pk, entry.pk)

    async def scenario():
        response = await AsyncClient().get(
            f"/api/v1/tournaments/{seated_tournament.pk}/events?player={token}"
        )
        assert response.status_code == 200
        stream = Stream(response)
        await stream.until("ready")
        await sync_to_async(clock_operate)(
            actor=director, tournament_id=seated_tournament.pk, operation="start"
        )
        await sync_to_async(player_create)(
            actor=director, name="Secret Sam", email=EMAIL, phone=PHONE
        )
        await sync_to_async(eliminations_record)(
            actor=director,
            tournament_id=seated_tournament.pk,
            eliminations=[(busted.pk, None)],
        )
        seen = []
        while len(seen) < 12:
            message = await stream.next()
            seen.append(message)
            if message.get("event") == "changed" and message["data"]["kind"] == "eliminations":
                break
        await stream.close()
        return seen

    seen = async_to_sync(scenario)()
    kinds = {m.get("event") for m in seen}
    assert "clock" in kinds and "changed" in kinds
    assert kinds <= {"clock", "changed"}
    for message in seen:
        if message["event"] == "changed":
            assert set(message["data"]) == {"kind", "mine"}
            # Another player's bust-out is not his; the tournament's status is everyone's.
            assert message["data"]["mine"] is (message["data"]["kind"] == "tournament")
    assert EMAIL not in json.dumps(seen) and busted_name not in json.dumps(seen)


def test_the_seat_card_and_the_receipt_carry_the_players_qr_code(
    director_client, seated_tournament
):
    from django.urls import reverse

    from tourney.models import LedgerEntry

    entry = entries(seated_tournament)[0]
    card = director_client.get(
        reverse("tourney:seat_card", args=[seated_tournament.pk, entry.pk])
    ).content.decode()
    assert 'class="player-qr"' in card and "<svg" in card
    number = LedgerEntry.objects.filter(entry=entry).first().receipt_number
    receipt = director_client.get(
        reverse("tourney:receipt_number", args=[seated_tournament.pk, number])
    ).content.decode()
    assert 'class="player-qr"' in receipt and "<svg" in receipt


def test_changed_says_mine_when_the_event_names_his_entry():
    from tourney.streams.selectors import EventCursor, mentioned_entries

    payload = {"reason": "done", "actions": [{"entry_id": 7, "moves": [{"entry_id": 9}]}]}
    assert mentioned_entries(payload) == {7, 9}
    cursor = EventCursor(1, redacted=True, entry_id=9)
    assert '"mine":true' in cursor._frame(3, "actions", payload)
    assert '"mine":false' in EventCursor(1, redacted=True, entry_id=8)._frame(3, "actions", payload)
    assert '"entry_id"' not in cursor._frame(3, "actions", payload)
    assert cursor._frame(4, "clock", {"status": "running"}).startswith("id: 4\nevent: clock")
