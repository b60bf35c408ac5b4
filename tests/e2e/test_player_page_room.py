"""The player's page on a phone, as the room sees it: receipt times in the room's clock (not the
phone's time zone), and a cancelled tournament said plainly. Screenshots:
test-artifacts/screenshots/player-receipt-*.png, player-cancelled-*.png.
"""

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from tests.e2e.geometry import assert_geometry
from tests.e2e.test_player_page import _open_online, _phone
from tourney.models import LedgerEntry
from tourney.services.entries import entry_register
from tourney.services.players import player_create

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
    context = _phone(browser, "hu-HU", timezone_id="Asia/Tokyo")
    try:
        page = _open_online(context, live_server.url, tournament, entry.pk)
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
