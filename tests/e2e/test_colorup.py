"""The chip race in a real browser (docs/rules.md §8): at Rimóc's break 2 (100s and 500s go, D =
1,000) a floor person on a phone opens table 1's color-up from the dealer page's banner,
enters the odd chips with the steppers, deals virtual cards, shows them and confirms; the
director's console card, never reloaded, turns table 1 done. Then table 2 rounds its stacks
up on the same phone, and the lobby display says every table is done.

Screenshots: test-artifacts/screenshots/colorup-*.png.
"""

import random

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from clocks.models import ColorUp
from tables.seating.usecases import seats_draw
from tests.conftest import make_staff
from tests.e2e.conftest import DESKTOP, PASSWORD, PHONE, TV, with_password
from tourney.models import Entry, Tournament
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Kovács Péter", "Nagy Éva", "Szabó Zoltán", "Tóth Ödön", "Papp Réka", "Horváth Júlia",
    "Varga Lili", "Molnár Dávid", "Balogh Máté", "Fekete Bence", "Kiss Anna", "Farkas Gergő",
]  # fmt: skip
BREAK_2 = 9  # L1-L4, break 1, L5-L8, break 2


def _at_break_2(director, tournament, names=NAMES) -> list[int]:
    """`names` seated, the clock started and at Rimóc's break 2; table 1's seats taken."""
    for name in names:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(5))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    clock_operate(
        actor=director, tournament_id=tournament.pk, operation="jump", period_index=BREAK_2
    )
    return list(
        Entry.objects.filter(tournament=tournament, tournament_table__number=1)
        .order_by("seat")
        .values_list("seat", flat=True)
    )


def test_a_chip_race_on_a_phone_and_the_console_follows(
    live_server, new_page, login, screenshot, director, tournament
):
    seats = _at_break_2(director, tournament)

    console = new_page(viewport=DESKTOP)
    login(console, with_password(director), PASSWORD)
    console.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    expect(console.locator("body")).to_have_attribute("data-floor-stream", "online")
    console.evaluate("window.__colorupMarker = true")
    card = console.locator("#colorup-card")
    expect(card).to_contain_text("Color-up: remove 100 and 500 chips")
    expect(card.locator("li.colorup-table[data-table='1']")).to_have_attribute("data-state", "open")
    screenshot(console, "colorup-console-open", full_page=False)

    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    login(phone, with_password(make_staff("floor", "floor")), PASSWORD)
    phone.goto(live_server.url + reverse("tables:dealer", args=[tournament.pk, 1]))
    banner = phone.locator("#dealer-colorup-banner")
    expect(banner).to_contain_text("race off the 100 and 500 chips")
    screenshot(phone, "colorup-dealer-banner", full_page=False)
    banner.click()
    expect(phone.locator("#colorup-form")).to_be_visible()

    # Odd chips, counted in 100s (a 500 counts 5): 3, 4 and 5 at the first three seats.
    for seat, taps in zip(seats[:3], (3, 4, 5), strict=True):
        plus = phone.locator(f"li.colorup-seat[data-seat='{seat}'] .stepper [data-step='1']")
        for _ in range(taps):
            plus.tap()
        expect(phone.locator(f"input[name='odd_{seat}']")).to_have_value(str(taps))
    plan = phone.locator("#colorup-plan")
    expect(plan).to_contain_text("12 odd chips of 100")
    expect(plan).to_contain_text("1 × 1,000 to race")
    screenshot(phone, "colorup-phone-counts")

    # The real cards could be typed instead: a field for each seat dealt, then back.
    phone.locator("#colorup-enter-cards").tap()
    expect(phone.locator("li.colorup-seat .colorup-cards:visible")).to_have_count(3)
    expect(phone.locator(f"input[name='cards_{seats[2]}']")).to_have_attribute(
        "placeholder", "5 cards, e.g. Kh 9d"
    )
    screenshot(phone, "colorup-phone-cards")
    phone.locator("[data-colorup-entry='virtual']:visible").tap()
    expect(phone.locator("#colorup-deal")).to_be_visible()

    phone.locator("#colorup-deal").tap()
    result = phone.locator("#colorup-result")
    expect(result).to_have_attribute("data-status", "open")
    expect(result.locator("li.colorup-result-seat[data-outcome='win']")).to_have_count(1)
    dealt = result.locator(".colorup-dealt .card-code")
    expect(dealt).to_have_count(12)
    expect(card.locator("li.colorup-table[data-table='1']")).to_have_attribute(
        "data-state", "dealt"
    )
    phone.evaluate("document.querySelectorAll('#toasts .toast-close').forEach(b => b.click())")
    screenshot(phone, "colorup-phone-dealt")

    phone.locator("#colorup-confirm").tap()
    expect(result).to_have_attribute("data-status", "done")
    expect(phone.locator("#colorup-undo")).to_be_visible()
    screenshot(phone, "colorup-phone-done")
    row = ColorUp.objects.get(tournament=tournament)
    assert row.status == "done" and row.chips_change == 1_000 - 1_200
    assert Tournament.objects.get(pk=tournament.pk).chips_color_up == -200

    expect(card.locator("li.colorup-table[data-table='1']")).to_have_attribute("data-state", "done")
    expect(card).to_have_attribute("data-all-done", "false")
    assert console.evaluate("window.__colorupMarker") is True, "the console was reloaded"

    # Table 2 rounds its stacks up instead (the method is chosen on the page): the card turns
    # green and the display says every table is done.
    phone.goto(live_server.url + reverse("clocks:colorup", args=[tournament.pk, 2]))
    phone.locator("input[name='method'][value='round_up']").check()
    stacks = phone.locator("li.colorup-seat input[name^='stack_']")
    stacks.nth(0).fill("41 300")
    stacks.nth(1).fill("38700")
    expect(phone.locator("#colorup-plan")).to_contain_text("Chips in play: +1,000")
    screenshot(phone, "colorup-phone-round-up")
    phone.locator("#colorup-confirm-stacks").tap()
    expect(phone.locator("#colorup-result")).to_have_attribute("data-status", "done")
    assert Tournament.objects.get(pk=tournament.pk).chips_color_up == -200 + 1_000
    expect(card).to_have_attribute("data-all-done", "true")
    expect(card).to_contain_text("Every table is done")
    screenshot(console, "colorup-console-done", full_page=False)

    tv = new_page(viewport=TV)
    tv.goto(live_server.url + reverse("clocks:display", args=[display_token(tournament.pk)]))
    notice = tv.locator("[data-field='colorup-box']")
    expect(notice).to_contain_text("Chip race")
    expect(notice).to_contain_text("every table")
    screenshot(tv, "colorup-display-done", full_page=False)


