"""Money with a safety net in a real browser (issue 13 item 10): the desk's refund asks for the
method with the amount written as the venue writes it, and is undone; a registered player found
by search offers his seat card, receipt and refund; the console's Pay asks for the method and
is undone."""

from django.urls import reverse
from playwright.sync_api import expect

from tests.conftest import numbered_players, seat_players
from tests.e2e.desk_steps import desk_register_new_player, desk_search, sign_in
from tests.factories import bust, start
from tourney.models import Entry, LedgerEntry


def test_a_refund_is_confirmed_with_amount_and_method_then_undone(
    page, live_server, login, director, tournament, screenshot
):
    sign_in(page, login, director)
    desk_register_new_player(page, live_server.url, tournament.pk, "Kovács Ádám")
    # Found again by search: the registered player's seat card, receipt and refund.
    desk_search(page, "kovacs")
    strip = page.locator("#search-results .desk-entry-strip")
    expect(strip).to_contain_text("Entry #1")
    expect(strip.locator("[data-entry-card]")).to_be_visible()
    expect(strip.locator("[data-entry-receipt]")).to_be_visible()
    page.keyboard.press("Enter")  # to the strip's first control
    expect(strip.locator("[data-entry-card]")).to_be_focused()
    strip.locator(".btn-refund").click()
    dialog = page.locator("#refund-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#refund-amount")).to_have_text("12,000\u00a0Ft")
    expect(dialog.locator('input[value="cash"]')).to_be_checked()
    expect(page.locator("#refund-confirm")).to_be_focused()
    screenshot(page, "desk-refund-confirm")
    page.keyboard.press("Escape")  # changes nothing
    expect(dialog).to_be_hidden()
    assert Entry.objects.get(tournament=tournament).status == "active"

    page.locator("#recent-entries .btn-refund").click()
    dialog.locator('input[value="card"]').check()
    page.keyboard.press("Enter")
    expect(page.locator("#last-refund")).to_contain_text("Kovács Ádám refunded: 12,000\u00a0Ft")
    expect(page.locator("#toasts")).to_contain_text("Refund: 12,000\u00a0Ft (card) to Kovács Ádám.")
    refund = LedgerEntry.objects.filter(amount__lt=0)
    assert {r.method for r in refund} == {"card"}
    screenshot(page, "desk-refunded")

    page.locator("#last-refund [data-undo-refund]").click()
    expect(page.locator("#last-refund")).to_have_count(0)
    expect(page.locator("#recent-entries tr[data-entry] .btn-refund")).to_be_visible()
    assert Entry.objects.get(tournament=tournament).status == "active"
    assert sum(LedgerEntry.objects.values_list("amount", flat=True)) == 12_000


def test_the_console_pays_a_prize_by_card_and_undoes_it(
    page, live_server, login, director, api, tournament, screenshot
):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    for name in ("P3", "P2", "P1"):
        bust(api, tournament, (ids[name], None))
    sign_in(page, login, director)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    row = page.locator(f'#payouts-finished li[data-entry="{ids["P0"]}"]')
    row.locator("[data-pay-prize]").click()
    dialog = page.locator("#pay-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("#pay-name")).to_have_text("P0")
    expect(dialog.locator("#pay-place")).to_have_text("Place 1")  # not "#1", an entry's number
    expect(dialog.locator("#pay-amount")).to_contain_text("Ft")
    dialog.locator('input[value="card"]').check()
    screenshot(page, "console-pay-confirm")
    page.locator("#pay-confirm").click()
    toast = page.locator("#toasts .toast", has_text="Prize paid")
    expect(toast).to_contain_text("Ft")
    expect(row).to_contain_text("Paid")
    paid = LedgerEntry.objects.get(kind="payout", entry_id=ids["P0"])
    assert paid.method == "card" and paid.amount < 0
    toast.locator(".toast-undo").click()
    expect(row.locator("[data-pay-prize]")).to_be_visible()
    assert sum(LedgerEntry.objects.filter(kind="payout").values_list("amount", flat=True)) == 0
    # And from the list itself: pay, then the row's own Undo.
    row.locator("[data-pay-prize]").click()
    page.locator("#pay-confirm").click()
    expect(row.locator("[data-pay-undo]")).to_be_visible()
    row.locator("[data-pay-undo]").click()
    expect(page.locator("#toasts")).to_contain_text("back at the cage")
    expect(row.locator("[data-pay-prize]")).to_be_visible()
