"""Issue 12: display links revocable per tournament (a generation signed into the link), the
director's link from the API (`GET .../display-link` -> {"url"}) and the console, open screens'
streams closed by the revocation, and no contact details for a display token anywhere."""

import re

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from django.core import signing
from django.test import AsyncClient, Client, override_settings

from clocks.display.selectors import REVOKED_EVENT, display_token
from clocks.display.usecases import display_links_revoke
from tests.sse_client import Stream
from tourney.models import AuditEntry, TournamentEvent
from tourney.players.usecases import player_create

pytestmark = pytest.mark.django_db

EMAIL, PHONE = "ann.kovacs@example.com", "+36 30 765 4321"
# The phone in any format ("765 4321", "765-4321", "7654321"); not "765" alone, which a
# millisecond timestamp on the page can hold ("server_time_ms": 1796176574751).
PHONE_SHOWN = re.compile(r"765\D?4321")


def token_of(url: str) -> str:
    return url.rstrip("/").rsplit("/", 1)[-1]


def payload(token: str) -> dict:
    from django.conf import settings

    return signing.loads(token, salt=settings.DISPLAY_LINK_SALT)


def test_the_director_gets_the_display_link_from_the_api(api, api_as, tournament, client):
    response = api.get(f"/tournaments/{tournament.pk}/display-link")
    assert response.status_code == 200
    body = response.json()
    assert list(body) == ["url"]
    assert body["url"].startswith("http://testserver/display/")
    assert client.get(body["url"].removeprefix("http://testserver")).status_code == 200
    for role in ("desk", "floor", "display"):
        refused = api_as(role).get(f"/tournaments/{tournament.pk}/display-link")
        assert refused.status_code == 403
    assert api.get("/tournaments/987654/display-link").status_code == 404


def test_revoking_kills_every_old_link_and_answers_the_new_one(api, api_as, tournament, client):
    old = api.get(f"/tournaments/{tournament.pk}/display-link").json()["url"]
    assert (
        api_as("desk").post(f"/tournaments/{tournament.pk}/display-link/revoke").status_code == 403
    )
    before = AuditEntry.objects.count()
    response = api.post(f"/tournaments/{tournament.pk}/display-link/revoke")
    assert response.status_code == 200
    new = response.json()["url"]
    assert new != old
    old_token, new_token = token_of(old), token_of(new)
    assert client.get(f"/display/{old_token}/").status_code == 404
    assert client.get(f"/display/{old_token}/state.json").status_code == 404
    assert client.get(f"/display/{new_token}/").status_code == 200
    events = f"/api/v1/tournaments/{tournament.pk}/events?display="
    assert client.get(events + old_token).status_code == 403
    assert AuditEntry.objects.count() == before + 1
    entry = AuditEntry.objects.latest("id")
    assert entry.action == "tournament.display_links_revoke"
    assert TournamentEvent.objects.filter(tournament=tournament, kind=REVOKED_EVENT).exists()
    again = api.get(f"/tournaments/{tournament.pk}/display-link").json()["url"]
    assert payload(token_of(again)) == payload(new_token) == {"t": tournament.pk, "g": 1}


def test_a_link_signed_before_generations_is_generation_zero(tournament, client, director):
    from django.conf import settings

    legacy = signing.dumps({"t": tournament.pk}, salt=settings.DISPLAY_LINK_SALT, compress=True)
    assert client.get(f"/display/{legacy}/").status_code == 200
    display_links_revoke(actor=director, tournament_id=tournament.pk)
    assert client.get(f"/display/{legacy}/").status_code == 404


def test_the_console_revokes_for_the_director_only(client, director, api_as, tournament):
    from tests.conftest import make_staff

    floor = make_staff("floor-page", "floor")
    old = display_token(tournament.pk)
    client.force_login(floor)
    assert client.post(f"/tournaments/{tournament.pk}/display-links/revoke/").status_code == 403
    client.force_login(director)
    page = client.get(f"/tournaments/{tournament.pk}/")
    assert "revoke-display-links" in page.content.decode()
    response = client.post(f"/tournaments/{tournament.pk}/display-links/revoke/", follow=True)
    assert response.status_code == 200
    assert "Display links revoked" in response.content.decode()
    assert Client().get(f"/display/{old}/").status_code == 404
    assert f"/display/{old}/" not in response.content.decode()


