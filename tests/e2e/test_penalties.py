"""Penalties in a real browser (docs/rules.md §10): the director gives a 2-round penalty from
the console by "table seat", the dealer reports hands on a phone (a misdeal among them), the
console's "Sitting out" panel counts down live from the event stream (never reloaded), and the
penalty ends with the hand that completes it.

Screenshots: test-artifacts/screenshots/penalty-*.png.
"""

import random

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clocks.clock.usecases import clock_operate
from tables.seating.usecases import seats_draw
from tests.conftest import make_staff
from tests.e2e.conftest import DESKTOP, PASSWORD, PHONE, with_password
from tests.e2e.penalty_steps import penalty_search
from tourney.models import Entry, Penalty
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ["Kovács Péter", "Nagy Éva", "Szabó Zoltán", "Tóth Ödön"]
NO_RELOAD = "window.__penaltyTestMarker"


def _hands_left(console: Page) -> str:
    return console.locator("#sitting-out li.sitting-out").first.get_attribute("data-hands-left")


def _close_toasts(page: Page) -> None:
    page.evaluate("document.querySelectorAll('#toasts .toast-close').forEach(b => b.click())")
    expect(page.locator("#toasts .toast")).to_have_count(0)


def _report_hand(phone: Page, hands_before: int) -> None:
    phone.locator("#hand-finished").click()
    expect(phone.locator(".dealer-header .page-subtitle")).to_contain_text(
        f"{hands_before + 1} hand"
    )


def test_a_two_round_penalty_counts_down_on_the_console_and_ends(
    live_server, new_page, login, director, tournament, screenshot
):
    for name in NAMES:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(5))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    offender = Entry.objects.select_related("player", "tournament_table").get(
        player__name="Szabó Zoltán"
    )
    table, seat = offender.tournament_table.number, offender.seat

    console = new_page(viewport=DESKTOP)
    login(console, with_password(director), PASSWORD)
    console.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    expect(console.locator("body")).to_have_attribute("data-floor-stream", "online")
    console.evaluate(f"{NO_RELOAD} = true")
    expect(console.locator("#penalties-panel")).to_contain_text("Nobody is sitting out")

    # The penalty, found by "table seat" like the quick bust-out.
    penalty_search(console, f"{table} {seat}")
    console.locator(f'#penalty-results [data-penalty-entry="{offender.pk}"]').click()
    expect(console.locator("#penalty-picked-name")).to_have_text("Szabó Zoltán")
    expect(console.locator("#penalty-history")).to_contain_text("No earlier penalties")
    console.locator('input[name="kind"][value="missed_rounds"]').check()
    console.locator("#penalty-count").fill("2")
    expect(console.locator("#penalty-preview")).to_have_text("2 × 4 players = 8 hands")
    console.locator("#penalty-reason").fill("Abusive language")
    screenshot(console, "penalty-console-form")
    console.locator("#penalty-submit").click()
    expect(console.locator("#toasts .toast").first).to_contain_text("sits out 8 hands")
    row = console.locator("#sitting-out li.sitting-out")
    expect(row).to_have_count(1)
    expect(row).to_contain_text("8 hands left")
    expect(row).to_contain_text("starts after this hand")
    expect(row).to_contain_text(f"T{table} · S{seat}")
    expect(row).to_contain_text("until about")
    penalty = Penalty.objects.get()
    assert (penalty.kind, penalty.hands) == ("missed_rounds", 8)

    # The dealer's phone: the seat is marked, hands reported one by one.
    floor = with_password(make_staff("floor", "floor"))
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    login(phone, floor, PASSWORD)
    phone.goto(live_server.url + reverse("tables:dealer", args=[tournament.pk, table]))
    expect(phone.locator(f'.seat.penalty[data-seat="{seat}"]')).to_be_visible()
    expect(phone.locator("#dealer-penalties")).to_contain_text(f"Seat {seat}")
    screenshot(phone, "penalty-dealer-phone")

    _report_hand(phone, 0)  # the hand in play when it was given: the penalty starts now
    expect(row).not_to_contain_text("starts after this hand")
    expect(row).to_contain_text("8 hands left")
    _report_hand(phone, 1)
    expect(row).to_contain_text("7 hands left")
    # A misdeal and its redeal are one hand.
    phone.locator("#misdeal-open").click()
    phone.locator("#misdeal-submit").click()
    expect(phone.locator("#toasts")).to_contain_text("Misdeal recorded")
    expect(row).to_contain_text("7 hands left")
    _report_hand(phone, 2)
    expect(row).to_contain_text("6 hands left")
    expect(phone.locator(f'.seat.penalty[data-seat="{seat}"]')).to_contain_text("6 left")
    screenshot(console, "penalty-console-counting")
    for played in range(3, 8):
        _report_hand(phone, played)
        expect(console.locator("#sitting-out li.sitting-out")).to_have_attribute(
            "data-hands-left", str(8 - played)
        )
    assert _hands_left(console) == "1"
    _report_hand(phone, 8)  # the last hand: the penalty is over
    expect(console.locator("#penalties-panel")).to_contain_text("Nobody is sitting out")
    expect(console.locator("#penalties-panel .penalty-log")).to_contain_text("served")
    expect(phone.locator(".seat.penalty")).to_have_count(0)
    assert console.evaluate(NO_RELOAD) is True, "the console was reloaded"
    penalty.refresh_from_db()
    assert penalty.served_at is not None
    console.evaluate("document.querySelectorAll('#toasts .toast-close').forEach(b => b.click())")
    screenshot(console, "penalty-console-served")

    # A warning for a seat from the dealer page (the floor's phone). The hands' toasts sit over
    # the phone's lower edge (the pointer resting on one holds it there, as a person's finger
    # would): the floor closes them before reaching the seats below (CI: clicks that never
    # landed, so the history's and the form's requests never came).
    _close_toasts(phone)
    phone.locator("#dealer-penalty summary").click()
    other = Entry.objects.select_related("player").get(player__name="Nagy Éva")
    # The form loads when the section opens; the history when a seat is chosen (each a request:
    # waited for, not raced, on a busy machine).
    expect(phone.locator("#penalty-form")).to_be_visible()
    with phone.expect_response(lambda r: "/history/" in r.url):
        phone.locator(f'label[for="penalty-seat-{other.seat}"]').click()
    expect(phone.locator("#penalty-history")).to_contain_text("No earlier penalties")
    phone.locator('input[name="kind"][value="warning"]').check()
    phone.locator("#penalty-reason").fill("Slow play")
    screenshot(phone, "penalty-dealer-seat-form")
    _close_toasts(phone)
    with phone.expect_response(lambda r: "/give/" in r.url):
        phone.locator("#penalty-submit").click()
    expect(phone.locator("#toasts")).to_contain_text("Warning recorded for Nagy Éva")
    expect(console.locator("#penalties-panel .penalty-log")).to_contain_text("Nagy Éva")
