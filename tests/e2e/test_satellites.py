"""A satellite on the screens (issue 27, docs/rules.md §17), in English and Hungarian: the lobby
TV at 1920x1080 and 1080x1920 titles its payouts with the seats and the target and reads each
place as a seat; at 8 players left the bubble, at 7 the end. Then the target's desk registers a
seat winner on his ticket. The geometry check passes at each step. Screenshots:
test-artifacts/screenshots/satellite-*.png; the manual's pictures docs/pictures/satellites-*.png."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from tests.conftest import friday_deepstack, seat_players
from tests.e2e.conftest import PASSWORD, TV, with_password
from tests.e2e.geometry import assert_geometry
from tourney.models import Entry, Ticket, Tournament

pytestmark = pytest.mark.django_db(transaction=True)

PORTRAIT = {"width": 1080, "height": 1920}
SURNAMES = ["Kovács", "Szabó", "Tóth", "Nagy", "Horváth", "Varga", "Kiss", "Molnár", "Németh"]
GIVEN = ["Bernadett Zsófia", "Péter", "Júlia", "István"]
NAMES = [f"{s} {g}" for g in GIVEN for s in SURNAMES] + ["Gyöngyösi-Szentmiklóssy Bernadett"]


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


def _satellite(api, director, structure, room) -> tuple[Tournament, Tournament]:
    target = friday_deepstack(
        director, structure, room, name="Main Event · Hungarian Poker Open", buy_in=45_000,
        fee=5_000,
    )  # fmt: skip
    sat = friday_deepstack(
        director, structure, room, name="Mega satellite", buy_in=10_000, fee=1_000,
        satellite={"target_id": target.pk, "leftover": "next_place"},
    )  # fmt: skip
    seat_players(api, sat, NAMES)
    assert Entry.objects.filter(tournament=sat).count() == 37
    clock_operate(actor=director, tournament_id=sat.pk, operation="start")
    return target, sat


def _bust_down_to(api, sat, players: int) -> None:
    while len(left := list(_left(sat))) > players:
        response = api.post(
            f"/tournaments/{sat.pk}/eliminations", {"eliminations": [{"entry_id": left[0]}]}
        )
        assert response.status_code == 200, response.json()


def _left(sat):
    entries = Entry.objects.filter(tournament=sat, status=Entry.Status.ACTIVE).order_by("pk")
    return entries.values_list("pk", flat=True)


def _tv(page, url: str, name: str, lang: str) -> None:
    for size, viewport in (("1920x1080", TV), ("1080x1920", PORTRAIT)):
        page.set_viewport_size(viewport)
        page.goto(f"{url}?lang={lang}")
        page.wait_for_function("() => window.Tourney && Tourney.displayScreens")
        page.wait_for_function("() => !document.querySelector('[data-pager]:not([data-paged])')")
        assert_geometry(page, f"satellite-tv-{name}-{size}-{lang}", fixed_height=True)


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_tv_shows_the_seats_to_the_bubble_and_the_end(
    live_server, browser, api, director, structure, room, lang, manual_picture
):
    target, sat = _satellite(api, director, structure, room)
    context = browser.new_context(locale="en-GB" if lang == "en" else "hu-HU", viewport=TV)
    page = context.new_page()
    url = f"{live_server.url}/display/{display_token(sat.pk)}/"
    seats = "7 seats" if lang == "en" else "7 hely"
    _tv(page, url, "running", lang)
    expect(page.locator('[data-field="payouts-title"]').first).to_have_text(seats)
    expect(page.locator('[data-field="payouts-target"]').first).to_have_text(target.name)
    first = page.locator('[data-field="payouts"] li').first
    expect(first).to_contain_text("1–7.")
    expect(first).to_contain_text("Seat" if lang == "en" else "Hely")
    if lang == "en":
        manual_picture(page, "satellites-tv")

    _bust_down_to(api, sat, 8)
    _tv(page, url, "bubble", lang)
    expect(page.locator('[data-field="payouts-flag"]').first).to_have_text(
        "Bubble" if lang == "en" else re.compile(r"\S+")
    )
    _bust_down_to(api, sat, 7)
    assert Tournament.objects.get(pk=sat.pk).status == "finished"
    assert Ticket.objects.filter(source=sat, target=target).count() == 7
    _tv(page, url, "finished", lang)
    context.close()


def test_the_targets_desk_registers_a_seat_winner_on_his_ticket(
    live_server, new_page, login, api, director, structure, room, manual_picture
):
    with_password(director)
    target, sat = _satellite(api, director, structure, room)
    _bust_down_to(api, sat, 7)
    ticket = Ticket.objects.select_related("player").filter(source=sat).order_by("pk").first()
    page = new_page(viewport={"width": 1366, "height": 768})
    page.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    login(page, director, PASSWORD)
    # The satellite's console: the seats its pool bought, and its target.
    page.goto(live_server.url + reverse("tourney:console", args=[sat.pk]))
    expect(page.locator("#satellite-seats [data-stat=seats]")).to_have_text("7")
    expect(page.locator("#satellite-seats")).to_contain_text(target.name)
    assert_geometry(page, "satellite-console-1366x768-hu", full_page=True)
    page.goto(live_server.url + reverse("tourney:desk", args=[target.pk]))
    page.locator("#player-search").fill(ticket.player.name)
    result = page.locator(f'#search-results [data-player-id="{ticket.player_id}"]')
    expect(result.locator("[data-has-ticket]")).to_be_visible()
    page.locator('input[name="method"][form="register-form"][value="ticket"]').check()
    assert_geometry(page, "satellite-desk-ticket-1366x768-hu", full_page=True)
    manual_picture(page, "satellites-desk")
    result.click()
    expect(page.locator("#last-registration")).to_contain_text(ticket.player.name)
    expect(page.locator("#last-ticket")).to_be_visible()  # paid by ticket, no cash
    assert_geometry(page, "satellite-desk-registered-1366x768-hu", full_page=True)
    ticket.refresh_from_db()
    assert ticket.status == "used"
    entry = Entry.objects.get(tournament=target, player=ticket.player)
    assert set(entry.ledger.values_list("method", flat=True)) == {"ticket"}
    page.goto(live_server.url + reverse("penalties:player", args=[ticket.player_id]))
    expect(page.locator("#player-tickets")).to_contain_text("Main Event")
    assert_geometry(page, "satellite-player-tickets-1366x768-hu", full_page=True)


def test_a_ticket_is_transferred_cashed_out_and_undone_on_the_players_page(
    live_server, new_page, login, api, director, structure, room, manual_picture
):
    with_password(director)
    _target, sat = _satellite(api, director, structure, room)
    other = friday_deepstack(director, structure, room, name="Sunday 50K", buy_in=45_000, fee=5_000)
    _bust_down_to(api, sat, 7)
    ticket = Ticket.objects.select_related("player").filter(source=sat).order_by("pk").first()
    page = new_page(viewport={"width": 1366, "height": 768})
    login(page, director, PASSWORD)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(live_server.url + reverse("penalties:player", args=[ticket.player_id]))
    row = page.locator(f'#player-tickets tr[data-ticket="{ticket.pk}"]')
    row.locator("select").select_option(str(other.pk))
    assert_geometry(page, "satellite-player-ticket-actions-1366x768-en", full_page=True)
    manual_picture(page, "satellites-player-tickets", full_page=True)
    row.locator("[data-ticket-transfer]").click()
    expect(page.locator(f'#player-tickets tr[data-ticket="{ticket.pk}"]')).to_contain_text(
        "Sunday 50K"
    )
    page.locator(f'#player-tickets tr[data-ticket="{ticket.pk}"] [data-ticket-undo]').click()
    expect(page.locator(f'#player-tickets tr[data-ticket="{ticket.pk}"]')).to_contain_text(
        "Main Event"
    )
    page.locator(f'#player-tickets tr[data-ticket="{ticket.pk}"] [data-ticket-cash-out]').click()
    expect(page.locator(f'#player-tickets tr[data-ticket="{ticket.pk}"]')).to_contain_text(
        "Cashed out"
    )
    ticket.refresh_from_db()
    assert ticket.status == "cashed_out"
    page.locator(f'#player-tickets tr[data-ticket="{ticket.pk}"] [data-ticket-undo]').click()
    expect(page.locator(f'#player-tickets tr[data-ticket="{ticket.pk}"]')).to_contain_text(
        "Not used yet"
    )
    assert_geometry(page, "satellite-player-ticket-undone-1366x768-en", full_page=True)


def test_the_satellites_staff_pages_fit_a_phone_in_hungarian(
    live_server, new_page, login, api, director, structure, room
):
    """The pages this feature changed, on a 390x844 phone in Hungarian, with a finished
    satellite of 37 long-named players: its console (seats card, seats ladder), the target's
    desk and a seat winner's page with his ticket's actions."""
    with_password(director)
    target, sat = _satellite(api, director, structure, room)
    _bust_down_to(api, sat, 7)
    ticket = Ticket.objects.filter(source=sat).order_by("pk").first()
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    login(page, director, PASSWORD)
    for name, path in (
        ("console", reverse("tourney:console", args=[sat.pk])),
        ("desk", reverse("tourney:desk", args=[target.pk])),
        ("player", reverse("penalties:player", args=[ticket.player_id])),
    ):
        page.goto(live_server.url + path)
        page.wait_for_load_state("networkidle")
        assert_geometry(page, f"satellite-{name}-390x844-hu", full_page=True)
