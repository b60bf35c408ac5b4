"""The pages of issue 31's house rules, in Hungarian with long names, at a laptop's and a phone's
size, through the geometry check: the desk asking a non-member's membership (Doyle), the room's
gaming day and operator, and the dealer link of a room whose dealer penalises (Atlas) while he
names who called the clock. Screenshots: test-artifacts/screenshots/house-rules-*.png."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from tables.dealer_links.selectors import dealer_token
from tables.models import TournamentTable
from tests.conftest import friday_deepstack, seat_players
from tests.e2e.conftest import PASSWORD, PHONE, with_password
from tests.e2e.desk_steps import sign_in
from tests.e2e.geometry import assert_geometry
from tourney.models import Entry
from tourney.players.usecases import player_create

pytestmark = pytest.mark.django_db(transaction=True)

LAPTOP = {"width": 1366, "height": 768}
NAMES = [
    "Szentgyörgyvölgyi-Kovácsné Ágnes", "Gyöngyösi-Szentmiklóssy Bernadett", "Őri Zsolt",
    "Kőszegi-Ördögh Szabolcs", "Hajdú-Szoboszlay Kornélia", "Ács Ödön", "Řezníček Přemysl",
    "Báthory Erzsébet Villő", "Ujvári Győző",
]  # fmt: skip


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["1366x768", "390x844"])
def test_the_desk_asks_a_non_members_membership_and_the_room_its_operator(
    live_server, new_page, login, director, structure, room, size
):
    doyle = friday_deepstack(director, structure, room, house_rules="doyle")
    player_create(actor=director, name=NAMES[0])
    page = new_page(viewport=size)
    sign_in(page, login, director)
    page.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    page.goto(live_server.url + reverse("tourney:desk", args=[doyle.pk]))
    page.fill("#player-search", "Szentgyörgy")
    form = page.locator("form.desk-membership")
    expect(form).to_be_visible()
    expect(form).to_contain_text("Még nem tag")
    assert_geometry(page, f"house-rules-desk-membership-hu-{size['width']}", full_page=True)

    page.goto(live_server.url + reverse("tables:room", args=[room.pk]))
    page.fill("#id_operator_name", "Diamond Seven Vendéglátó és Szerencsejáték-szervező Kft.")
    page.fill("#id_operator_address", "1087 Budapest, Kerepesi út 9., Aréna Pláza 2. emelet")
    page.fill("#id_operator_tax_number", "12345678-2-42")
    page.locator("#room-settings button[type=submit]").click()
    expect(page.locator("#id_operator_tax_number")).to_have_value("12345678-2-42")
    assert_geometry(page, f"house-rules-room-hu-{size['width']}", full_page=True)


def test_the_dealer_link_penalises_and_names_the_caller_on_a_phone(
    live_server, new_page, api, director, structure, room
):
    atlas = friday_deepstack(director, structure, room, house_rules="atlas")
    seat_players(api, atlas, NAMES)
    clock_operate(actor=director, tournament_id=atlas.pk, operation="start")
    number = TournamentTable.objects.filter(tournament=atlas, status="open").first().number
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    page.goto(f"{live_server.url}/dealer/{dealer_token(atlas.pk, number, 0)}/")
    page.wait_for_function("() => document.body && document.body.dataset.stream === 'online'")
    expect(page.locator('[data-field="penalties"]')).to_be_visible()
    page.locator(".dl-seat:not([disabled])").first.click()
    expect(page.locator('[data-action="penalty"]').first).to_be_enabled()
    assert_geometry(page, "house-rules-dealer-link-penalties-hu", full_page=True)
    page.locator('[data-action="clock"]').click()
    expect(page.locator('[data-field="hint"]')).to_contain_text("Ki kérte az órát?")
    assert_geometry(page, "house-rules-dealer-link-caller-hu")


def test_a_seat_away_on_the_dealer_link_and_the_console_on_a_phone(
    live_server, new_page, login, api, director, structure, room
):
    """docs/rules.md §2.3: Atlas's dealer link names the seat away with the house's rule (fold
    by the first betting round, live in the big blind); the console says when he is out
    (Rimóc's wait, from the moment he was marked). Hungarian, 390x844 and 1366x768."""
    atlas = friday_deepstack(director, structure, room, house_rules="atlas")
    seat_players(api, atlas, NAMES)
    clock_operate(actor=director, tournament_id=atlas.pk, operation="start")
    away = Entry.objects.filter(tournament=atlas, status="active").order_by("pk").first()
    assert api.post(f"/tournaments/{atlas.pk}/entries/{away.pk}/absent").status_code == 200
    number = away.tournament_table.number
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    page.goto(f"{live_server.url}/dealer/{dealer_token(atlas.pk, number, 0)}/")
    page.wait_for_function("() => document.body && document.body.dataset.stream === 'online'")
    banner = page.locator('[data-field="away"]')
    expect(banner).to_be_visible()
    expect(banner).to_contain_text(away.player.name)
    expect(banner).to_contain_text("első licitkörig")
    expect(banner).to_contain_text("Nagyvakon")
    assert_geometry(page, "house-rules-dealer-link-away-hu", full_page=True)

    rimoc = friday_deepstack(
        director, structure, room, name="Rimóci bajnokság", house_rules="rimoc"
    )
    seat_players(api, rimoc, [f"R {n}" for n in NAMES])
    clock_operate(actor=director, tournament_id=rimoc.pk, operation="start")
    gone = Entry.objects.filter(tournament=rimoc, status="active").order_by("pk").first()
    api.post(f"/tournaments/{rimoc.pk}/entries/{gone.pk}/absent")
    with_password(director)
    console = new_page(viewport={"width": 1366, "height": 768})
    console.context.add_cookies(
        [{"name": "django_language", "value": "hu", "url": live_server.url}]
    )
    login(console, director, PASSWORD)
    console.goto(live_server.url + reverse("tourney:console", args=[rimoc.pk]))
    expect(console.locator("#absent-players [data-out-after]")).to_contain_text("1. szint végén")
    assert_geometry(console, "house-rules-console-absent-hu", full_page=True)
