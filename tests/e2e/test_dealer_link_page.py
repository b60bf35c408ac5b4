"""A table's dealer link on a phone (issue 15 part 2): no login; tap a seat, Bust-out, and
the player is out; the page passes the geometry check; once the console revokes the link, the
page says so and its buttons stop. Screenshots: test-artifacts/screenshots/dealer-link-*.png.
"""

import pytest
from playwright.sync_api import expect

from clocks.services.clock import clock_operate
from tables.dealer_links.links import dealer_token
from tables.dealer_links.usecases import dealer_link_revoke
from tables.models import TournamentTable
from tests.conftest import numbered_players, seat_players
from tests.e2e.conftest import PHONE
from tests.e2e.geometry import assert_geometry
from tourney.models import AuditEntry, Entry

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


def test_a_dealer_busts_a_player_from_the_link_then_the_link_is_revoked(
    live_server, new_page, api, director, tournament
):
    seat_players(api, tournament, numbered_players(12))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    number = TournamentTable.objects.filter(tournament=tournament, status="open").first().number
    victim = (
        Entry.objects.filter(tournament=tournament, tournament_table__number=number)
        .select_related("player")
        .order_by("seat")
        .first()
    )
    page = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(f"{live_server.url}/dealer/{dealer_token(tournament.pk, number, 0)}/")
    page.wait_for_function("() => document.body.dataset.stream === 'online'")
    assert_geometry(page, "dealer-link-table", full_page=True)
    page.locator(f'.dl-seat[data-seat="{victim.seat}"]').click()
    page.locator('[data-action="bust"]').click()
    expect(page.locator('[data-field="message"]')).to_be_visible()
    expect(page.locator(f'.dl-seat[data-seat="{victim.seat}"]')).to_be_disabled()
    victim.refresh_from_db()
    assert victim.status == Entry.Status.ELIMINATED
    assert AuditEntry.objects.filter(actor_name=f"dealer link of table {number}").exists()

    # the clock called on the next seat, then the player acted in time
    caller = page.locator(".dl-seat:not([disabled])").first
    caller.click()
    page.locator('[data-action="clock"]').click()
    expect(page.locator('[data-field="call"]')).to_be_visible()
    assert_geometry(page, "dealer-link-clock-call", full_page=True)
    page.locator('[data-action="call-end"][data-outcome="acted"]').click()
    expect(page.locator('[data-field="call"]')).to_be_hidden()

    dealer_link_revoke(actor=director, tournament_id=tournament.pk, number=number)
    expect(page.locator('[data-field="message"]')).to_contain_text("revoked")
    expect(page.locator('[data-action="hand"]')).to_be_disabled()
    assert_geometry(page, "dealer-link-revoked", full_page=True)