def test_a_dealt_race_fits_a_phone_in_hungarian(live_server, new_page, login, director, tournament):
    """The third evening production run: on a 390 px phone in Hungarian the dealt race's badge
    "Mutasd meg a játékosoknak, majd erősítsd meg" (one line, never wrapped) ran past the
    card and the window's edge: the page was 417 px wide, the phone showed "…erősítsd me"."""
    from tests.e2e.geometry import assert_geometry

    seat = _at_break_2(director, tournament)[0]
    phone = new_page(viewport=PHONE, has_touch=True)  # not zoomed out: a wider page is found
    phone.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    login(phone, with_password(make_staff("floor", "floor")), PASSWORD)
    phone.goto(live_server.url + reverse("clocks:colorup", args=[tournament.pk, 1]))
    plus = phone.locator(f"li.colorup-seat[data-seat='{seat}'] .stepper [data-step='1']")
    for _ in range(3):
        plus.tap()
    phone.locator("#colorup-deal").tap()
    result = phone.locator("#colorup-result")
    expect(result).to_have_attribute("data-status", "open")
    expect(result.locator(".badge.warn")).to_have_text(
        "Mutasd meg a játékosoknak, majd erősítsd meg"
    )
    phone.evaluate("document.querySelectorAll('#toasts .toast-close').forEach(b => b.click())")
    expect(phone.locator("#toasts .toast")).to_have_count(0)
    assert_geometry(phone, "colorup-phone-dealt-hu", full_page=True)


LONG_NAMES = [
    "Hódmezővásárhelyi Dorottya Réka", "Szentgyörgyvölgyi Örs Gellért",
    "Gyöngyösi-Szentmiklóssy Bernadett", "Török-Szentmiklósi Enikő Krisztina",
    "Bajcsy-Zsilinszky Ildikó Erzsébet", "Hajdú-Szoboszlay Zsófia Boglárka",
    "Mészáros-Szentgyörgyi Szilveszter", "Vörösmarty Enikő Krisztina", "Zrínyi-Frangepán Örs",
]  # fmt: skip


def test_long_names_on_the_color_up_page_are_not_split_mid_word(
    live_server, new_page, login, director, tournament
):
    """The evening's play, table 3's color-up on a 390 px phone in Hungarian: beside the +/-
    stepper the names broke inside words ("Hódmezővásárh|elyi", "Szentgyörgyvölg|yi"). A name
    now has the row's width, the stepper under it beside "no other chips"."""
    from tests.e2e.dealer_link_checks import SPLIT_WORDS_IN
    from tests.e2e.geometry import assert_geometry

    seats = _at_break_2(director, tournament, names=LONG_NAMES)
    phone = new_page(viewport=PHONE, has_touch=True)
    phone.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    login(phone, with_password(make_staff("floor", "floor")), PASSWORD)
    phone.goto(live_server.url + reverse("clocks:colorup", args=[tournament.pk, 1]))
    expect(phone.locator("li.colorup-seat")).to_have_count(len(seats))
    for method in ("race", "round_up"):
        phone.locator(f"#colorup-form input[name=method][value={method}]").check()
        assert phone.evaluate(SPLIT_WORDS_IN, ".colorup-seat-name") == [], method
        assert_geometry(phone, f"colorup-phone-long-names-{method}-hu", full_page=True)
