"""A bounty tournament on the phones (issue 27, docs/rules.md §16), 390x844, in English and
Hungarian: on the dealer link each seat shows the bounty on the head; the dealer taps the
busted seat, Bust-out, then the pot's winners (two: a split pot), and confirms; the winners'
heads grow on the page. The dealer page's bust-out dialog names the winner; the player's page
shows his bounty and what he has won. The geometry check passes at each step. Screenshots:
test-artifacts/screenshots/bounty-*.png."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from tables.dealer_links.selectors import dealer_token
from tables.models import TournamentTable
from tests.conftest import friday_deepstack, seat_players
from tests.e2e.conftest import PASSWORD, PHONE, TV, with_password
from tests.e2e.geometry import assert_geometry
from tests.e2e.player_page_steps import arrange_players, open_online, phone_context
from tourney.models import Elimination, Entry

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Gyöngyösi-Szentmiklóssy Bernadett", "Kovács Péter", "Horváth Júlia Boglárka",
    "Nagy István", "Szabó Éva", "Tóth Gábor", "Kiss Katalin", "Varga Zoltán", "Molnár Anna",
]  # fmt: skip


def _amount(lang: str, thousands: str, units: str) -> re.Pattern:
    """The bounty as the seat shows it: "bounty 5,000"; "fejpénz 5 000" (a no-break space)."""
    if lang == "en":
        return re.compile(rf"^bounty {thousands},{units}$")
    return re.compile(rf"^fejpénz {thousands}\s{units}$")


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_dealer_busts_a_player_and_names_the_split_pots_winners(
    live_server, new_page, api, director, structure, room, lang, manual_picture
):
    pko = friday_deepstack(
        director, structure, room, bounty={"kind": "progressive", "amount": 5_000}
    )
    seat_players(api, pko, NAMES)
    clock_operate(actor=director, tournament_id=pko.pk, operation="start")
    table = TournamentTable.objects.get(tournament=pko, status="open")
    seated = list(Entry.objects.filter(tournament=pko).order_by("seat"))
    victim, first, second = seated[0], seated[3], seated[5]
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.goto(f"{live_server.url}/dealer/{dealer_token(pko.pk, table.number, 0)}/")
    page.wait_for_function("() => document.body && document.body.dataset.stream === 'online'")
    bounty = page.locator(f'.dl-seat[data-seat="{first.seat}"] .dl-seat-bounty')
    expect(bounty).to_have_text(_amount(lang, "5", "000"))
    assert_geometry(page, f"bounty-dealer-table-{lang}", full_page=True)

    page.locator(f'.dl-seat[data-seat="{victim.seat}"]').click()
    page.locator('[data-action="bust"]').click()
    expect(page.locator(f'.dl-seat[data-seat="{victim.seat}"]')).to_have_class(
        re.compile(r"\bis-busting\b")
    )
    expect(page.locator('[data-action="bust"]')).to_be_disabled()  # no winner yet
    page.locator(f'.dl-seat[data-seat="{second.seat}"]').click()
    page.locator(f'.dl-seat[data-seat="{first.seat}"]').click()
    expect(page.locator(".dl-seat.is-winner")).to_have_count(2)
    assert_geometry(page, f"bounty-dealer-winners-{lang}", full_page=True)
    if lang == "en":
        manual_picture(page, "bounties-dealer-link", full_page=True)
    page.locator('[data-action="bust"]').click()
    expect(page.locator('[data-field="message"]')).to_be_visible()
    expect(page.locator(f'.dl-seat[data-seat="{victim.seat}"]')).to_be_disabled()
    assert len(asked) == 1

    ko = Elimination.objects.get(entry=victim, undone_at__isnull=True)
    button = table.button_seat
    order = sorted([first, second], key=lambda e: (e.seat - button - 1) % table.seats)
    assert ko.busted_by == [e.pk for e in order]
    # 5,000 split: 2,500 each, half in cash, half onto the head: 6,250
    expect(page.locator(f'.dl-seat[data-seat="{first.seat}"] .dl-seat-bounty')).to_have_text(
        _amount(lang, "6", "250")
    )
    assert_geometry(page, f"bounty-dealer-after-{lang}", full_page=True)


def test_the_floor_names_the_winner_in_the_dealer_pages_bust_out_dialog(
    live_server, new_page, login, api, director, structure, room, manual_picture
):
    """The staff dealer page (a floor's phone): the bust-out dialog of a bounty tournament has
    a column more, "Won the pot"."""
    with_password(director)
    pko = friday_deepstack(director, structure, room, bounty={"kind": "knockout", "amount": 2_000})
    seat_players(api, pko, NAMES)
    clock_operate(actor=director, tournament_id=pko.pk, operation="start")
    seated = list(Entry.objects.filter(tournament=pko).order_by("seat"))
    victim, winner = seated[1], seated[2]
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    phone.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    login(phone, director, PASSWORD)
    phone.goto(live_server.url + reverse("tables:dealer", args=[pko.pk, 1]))
    phone.locator("#bustout-open").tap()
    dialog = phone.locator("#bustout-dialog")
    expect(dialog).to_be_visible()
    dialog.locator(f'label[for="bust-{victim.pk}"]').tap()
    dialog.locator(f"#bust-won-{winner.pk}").check()
    assert_geometry(phone, "bounty-dealer-dialog-390x844-hu")
    manual_picture(phone, "bounties-dealer-dialog")
    dialog.locator("#bustout-only").tap()
    expect(phone.locator("#toasts .toast").first).to_be_visible()
    ko = Elimination.objects.get(entry=victim, undone_at__isnull=True)
    assert ko.busted_by == [winner.pk]
    rows = {r["entry_id"]: r for r in api.get(f"/tournaments/{pko.pk}/bounties").json()}
    assert rows[winner.pk]["won"] == 2_000 and rows[victim.pk]["on_head"] == 0


@pytest.mark.parametrize("locale", ["en-GB", "hu-HU"])
def test_a_players_page_shows_his_bounty_and_what_he_won(
    live_server, browser, api, director, structure, room, locale, manual_picture
):
    """His own phone: the bounty on his head, then, once he has busted someone in a
    progressive knockout, the bigger head and the cash won, live."""
    pko = friday_deepstack(
        director, structure, room, bounty={"kind": "progressive", "amount": 5_000}
    )
    arrange_players(director, pko, count=9)
    hunter, prey = list(Entry.objects.filter(tournament=pko).order_by("seat"))[:2]
    context = phone_context(browser, locale)
    page = open_online(context, live_server.url, pko, hunter.pk)
    card = page.locator('[data-section="bounty"]')
    expect(card).to_be_visible()
    expect(card.locator('[data-field="bounty-head"]')).to_contain_text("5")
    lang = locale[:2]
    assert_geometry(page, f"bounty-player-page-{lang}", full_page=True)
    _bust_via_api(api, pko, prey.pk, [hunter.pk])
    expect(card.locator('[data-field="bounty-head"]')).to_have_text(re.compile(r"7\D?500"))
    expect(card.locator('[data-field="bounty-won"]')).to_contain_text(re.compile(r"2\D?500"))
    assert_geometry(page, f"bounty-player-page-won-{lang}", full_page=True)
    if lang == "en":
        manual_picture(page, "bounties-player-page")
    context.close()


def _bust_via_api(api, tournament, entry_id: int, winners: list[int]) -> None:
    response = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": entry_id, "busted_by": winners}]},
    )
    assert response.status_code == 200, response.json()


@pytest.mark.parametrize("viewport,lang", [({"width": 1366, "height": 768}, "en"), (PHONE, "hu")])
def test_the_bounties_page_names_a_forgotten_winner(
    live_server, new_page, login, api, director, structure, room, viewport, lang, manual_picture
):
    """A bust-out recorded in a hurry, with no winner: the console's Bounties page lists it
    with its table's players; the floor ticks the winner and names him; the table of heads
    and winnings follows."""
    with_password(director)
    pko = friday_deepstack(
        director, structure, room, bounty={"kind": "progressive", "amount": 5_000}
    )
    seat_players(api, pko, NAMES)
    clock_operate(actor=director, tournament_id=pko.pk, operation="start")
    seated = list(Entry.objects.filter(tournament=pko).order_by("seat"))
    victim, winner = seated[0], seated[1]
    _bust_via_api(api, pko, victim.pk, [])
    page = new_page(viewport=viewport)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[pko.pk]))
    expect(page.locator("#bounties-link .badge")).to_have_text("1")  # one to name
    page.locator("#bounties-link").click()
    form = page.locator(f'#bounty-unclaimed form[data-bust="{victim.pk}"]')
    expect(form).to_be_visible()
    size = f"{viewport['width']}x{viewport['height']}"
    assert_geometry(page, f"bounty-page-{size}-{lang}", full_page=True)
    if lang == "en":
        manual_picture(page, "bounties-page", full_page=True)
    form.locator(f'input[name=won_by][value="{winner.pk}"]').check()
    form.locator("button[type=submit]").click()
    expect(page.locator("#bounty-unclaimed")).to_have_count(0)
    expect(page.locator(f'#bounty-table tr[data-entry="{winner.pk}"] td').nth(2)).to_have_text(
        re.compile(r"2\D?500")
    )
    # The answer's toast floats over the table for its few seconds; its own text is checked.
    page.evaluate("document.getElementById('toasts').dataset.geometrySkip = 'overlap'")
    assert_geometry(page, f"bounty-page-named-{size}-{lang}", full_page=True)
    assert Elimination.objects.get(entry=victim, undone_at__isnull=True).busted_by == [winner.pk]


def test_the_results_page_lists_the_bounties_won(
    live_server, new_page, login, api, director, structure, room, manual_picture
):
    """A progressive knockout of nine to a winner: the results show each player's bounties
    beside his prize, and they sum to the bounty pool."""
    with_password(director)
    pko = friday_deepstack(
        director, structure, room, bounty={"kind": "progressive", "amount": 5_000}
    )
    seat_players(api, pko, NAMES)
    clock_operate(actor=director, tournament_id=pko.pk, operation="start")
    seated = [e.pk for e in Entry.objects.filter(tournament=pko).order_by("seat")]
    for i, busted in enumerate(seated[:-1]):
        _bust_via_api(api, pko, busted, [seated[-1] if i % 2 else seated[i + 1]])
    page = new_page(viewport={"width": 1366, "height": 768})
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("payouts:results", args=[pko.pk]))
    cells = page.locator("#results-table tbody td.result-bounties")
    expect(cells).to_have_count(9)
    total = sum(int(re.sub(r"\D", "", t)) for t in cells.all_inner_texts())
    assert total == 9 * 5_000
    assert_geometry(page, "bounty-results-1366x768-en", full_page=True)
    manual_picture(page, "bounties-results", full_page=True)


# The rotation turns to the bounties' page after 20 s; the test turns to it at once.
SHOW_BOUNTIES = """() => {
  document.querySelectorAll("[data-display-screen]").forEach((s) => { s.hidden = true; });
  document.querySelector("[data-display-bounties]").hidden = false;
}"""


def test_the_lobby_tv_shows_the_biggest_bounties_live(
    live_server, new_page, api, director, structure, room, manual_picture
):
    """A page of the TV's rotation: the biggest bounties on heads still in, landscape and
    portrait, en and hu; a bust-out moves the winner up, live."""
    pko = friday_deepstack(
        director, structure, room, bounty={"kind": "progressive", "amount": 5_000}
    )
    seat_players(api, pko, NAMES)
    clock_operate(actor=director, tournament_id=pko.pk, operation="start")
    seated = [e.pk for e in Entry.objects.filter(tournament=pko).order_by("seat")]
    _bust_via_api(api, pko, seated[0], [seated[1]])
    tv = new_page(viewport=TV)
    display = live_server.url + reverse("clocks:display", args=[display_token(pko.pk)])
    for size in (TV, {"width": 1080, "height": 1920}):
        tv.set_viewport_size(size)
        for lang in ("en", "hu"):
            tv.context.add_cookies(
                [{"name": "django_language", "value": lang, "url": live_server.url}]
            )
            tv.goto(display)
            tv.evaluate(SHOW_BOUNTIES)
            rows = tv.locator("[data-bounties-list] li")
            expect(rows).to_have_count(8)
            expect(rows.first.locator(".dleaders-chips")).to_have_text(re.compile(r"7\D?500"))
            name = f"bounty-tv-{size['width']}x{size['height']}-{lang}"
            assert_geometry(tv, name, fixed_height=True)
            if size == TV and lang == "en":
                manual_picture(tv, "bounties-tv")
    _bust_via_api(api, pko, seated[2], [seated[3]])
    expect(tv.locator("[data-bounties-list] li")).to_have_count(7)