@pytest.mark.django_db(transaction=True)
@override_settings(REDIS_URL="")
def test_an_open_display_stream_ends_with_the_revocation(director, tournament):
    url = f"/api/v1/tournaments/{tournament.pk}/events?display={display_token(tournament.pk)}"

    async def scenario() -> tuple[dict, bool]:
        response = await AsyncClient().get(url)
        assert response.status_code == 200
        stream = Stream(response)
        await stream.until("ready")
        await sync_to_async(display_links_revoke)(actor=director, tournament_id=tournament.pk)
        revoked = await stream.until(REVOKED_EVENT)
        try:
            await stream.next()
        except StopAsyncIteration:
            return revoked, True
        return revoked, False

    revoked, ended = async_to_sync(scenario)()
    assert revoked["data"] == {"generation": 1}
    assert ended


def test_a_display_token_never_sees_contact_details(api, api_as, seated_tournament, director):
    player = player_create(actor=director, name="Ann Kovács", email=EMAIL, phone=PHONE)
    api.post(f"/tournaments/{seated_tournament.pk}/entries", {"player_id": player.pk})
    display = api_as("display")
    for response in (display.get("/players?search=Ann"), display.get(f"/players/{player.pk}")):
        text = response.content.decode()
        assert response.status_code == 200
        assert EMAIL not in text and not PHONE_SHOWN.search(text)
    # Nor can it probe phone numbers through the search: digits find no one for a display.
    assert display.get("/players?search=7654321").json() == []
    assert display.get("/players?search=Ann 30765").json() == []
    # The desk that registers players sees them, and finds them by phone.
    assert api.get(f"/players/{player.pk}").json()["email"] == EMAIL
    assert [p["id"] for p in api.get("/players?search=7654321").json()] == [player.pk]
    token = display_token(seated_tournament.pk)
    client = Client()
    for path in (f"/display/{token}/", f"/display/{token}/state.json", f"/display/{token}/seats/"):
        response = client.get(path)
        assert response.status_code == 200, path
        text = response.content.decode()
        assert EMAIL not in text and not PHONE_SHOWN.search(text), path
    stored = TournamentEvent.objects.filter(tournament=seated_tournament)
    for event in stored:
        assert EMAIL not in str(event.payload) and not PHONE_SHOWN.search(str(event.payload))


@pytest.mark.parametrize(
    ("seconds", "language", "line"),
    [
        (45, "en", "Starting blinds · 45-second levels"),
        (45, "hu", "Kezdő vakok · 45 másodperces szintek"),
        (45, "cs", "Počáteční blindy · levely po 45 sekundách"),
        (60, "en", "Starting blinds · 1-minute levels"),
        (60, "cs", "Počáteční blindy · levely po 1 minutě"),
        (180, "cs", "Počáteční blindy · levely po 3 minutách"),
        (1200, "hu", "Kezdő vakok · 20 perces szintek"),
    ],
)
def test_the_lobby_says_seconds_for_levels_under_a_minute(
    tournament, client, seconds, language, line
):
    """Production run (test events): the lobby TV said "0 perces szintek" for 45-second
    levels. Under a minute it says seconds; each language's plural form."""
    tournament.structure.levels.update(duration_seconds=seconds)
    client.cookies["django_language"] = language
    page = client.get(f"/display/{display_token(tournament.pk)}/").content.decode()
    assert f'<div class="lobby-sub">{line}' in page


@pytest.mark.parametrize(
    ("seconds", "language", "shown"),
    [
        (30, "en", "30 sec"),
        (30, "hu", "30 mp"),
        (30, "cs", "30 s"),
        (59, "en", "59 sec"),
        (60, "en", "1 min"),
        (600, "hu", "10 perc"),
        (600, "cs", "10 min"),
    ],
)
def test_the_lobbys_next_levels_say_seconds_for_a_break_under_a_minute(
    tournament, client, seconds, language, shown
):
    """The lobby TV's list of next levels said "0 min" for a 30-second break (minutes rounded
    down) while the line above it says "45-second levels" (22c450b): under a minute it says
    seconds too."""
    tournament.structure.levels.filter(kind="break").update(duration_seconds=seconds)
    client.cookies["django_language"] = language
    page = client.get(f"/display/{display_token(tournament.pk)}/").content.decode()
    breaks = re.findall(r'<li class="is-break">.*?<span class="num">(.*?)</span></li>', page)
    assert breaks == [shown]
