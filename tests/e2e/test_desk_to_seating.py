"""From the registration desk to the seating chart, in a real browser.

A director signs in, registers ten players by keyboard (five created in place, five found by
search), draws the seats on the console, and checks the seat card, the seating chart, the
dealer page and the lobby display's find-your-seat. Screenshots of every screen go to
test-artifacts/screenshots/.
"""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PASSWORD, PHONE, TV, with_password
from tourney.models import Entry, LedgerEntry
from tourney.players.usecases import player_ban, player_create

NEW_PLAYERS = ["Fekete Bence", "Varga Lili", "Molnár Dávid", "Papp Réka", "Balogh Máté"]
# (name, what the desk types: part of the name, without accents)
EXISTING_PLAYERS = [
    ("Kovács Péter", "kovacs"),
    ("Nagy Éva", "nagy"),  # also matches the decoy below: choose it with the arrow keys
    ("Szabó Zoltán", "szabo zol"),
    ("Tóth Ödön", "odon"),
    ("Horváth Júlia", "horvath j"),
]
DECOY = "Nagy Erzsébet"  # exists, never registered


def _search(page: Page, text: str) -> None:
    box = page.locator("#player-search")
    box.fill("")
    box.press_sequentially(text, delay=15)


def _register_new_player(page: Page, name: str, method: str = "cash", screenshot=None) -> None:
    page.locator(f'.desk-method input[value="{method}"]').check()
    _search(page, name)
    expect(page.locator("#search-results .search-empty")).to_contain_text(name)
    page.keyboard.press("Enter")
    name_field = page.locator("#id_name")
    expect(name_field).to_be_visible()
    expect(name_field).to_be_focused()
    expect(name_field).to_have_value(name)
    expect(page.locator("#id_method")).to_have_value(method)  # the "paid by" chips carry over
    if screenshot:
        screenshot(page, "desk-new-player")
    name_field.press("Enter")  # submits "Create and register"
    expect(page.locator("#last-registration")).to_contain_text(f"{name} is registered")
    expect(page.locator("#player-search")).to_be_focused()


def _register_existing_player(page: Page, player, query: str, screenshot=None) -> None:
    _search(page, query)
    target = page.locator(f'#search-results [data-player-id="{player.pk}"]')
    expect(target).to_be_visible()
    # Move the highlight to the player with the arrow keys, as the desk does.
    rows = page.locator('#search-results [data-player-id]:not([aria-disabled="true"])')
    ids = [r.get_attribute("data-player-id") for r in rows.all()]
    steps = ids.index(str(player.pk))
    for _ in range(max(steps, 1)):  # ArrowDown at least once; it stops at the last row
        page.keyboard.press("ArrowDown")
    expect(target).to_have_class(re.compile(r"\bis-active\b"))
    expect(target.locator(".search-result-hint")).to_be_visible()  # "Enter Register"
    if screenshot:
        screenshot(page, "desk")
    page.keyboard.press("Enter")
    expect(page.locator("#last-registration")).to_contain_text(f"{player.name} is registered")


