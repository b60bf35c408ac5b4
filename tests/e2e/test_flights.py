"""A festival's flight and its Day 2 in the browser (issue 26): the dealer's count sheet on a
phone, the console's end of day and Day-2 draw, the bag slips on A4 and 80 mm, the chip
leaders on the lobby TV (landscape and portrait), the public page and the player's own page,
in English and Hungarian, each passing the geometry check; the screenshots are the manual's
pictures (docs/festivals.md)."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.display.selectors import display_token
from tables.dealer_links.selectors import dealer_token
from tables.rooms.usecases import room_create
from tests.conftest import ApiClient, friday_deepstack
from tests.e2e.conftest import PASSWORD, PHONE, TV, with_password
from tests.e2e.geometry import assert_geometry
from tests.tourney.festival_steps import (
    flight,
    play_flight,
    players,
    seated,
)
from tourney.models import Entry
from tourney.player_page.selectors import player_token
from tourney.public_page.selectors import public_token

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Őri Zsolt",
    "Ábrahám-Kovács Zsófia Eleonóra",
    "Üveges Ödön",
    "Éliás Bence",
    "Szentgyörgyvölgyi Kristóf Benedek",
    "Nagy Anna",
    "Kiss Péter",
    "Tóth Gergely",
    "Horváth Ildikó",
    "Varga Ferenc",
    "Molnár Réka",
    "Farkas Dániel",
    "Balogh Tímea",
    "Papp Gábor",
    "Lakatos Júlia",
    "Takács Máté",
]


@pytest.fixture
def day1(api, director, structure):
    hall = room_create(
        actor=director,
        name="Fesztiválterem",
        tables=[{"number": n, "seats": 10} for n in range(1, 11)],
    )
    main = friday_deepstack(
        director,
        structure,
        hall,
        name="Rimóc Poker Fesztivál – Főverseny",
        rules_overrides={"reentry_max": 2},
        table_numbers=[7, 8],
    )
    pid = players(api, NAMES)
    day1a = flight(api, main, "Day 1A", [1, 2])
    left = play_flight(api, day1a, list(pid.values()), busts=3)
    return main, day1a, left


# The rotation shows the leaders' page after 20 s; the test turns to it at once.
SHOW_LEADERS = """() => {
  document.querySelectorAll("[data-display-screen]").forEach((s) => { s.hidden = true; });
  document.querySelector("[data-display-leaders]").hidden = false;
}"""


def _lang(page, url, lang):
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": url}])


def test_a_flight_counted_bagged_and_drawn_for_day_2(
    live_server, new_page, login, director, api, day1, manual_picture
):
    main, day1a, _left = day1
    (first, first_entries), (second, second_entries) = sorted(seated(day1a).items())
    # table 1's dealer counts through the API; table 2's dealer types on a phone
    counted = ApiClient(dealer_token(day1a.pk, first, 0)).put(
        f"/tournaments/{day1a.pk}/chip-counts",
        {"counts": [{"entry_id": e, "chips": 41_000} for e in first_entries]},
    )
    assert counted.status_code == 200
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    sheet = live_server.url + reverse(
        "tourney:dealer_counts", args=[dealer_token(day1a.pk, second, 0)]
    )
    for lang in ("hu", "en"):
        _lang(phone, live_server.url, lang)
        phone.goto(sheet)
        assert_geometry(phone, f"flights-count-sheet-390x844-{lang}", full_page=True)
    inputs = phone.locator(".cs-input")
    expect(inputs).to_have_count(len(second_entries))
    for i in range(inputs.count()):
        inputs.nth(i).fill("40 500")
    expect(phone.locator("#cs-total")).to_have_text(f"{40_500 * len(second_entries):,}")
    manual_picture(phone, "flights-count-sheet", full_page=True)
    phone.click("button.cs-save")
    expect(phone.locator(".cs-message")).to_contain_text("counts saved")
    assert {Entry.objects.get(pk=e).chips for e in second_entries} == {40_500}

    # The console: the counts against the chips in play, then the end of the day.
    with_password(director)
    desk = new_page()
    login(desk, director, PASSWORD)
    desk.goto(live_server.url + reverse("tourney:console", args=[day1a.pk]))
    panel = desk.locator("#festival-panel")
    expect(panel).to_contain_text("Counted: 13 of 13")
    manual_picture(desk, "flights-console")
    desk.once("dialog", lambda d: d.accept())
    desk.click("#end-of-day")
    expect(desk.get_by_text("The day is over: the players left are bagged.")).to_be_visible()
    expect(panel).to_contain_text("Bag slips")
    assert Entry.objects.filter(tournament=day1a, status="bagged").count() == 13

    # Bag slips on A4 and on an 80 mm roll.
    for paper in ("sheet", "80mm"):
        desk.goto(
            live_server.url + reverse("tourney:bag_slips", args=[day1a.pk]) + f"?paper={paper}"
        )
        expect(desk.locator(".bag-slip")).to_have_count(13)
        assert_geometry(desk, f"flights-bag-slips-{paper}", full_page=True)

    # The main event's console draws Day 2.
    desk.goto(live_server.url + reverse("tourney:console", args=[main.pk]))
    expect(desk.locator(".festival-flights")).to_contain_text("Day 1A")
    desk.click("#day2-draw")
    expect(desk.locator("#festival-panel")).to_contain_text("Chip leaders")
    manual_picture(desk, "flights-main-console")
    assert Entry.objects.filter(tournament=main, seat__isnull=False).count() == 13

    # The lobby TV's chip leaders, landscape and portrait, en and hu.
    tv = new_page(viewport=TV)
    display = live_server.url + reverse("clocks:display", args=[display_token(main.pk)])
    for size in (TV, {"width": 1080, "height": 1920}):
        tv.set_viewport_size(size)
        for lang in ("en", "hu"):
            _lang(tv, live_server.url, lang)
            tv.goto(display)
            tv.evaluate(SHOW_LEADERS)
            expect(tv.locator("[data-leaders-list] li")).to_have_count(10)
            name = f"flights-tv-leaders-{size['width']}x{size['height']}-{lang}"
            assert_geometry(tv, name, fixed_height=True)
            if size == TV and lang == "en":
                manual_picture(tv, "flights-tv-leaders")

    # The public page and a player's own page on a phone.
    public = live_server.url + reverse("public_page:page", args=[public_token(main)])
    for lang in ("en", "hu"):
        phone.goto(f"{public}?lang={lang}")
        expect(phone.locator(".pub-title")).to_contain_text("Főverseny")
        assert_geometry(phone, f"flights-public-390x844-{lang}", full_page=True)
    manual_picture(phone, "flights-public", full_page=True)
    bagged = Entry.objects.filter(tournament=day1a, status="bagged").first()
    _lang(phone, live_server.url, "en")
    phone.goto(
        live_server.url + reverse("player_page:page", args=[player_token(day1a.pk, bagged.pk)])
    )
    expect(phone.locator('[data-field="stack-line"]')).to_contain_text("Day 2: table")
    assert_geometry(phone, "flights-player-page-390x844-en", full_page=True)


def test_a_new_tournament_is_made_a_main_event_from_its_console(
    live_server, new_page, login, director, tournament
):
    """The console of a tournament with no entry offers its flights; the first one added there
    opens the flight's console. Whole on a laptop and a phone, en and hu."""
    with_password(director)
    for viewport in ({"width": 1440, "height": 900}, PHONE):
        page = new_page(viewport=viewport)
        login(page, director, PASSWORD)
        for lang in ("hu", "en"):
            _lang(page, live_server.url, lang)
            page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
            page.locator("#festival-start > summary").click()
            name = f"flights-festival-start-{viewport['width']}x{viewport['height']}-{lang}"
            assert_geometry(page, name, full_page=True)
    page.fill("#first-flight-name", "Day 1A")
    page.fill("#first-flight-tables", "1 2")
    page.fill("#first-flight-day-end", "8")
    page.locator("#festival-start button[type=submit]").click()
    expect(page.locator("#festival-panel")).to_contain_text("Flight of")
    assert Entry.objects.filter(tournament=tournament).count() == 0
