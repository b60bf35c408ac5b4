"""A rebuy in a real browser: a player registered at the desk busts at the console, the bust-out
toast's "Rebuy" opens the desk with him found, the desk takes the rebuy by keyboard (he is back
in his seat), the receipt prints on A4 and on the 80 mm roll, and the toast's Undo refunds it.
Screenshots go to test-artifacts/screenshots/ (rebuy-*.png)."""

import random

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from tables.seating.usecases import seats_draw
from tests.conftest import friday_deepstack
from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.desk_steps import desk_register_new_player
from tourney.domain.purchases import MoneySettings
from tourney.models import ChipPurchase, Entry, LedgerEntry
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register

OTHERS = ["Kiss Anna", "Lakatos Bea", "Szűcs Gábor", "Major Ilona", "Bognár Ede"]


def _rebuy_tournament(director, structure, room):
    return friday_deepstack(
        director,
        structure,
        room,
        name="Rebuy Friday",
        money=MoneySettings(
            rebuy_until_level=4,
            rebuy_condition="busted",
            rebuy_buy_in=10_000,
            rebuy_fee=1_000,
            rebuy_chips=40_000,
            addon_level=4,
            addon_buy_in=8_000,
            addon_fee=2_000,
            addon_chips=60_000,
        ),
    )


@pytest.mark.django_db(transaction=True)
def test_register_bust_rebuy_at_the_desk_and_print_the_receipt(
    live_server, page, login, screenshot, director, structure, room
):
    with_password(director)
    tournament = _rebuy_tournament(director, structure, room)
    for name in OTHERS:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    url = live_server.url
    login(page, director, PASSWORD)

    # The desk registers Fehér Tamás by keyboard (created in place).
    desk_register_new_player(page, url, tournament.pk, "Fehér Tamás")
    entry = Entry.objects.get(tournament=tournament, player__name="Fehér Tamás")

    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(3))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    entry.refresh_from_db()
    seat = (entry.tournament_table_id, entry.seat)

    # The console busts him; the toast offers the rebuy.
    page.goto(url + reverse("tourney:console", args=[tournament.pk]))
    expect(page.locator("body")).to_have_attribute("data-floor-stream", "online")
    page.keyboard.press("b")
    expect(page.locator("#bustout-search")).to_be_focused()
    page.locator("#bustout-search").press_sequentially("Fehér", delay=15)
    expect(page.locator("#bustout-results [data-pick-entry]")).to_have_count(1)
    page.keyboard.press("Enter")
    expect(page.locator("#bustout-picked li")).to_have_count(1)
    page.locator("#bustout-submit").click()
    toast = page.locator("#toasts .toast", has_text="Fehér Tamás is out in place 6")
    expect(toast).to_be_visible()
    expect(toast.locator(".toast-link")).to_have_text("Rebuy")
    screenshot(page, "rebuy-console-toast", full_page=False)
    toast.locator(".toast-link").click()

    # The desk opens with him found and the rebuy focused: Enter takes it (cash).
    page.wait_for_url(f"**/desk/?entry={entry.pk}")
    strip = page.locator(f'.desk-purchase[data-entry-id="{entry.pk}"]')
    rebuy = strip.locator('button[data-buy="rebuy"]')
    expect(rebuy).to_be_focused()
    expect(rebuy).to_contain_text("Rebuy (back in)")
    expect(rebuy).to_contain_text("11,000\xa0Ft")
    expect(rebuy).to_contain_text("40,000 chips")
    # The add-on is not open yet, and the desk says why.
    expect(strip.locator(".desk-purchase-why")).to_contain_text("break after level 4")
    screenshot(page, "rebuy-desk-offer")
    page.keyboard.press("r")
    panel = page.locator("#last-purchase")
    expect(panel).to_contain_text("Rebuy for Fehér Tamás: 40,000 chips")
    expect(page.locator("#toasts .toast", has_text="Rebuy for Fehér Tamás")).to_be_visible()
    entry.refresh_from_db()
    assert (entry.status, entry.place) == ("active", None)
    assert (entry.tournament_table_id, entry.seat) == seat  # back in his own seat
    purchase = ChipPurchase.objects.get(entry=entry)
    assert purchase.revives_id is not None
    screenshot(page, "rebuy-desk-done")

    # The receipt, as the cage prints it (opened without ?print=1, which calls window.print).
    href = page.locator("#print-receipt").get_attribute("href")
    receipt = href.split("?")[0]
    page.goto(url + receipt)
    expect(page.locator("#receipt-title")).to_have_text("Rebuy")
    expect(page.locator("#receipt-number")).to_have_text(f"{tournament.pk}-0006-B1")
    expect(page.locator("#receipt-total")).to_have_text("11,000\xa0Ft")
    screenshot(page, "rebuy-receipt-a4")
    page.goto(url + receipt + "?paper=80mm")
    expect(page.locator("body")).to_have_class("print-doc receipt-80mm")
    screenshot(page, "rebuy-receipt-80mm")

    # A mistake: the toast's Undo refunds it and he is out again.
    page.goto(url + reverse("tourney:desk", args=[tournament.pk]) + f"?purchase={purchase.pk}")
    page.evaluate(
        "sessionStorage.setItem('tourney:desk-purchase-toast', JSON.stringify("
        f"{{message: 'Rebuy for Fehér Tamás', undoUrl: '/api/v1/tournaments/{tournament.pk}"
        f"/chip-purchases/{purchase.pk}/undo'}}))"
    )
    page.reload()
    page.locator("#toasts .toast", has_text="Rebuy for Fehér Tamás").locator(".toast-undo").click()
    expect(page.locator("#last-purchase")).to_have_attribute("data-undone", "1")
    expect(page.locator("#last-purchase")).to_contain_text("undone: refund 11,000\xa0Ft")
    entry.refresh_from_db()
    assert entry.status == "eliminated"
    refunds = LedgerEntry.objects.filter(purchase=purchase, amount__lt=0)
    assert sorted(r.amount for r in refunds) == [-10_000, -1_000]
    screenshot(page, "rebuy-desk-undone")