@pytest.mark.django_db(transaction=True)
def test_desk_registration_draw_and_seating(
    live_server, page, new_page, login, screenshot, director, tournament
):
    with_password(director)
    existing = [
        (player_create(actor=director, name=name), query) for name, query in EXISTING_PLAYERS
    ]
    player_create(actor=director, name=DECOY)
    url = live_server.url

    login(page, director, PASSWORD)
    page.goto(url + reverse("tourney:desk", args=[tournament.pk]))
    expect(page.locator("#player-search")).to_be_focused()

    # Interleave the two kinds of registration, as a real desk would.
    for new_name, (player, query) in zip(NEW_PLAYERS, existing, strict=True):
        first = new_name == NEW_PLAYERS[0]
        method = "card" if new_name == "Varga Lili" else "cash"
        _register_new_player(
            page, new_name, method=method, screenshot=screenshot if first else None
        )
        last = player.name == EXISTING_PLAYERS[-1][0]
        _register_existing_player(page, player, query, screenshot=screenshot if last else None)

    expect(page.locator("#recent-entries tbody tr")).to_have_count(10)
    expect(page.locator('[data-stat="entries"]')).to_have_text("10")
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 10
    paid_by_card = LedgerEntry.objects.filter(tournament=tournament, method="card")
    assert {row.entry.player.name for row in paid_by_card} == {"Varga Lili"}

    # Console: draw the seats.
    page.get_by_role("link", name="Console", exact=True).click()
    asked = []  # the draw asks first, with the number of players (issue 32)
    page.once("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.locator("#draw-seats").click()
    expect(page.locator("#toasts .toast")).to_contain_text("Seats drawn")
    assert asked == ["Draw the seats of 10 players now? Later registrations get the seats left."]
    chart = page.locator("#seating-chart")
    expect(chart.locator(".table-card")).to_have_count(1)  # rimoc: 10 players sit at one table
    card = chart.locator(".table-card").first
    expect(card.locator(".table-card-count")).to_have_text(re.compile(r"^\s*10\s*/\s*10\s*$"))
    expect(card.locator(".seat:not(.empty)")).to_have_count(10)
    everybody = NEW_PLAYERS + [name for name, _ in EXISTING_PLAYERS]
    for name in everybody:
        expect(card.locator(".seat-name", has_text=name)).to_have_count(1)
    entries = {
        e.player.name: e
        for e in Entry.objects.filter(tournament=tournament).select_related(
            "player", "tournament_table"
        )
    }
    assert {e.tournament_table.number for e in entries.values()} == {1}
    assert sorted(e.seat for e in entries.values()) == list(range(1, 11))
    card_table = card.get_attribute("data-table")
    assert card_table == "1"
    for name, e in entries.items():
        expect(card.locator(f'.seat[data-seat="{e.seat}"] .seat-name')).to_have_text(name)
    page.wait_for_timeout(300)  # let the toast settle for the picture
    screenshot(page, "console")
    display_href = page.get_by_role("link", name="Open display").get_attribute("href")

    # Seat card: the desk's print link, opened without ?print=1 (which calls window.print).
    page.get_by_role("link", name="Desk", exact=True).click()
    kovacs = entries["Kovács Péter"]
    row = page.locator(f'#recent-entries tr[data-entry="{kovacs.pk}"]')
    expect(row).to_contain_text(f"T1 · S{kovacs.seat}")
    href = row.get_by_role("link", name="Card").get_attribute("href")
    assert href.endswith("?print=1")
    page.goto(url + href.removesuffix("?print=1"))
    seat_card = page.locator("#seat-card")
    expect(seat_card).to_contain_text("Kovács Péter")
    boxes = seat_card.locator(".seat-card-seat > div")
    expect(boxes.nth(0).locator("dt")).to_have_text("Table")
    expect(boxes.nth(0).locator("dd")).to_have_text("1")
    expect(boxes.nth(1).locator("dt")).to_have_text("Seat")
    expect(boxes.nth(1).locator("dd")).to_have_text(str(kovacs.seat))
    screenshot(page, "seat-card")
    page.emulate_media(media="print")
    expect(page.locator(".print-toolbar")).to_be_hidden()
    screenshot(page, "seat-card-print")
    page.emulate_media(media="screen")

    # Seating chart page.
    page.goto(url + reverse("tables:seating_chart", args=[tournament.pk]))
    by_name = page.locator("#seats-by-name tbody tr")
    expect(by_name).to_have_count(10)
    for name, e in entries.items():
        cells = by_name.filter(has_text=name).locator("td")
        expect(cells).to_have_text([name, "1", str(e.seat)])
    screenshot(page, "seating-chart")

    # Dealer page on a phone: the big button under the thumb.
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    login(phone, director, PASSWORD)
    phone.goto(url + reverse("tables:dealer", args=[tournament.pk, 1]))
    hand = phone.locator("#hand-finished")
    expect(hand).to_be_visible()
    box = hand.bounding_box()
    assert box["height"] >= 56 and box["width"] >= PHONE["width"] * 0.8
    assert box["y"] + box["height"] <= PHONE["height"], "Hand finished must be on the first screen"
    for name in everybody:
        expect(phone.locator(".table-oval .seat-name", has_text=name)).to_have_count(1)
    screenshot(phone, "dealer-phone", full_page=False)
    phone.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    more = phone.locator(".dealer-more > summary").last  # the page's last part
    more_box = more.bounding_box()
    assert more_box["y"] + more_box["height"] <= hand.bounding_box()["y"], "bar hides content"
    assert hand.bounding_box()["y"] + box["height"] <= PHONE["height"]  # still under the thumb
    screenshot(phone, "dealer-phone-scrolled", full_page=False)

    # Lobby display from its signed link: no sign-in, full HD, find your seat.
    tv = new_page(viewport=TV)
    tv.goto(url + display_href)
    expect(tv.locator(".display-title")).to_have_text(tournament.name)
    expect(tv.locator("#seat-results li")).to_have_count(10)  # everybody, by name
    expect(tv.locator("#find-seat")).to_be_hidden()  # a TV has no keyboard
    screenshot(tv, "display", full_page=False)
    # On a phone the same link searches as you type.
    tv = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    tv.goto(url + display_href)
    tv.locator("#find-seat").press_sequentially("kovacs", delay=20)
    found = tv.locator("#seat-results #seat-found")  # one match: shown big
    expect(found).to_contain_text("Kovács Péter")
    expect(found.locator('[data-field="table"]')).to_have_text("1")
    expect(found.locator('[data-field="seat"]')).to_have_text(str(kovacs.seat))
    screenshot(tv, "display-find-seat", full_page=False)
    tv.locator("#find-seat").fill("nagy")  # a surname shared by a player who is not seated
    tv.locator("#find-seat").dispatch_event("input")
    expect(tv.locator("#seat-results #seat-found")).to_contain_text("Nagy Éva")
    tv.locator("#find-seat").fill("zzz")
    tv.locator("#find-seat").dispatch_event("input")
    expect(tv.locator("#seat-results")).to_contain_text("Nobody called “zzz” is seated.")

    # The audit log shows what happened.
    page.goto(url + reverse("tourney:audit_log"))
    expect(page.locator("#audit-table tbody tr").first).to_be_visible()
    screenshot(page, "audit-log")


@pytest.mark.django_db(transaction=True)
def test_banned_player_cannot_register_and_refusal_shows_a_toast(
    live_server, page, login, screenshot, director, tournament
):
    with_password(director)
    banned = player_create(actor=director, name="Fehér Gábor", nickname="Gabi")
    player_ban(actor=director, player_id=banned.pk, reason="Chip dumping", ends_at=None)
    late = player_create(actor=director, name="Kiss Anna")
    url = live_server.url

    login(page, director, PASSWORD)
    page.goto(url + reverse("tourney:desk", args=[tournament.pk]))

    # The banned player shows as banned and cannot be chosen.
    _search(page, "feher")
    row = page.locator(f'#search-results [data-player-id="{banned.pk}"]')
    expect(row).to_be_visible()
    expect(row).to_have_attribute("aria-disabled", "true")
    expect(row.locator(".badge.bad")).to_contain_text("Banned")
    expect(row.locator(".badge.bad")).to_contain_text("Chip dumping")
    screenshot(page, "desk-banned")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("Enter")
    row.click(force=True)  # aria-disabled: Playwright would refuse a plain click
    page.wait_for_timeout(300)
    expect(page.locator("#last-registration")).to_have_count(0)
    expect(page.locator("#new-player")).not_to_have_attribute("open", "")  # no duplicate player
    assert not Entry.objects.filter(tournament=tournament, player=banned).exists()

    # Refused by the server: the player was banned after the desk found her. The desk shows
    # the service's reason as an error toast.
    _search(page, "kiss")
    row = page.locator(f'#search-results [data-player-id="{late.pk}"]')
    expect(row).to_have_class(re.compile(r"\bis-active\b"))
    player_ban(actor=director, player_id=late.pk, reason="Unpaid debt", ends_at=None)
    page.keyboard.press("Enter")
    toast = page.locator("#toasts .toast.bad")
    expect(toast).to_be_visible()
    expect(toast).to_have_attribute("role", "alert")
    expect(toast).to_contain_text("Kiss Anna is banned until further notice: Unpaid debt")
    expect(page.locator("#last-registration")).to_have_count(0)
    screenshot(page, "desk-refused")
    assert not Entry.objects.filter(tournament=tournament).exists()


@pytest.mark.django_db(transaction=True)
def test_the_desk_toast_covers_not_the_page_title(
    live_server, new_page, login, director, tournament
):
    """The desk's toast sat over "Registration desk" for its six seconds (evening production run):
    the stack avoids the page's title as it avoids controls."""
    with_password(director)
    page = new_page(viewport={"width": 1366, "height": 768})
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:desk", args=[tournament.pk]))
    _register_new_player(page, "Horváth Árpád")  # the result card's buttons on the right
    page.evaluate(
        """() => { for (const n of ['Kovács Péter', 'Nagy Anna', 'Tóth Béla'])
           Tourney.toast(n + ' registered', {kind: 'ok', onUndo: () => Promise.resolve()}); }"""
    )
    title = page.locator(".page-title").first.bounding_box()
    for toast in page.locator("#toasts .toast:visible").all():
        box = toast.bounding_box()
        apart = (
            box["x"] >= title["x"] + title["width"] or title["x"] >= box["x"] + box["width"]
            or box["y"] >= title["y"] + title["height"] or title["y"] >= box["y"] + box["height"]
        )  # fmt: skip
        assert apart, (box, title)


@pytest.mark.django_db(transaction=True)
def test_a_waiting_list_registration_reads_whole_beside_its_buttons(
    live_server, page, login, director, room, structure
):
    """The evening's desk at 1366x768 in Hungarian: the banner of a registration that went to
    the waiting list wrote "Automatikusan helyet kap, amint felszabadul egy szék. · 76. nevezés"
    on one line (the paragraph was .num, which never wraps), 555 px in a 457 px column, under
    the "Ülőhelykártya nyomtatása" button."""
    from tests.conftest import friday_deepstack
    from tests.e2e.geometry import assert_geometry
    from tourney.registration.usecases import entry_register

    tournament = friday_deepstack(director, structure, room, max_entries=1)
    first = player_create(actor=director, name="Gyöngyösi-Szentmiklóssy Bernadett")
    entry_register(actor=director, tournament_id=tournament.pk, player_id=first.pk)
    player_create(actor=director, name="Mészáros-Szentgyörgyi Szilveszter")
    page.set_viewport_size({"width": 1366, "height": 768})
    login(page, with_password(director), PASSWORD)
    url = live_server.url + reverse("tourney:desk", args=[tournament.pk])
    page.context.add_cookies([{"name": "django_language", "value": "hu", "url": url}])
    page.goto(url)
    page.locator("#player-search").press_sequentially("meszaros", delay=15)
    expect(page.locator("#search-results [role=option]")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator("#last-registration")).to_contain_text("várólistára került")
    assert_geometry(page, "desk-waiting-list-registration-1366-hu")
