"""Sit-and-gos at the desk (docs/rules.md §19), in English and Hungarian: the director creates
a 9-seat series from its page; the desk registers ten players in one step each, new names and
found ones, each told his table and seat; the ninth fills the first event, which counts down
and starts itself (the timers' tick), while the tenth opens the next on another table; the
festival board shows the event filling "1/9" beside the one running. The geometry check passes
at 1366x768 and on a 390x844 phone. Manual pictures: docs/pictures/sng-*.png."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.geometry import assert_geometry
from tourney.models import SitAndGoSeries, Tournament
from tourney.sit_and_go.tasks import sng_tick

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
]
WORDS = {
    "en": ("Create series", "Register", "seat", "Starting", "Running"),
    "hu": ("Sorozat létrehozása", "Nevezés", "szék", "Indul", "Folyamatban"),
}


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_desk_fills_a_series_and_it_starts_itself(
    live_server, new_page, login, director, structure, room, lang, manual_picture
):
    with_password(director)
    create, register, seat_word, starting, running = WORDS[lang]
    page = new_page(viewport={"width": 1366, "height": 768})
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("sit_and_go:list"))
    page.fill("#id_name", "Legend SNG · 9-max Hold'em")
    page.select_option("#id_seats", "9")
    page.select_option("#id_house_rules", "mirage")
    page.fill("#id_countdown_seconds", "0")
    assert_geometry(page, f"sng-list-1366x768-{lang}", full_page=True)
    page.get_by_role("button", name=create).click()
    series = SitAndGoSeries.objects.get()
    expect(page).to_have_url(live_server.url + reverse("sit_and_go:page", args=[series.pk]))

    for name in NAMES[:5]:  # new players: typed, then "register as a new player"
        page.fill("#sng-q", name)
        page.press("#sng-q", "Enter")
        page.locator("#sng-new-player").click()
        expect(page.locator("#sng-seated")).to_contain_text(name)
        expect(page.locator("#sng-seated")).to_contain_text(seat_word)
    # Found players: the search finds them (accents not needed), Register.
    from tourney.players.usecases import player_create

    for name in NAMES[5:]:
        player_create(actor=director, name=name)
    for name in NAMES[5:8]:
        page.fill("#sng-q", name.split()[0].replace("ó", "o").replace("á", "a"))
        page.press("#sng-q", "Enter")
        row = page.locator("#sng-found li", has_text=name)
        row.get_by_role("button", name=register).click()
        expect(page.locator("#sng-seated")).to_contain_text(name)
    expect(page.locator("#sng-filling .sng-seats li.is-taken")).to_have_count(8)
    assert_geometry(page, f"sng-desk-filling-1366x768-{lang}", full_page=True)
    if lang == "en":
        manual_picture(page, "sng-desk", full_page=True)

    page.fill("#sng-q", NAMES[8])
    page.press("#sng-q", "Enter")
    page.locator("#sng-found li", has_text=NAMES[8]).get_by_role("button", name=register).click()
    expect(page.locator("#sng-starting")).to_contain_text(starting)
    first = Tournament.objects.get(sng_series=series)
    assert first.auto_start_at is not None and first.playing == 9
    assert sng_tick() == 1
    page.fill("#sng-q", NAMES[9])
    page.press("#sng-q", "Enter")
    page.locator("#sng-found li", has_text=NAMES[9]).get_by_role("button", name=register).click()
    expect(page.locator("#sng-running")).to_contain_text(first.name)
    expect(page.locator("#sng-running-title")).to_have_text(running)
    expect(page.locator("#sng-report dd").first).to_have_text("1")  # one event today
    expect(page.locator("#sng-filling .sng-seats li.is-taken")).to_have_count(1)
    assert_geometry(page, f"sng-desk-running-1366x768-{lang}", full_page=True)
    page.set_viewport_size({"width": 390, "height": 844})
    assert_geometry(page, f"sng-desk-running-390x844-{lang}", full_page=True)

    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(live_server.url + reverse("festival:overview"))
    board = page.locator("body")
    expect(board).to_contain_text(first.name)
    expect(board).to_contain_text("1/9")
    sng = page.locator('[data-field="sng"]')
    expect(sng).to_contain_text(series.name)
    expect(sng).to_contain_text("1/9")
    assert_geometry(page, f"sng-festival-1366x768-{lang}", full_page=True)
    page.goto(live_server.url + "/")
    expect(page.locator("#home-sng")).to_contain_text(series.name)
    assert_geometry(page, f"sng-home-1366x768-{lang}", full_page=True)
