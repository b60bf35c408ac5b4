"""The player's page on a phone, as the room sees it: receipt times in the room's clock (not the
phone's time zone), and a cancelled tournament said plainly. Screenshots:
test-artifacts/screenshots/player-receipt-*.png, player-cancelled-*.png.
"""

import re

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.geometry import assert_geometry
from tests.e2e.player_page_steps import arrange_players, open_online, phone_context
from tourney.cancelling.usecases import cancel_settlement_pay, tournament_cancel
from tourney.models import Entry, LedgerEntry
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register, entry_unregister

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


def test_receipt_times_are_the_rooms_not_the_phones(
    live_server, browser, director, tournament, settings
):
    """A visitor's phone still on Tokyo time (7 or 8 hours ahead of Budapest) shows the
    receipt's time as printed on his paper receipt and shown at the desk."""
    assert settings.TIME_ZONE == "Europe/Budapest"
    player = player_create(actor=director, name="Kovács Ádám")
    entry = entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    row = LedgerEntry.objects.filter(entry=entry).order_by("at").first()
    room_time = timezone.localtime(row.at).strftime("%H:%M")  # the paper receipt's H:i
    context = phone_context(browser, "hu-HU", timezone_id="Asia/Tokyo")
    try:
        page = open_online(context, live_server.url, tournament, entry.pk)
        phone_time = page.evaluate(
            "(ms) => { const d = new Date(ms); return String(d.getHours()).padStart(2, '0') +"
            " ':' + String(d.getMinutes()).padStart(2, '0'); }",
            int(row.at.timestamp() * 1000),
        )
        assert phone_time != room_time  # the phone is in another zone
        receipts = page.locator('[data-field="receipts"]')
        expect(receipts).to_contain_text(f"{row.receipt_number} · {room_time} ·")
        expect(receipts).not_to_contain_text(phone_time)
        assert_geometry(page, "player-receipt-hu-tokyo", full_page=True)
    finally:
        context.close()


CANCELLED = {
    "en-GB": ("This tournament was cancelled", "back at the registration desk", "Paid back"),
    "hu-HU": ("Ezt a versenyt törölték", "jár vissza", "Visszafizetve"),
    "cs-CZ": ("Tento turnaj byl zrušen", "dostanete zpět", "Vyplaceno zpět"),
}
REASON = "Áramszünet a teremben: a verseny nem folytatható"


@pytest.mark.parametrize("locale", list(CANCELLED))
def test_a_cancelled_tournament_says_so_and_what_became_of_the_buy_in(
    live_server, browser, director, tournament, locale
):
    """Cancelled while running with every buy-in refunded (docs/rules.md §18): the open page
    turns, from the event stream, into why and what he gets back at the desk instead of a level
    and a countdown; once the cage has paid him, it says so. A player whose entry the desk
    refunded before gets nothing more and is told so without figures."""
    title, back, settled = CANCELLED[locale]
    early = player_create(actor=director, name="Gyöngyösi-Szentmiklóssy Bernadett")
    gone = entry_register(actor=director, tournament_id=tournament.pk, player_id=early.pk)
    entry_unregister(actor=director, tournament_id=tournament.pk, entry_id=gone.pk)
    arrange_players(director, tournament, count=10)
    playing = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    context = phone_context(browser, locale)
    try:
        page = open_online(context, live_server.url, tournament, playing.pk)
        expect(page.locator('[data-section="clock"]')).to_be_visible()
        tournament_cancel(
            actor=director, tournament_id=tournament.pk, reason=REASON, settlement="refund"
        )
        card = page.locator('[data-section="cancelled"]')
        expect(card).to_be_visible()
        expect(card).to_contain_text(title)
        expect(card).to_contain_text(REASON)
        expect(card.locator('[data-field="cancelled-money"]')).to_contain_text(back)
        expect(card).to_contain_text(re.compile(r"12[,\xa0 ]000"))  # what he gets, localized
        for gone_section in ("clock", "stats", "payouts", "seat"):
            expect(page.locator(f'[data-section="{gone_section}"]')).to_be_hidden()
        lang = locale[:2]
        assert_geometry(page, f"player-cancelled-{lang}", full_page=True)
        cancel_settlement_pay(actor=director, tournament_id=tournament.pk, entry_id=playing.pk)
        expect(card.locator('[data-field="cancelled-money"]')).to_contain_text(settled)
        other = open_online(context, live_server.url, tournament, gone.pk)
        expect(other.locator('[data-section="cancelled"]')).to_contain_text(REASON)
        expect(other.locator('[data-field="cancelled-money"]')).to_be_hidden()
        expect(other.locator('[data-section="clock"]')).to_be_hidden()
        assert_geometry(other, f"player-cancelled-refunded-{lang}", full_page=True)
    finally:
        context.close()
