"""Cancelling a running event from the console (docs/rules.md §18), in English and Hungarian:
20 players with long Hungarian names, two out, every stack counted; the lobby TV open beside
the console. The director cancels with a reason under the house's chip-count settlement: the TV
turns, from its event stream, to "cancelled" and the reason; the console and the desk list what
each player gets back; the desk pays one back and the undo goes. The geometry check passes at
each step. Manual pictures: docs/pictures/cancelling-*.png."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from tests.conftest import seat_players
from tests.e2e.conftest import PASSWORD, TV, open_tool, with_password
from tests.e2e.geometry import assert_geometry
from tourney.models import Entry, LedgerEntry, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Gyöngyösi-Szentmiklóssy Bernadett",
    "Őri Zsolt",
    "Ádám Éva",
    "Üveges Örs",
    "Kovács Péter",
    "Szabó Júlia",
    "Tóth István",
    "Nagy Zsófia",
    "Horváth Gergely",
    "Varga Ildikó",
    "Kiss Bence",
    "Molnár Ágnes",
    "Németh László",
    "Farkas Réka",
    "Balogh Tamás",
    "Papp Krisztina",
    "Takács Dániel",
    "Juhász Enikő",
    "Lakatos Ferenc",
    "Mészáros Hajnalka",
]
REASON = {
    "en": "Power cut in the whole building: play cannot go on tonight",
    "hu": "Áramszünet az egész épületben: ma este nem folytatható a játék",
}
WORDS = {
    "en": ("Cancel this tournament", "Tournament cancelled", "Pay back", "Paid"),
    "hu": ("A verseny törlése", "Verseny törölve", "Visszafizetés", "Kifizetve"),
}


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


def _running(api, director, tournament) -> Tournament:
    ids = seat_players(api, tournament, NAMES)
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    for name in NAMES[-2:]:
        r = api.post(
            f"/tournaments/{tournament.pk}/eliminations",
            {"eliminations": [{"entry_id": ids[name]}]},
        )
        assert r.status_code == 200, r.json()
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    counts = [{"entry_id": e.pk, "chips": 30_000 + 1_000 * (e.pk % 17)} for e in left]
    r = api.put(f"/tournaments/{tournament.pk}/chip-counts", {"counts": counts})
    assert r.status_code == 200, r.json()
    return tournament


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_director_cancels_and_the_desk_pays_back(
    live_server, browser, new_page, login, api, director, tournament, lang, manual_picture
):
    with_password(director)
    _running(api, director, tournament)
    tv = browser.new_context(locale="en-GB" if lang == "en" else "hu-HU", viewport=TV).new_page()
    tv.goto(f"{live_server.url}/display/{display_token(tournament.pk)}/?lang={lang}")
    tv.wait_for_function("() => window.Tourney && Tourney.displayScreens")
    cancel_title, cancelled, pay_back, paid = WORDS[lang]

    page = new_page(viewport={"width": 1440, "height": 900})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    open_tool(page, "cancel")
    form = page.locator("#cancel-event")
    form.locator("summary").click()
    expect(form.locator("summary")).to_have_text(cancel_title)
    page.fill("#cancel-reason-input", REASON[lang])
    expect(form.locator('input[value="chip_count"]')).to_be_checked()  # Rimóc: the house rule
    form.scroll_into_view_if_needed()
    assert_geometry(page, f"cancel-form-1440x900-{lang}", full_page=True)
    if lang == "en":
        manual_picture(page, "cancelling-form")
    page.once("dialog", lambda dialog: dialog.accept())
    page.locator("#cancel-submit").click()

    panel = page.locator("#cancelled")
    expect(panel).to_contain_text(REASON[lang])
    rows = panel.locator("#cancel-entries tbody tr")
    expect(rows).to_have_count(18)  # the players left share the prizes; the two out do not
    expect(page.locator("#cancel-undo")).to_be_visible()
    assert_geometry(page, f"cancelled-console-1440x900-{lang}", full_page=True)
    if lang == "en":
        manual_picture(page, "cancelling-console")

    screen = tv.locator(".display-screen").first
    expect(screen.locator('[data-field="level"]')).to_have_text(cancelled)
    expect(screen.locator('[data-field="winner-name"]')).to_have_text(REASON[lang])
    assert_geometry(tv, f"cancelled-tv-1920x1080-{lang}", fixed_height=True)
    tv.set_viewport_size({"width": 1080, "height": 1920})  # a portrait TV, switched on
    tv.goto(f"{live_server.url}/display/{display_token(tournament.pk)}/?lang={lang}")
    tv.wait_for_function("() => window.Tourney && Tourney.displayScreens")
    expect(screen.locator('[data-field="winner-name"]')).to_have_text(REASON[lang])
    assert_geometry(tv, f"cancelled-tv-1080x1920-{lang}", fixed_height=True)
    if lang == "en":
        manual_picture(tv, "cancelling-tv")

    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(live_server.url + reverse("tourney:desk", args=[tournament.pk]))
    first = page.locator("#cancel-entries tbody tr").first
    first.get_by_role("button", name=pay_back).click()
    expect(page.locator("#cancel-entries tbody tr").first).to_contain_text(paid)
    expect(page.locator("#cancel-undo")).to_have_count(0)  # paid back: the cancellation stands
    assert_geometry(page, f"cancelled-desk-1366x768-{lang}", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})  # the floor's phone
    assert_geometry(page, f"cancelled-desk-390x844-{lang}", full_page=True)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    assert_geometry(page, f"cancelled-console-390x844-{lang}", full_page=True)
    assert LedgerEntry.objects.filter(tournament=tournament, kind="payout").count() == 1
    tv.context.close()
