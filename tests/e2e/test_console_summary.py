"""The console's summary numbers follow the event stream: a bust-out elsewhere changes
"Players left" and the average stack without a reload."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.conftest import numbered_players, seat_players
from tests.e2e.conftest import DESKTOP, PASSWORD, with_password

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_summary_refreshes_after_a_bust_out(
    live_server, new_page, login, screenshot, api, director, tournament
):
    ids = seat_players(api, tournament, numbered_players(8))
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    with_password(director)
    page = new_page(viewport=DESKTOP)
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    expect(page.locator("body")).to_have_attribute("data-floor-stream", "online")
    page.evaluate("window.__summaryMarker = true")
    left = page.locator("#summary-stats [data-stat=players_remaining]")
    expect(left).to_have_text("8")

    busted = api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": ids["P3"]}]}
    )
    assert busted.status_code == 200
    expect(left).to_have_text("7")
    expect(page.locator("#summary-stats [data-stat=entries]")).to_have_text("8")
    assert page.evaluate("window.__summaryMarker") is True, "the console was reloaded"
    screenshot(page, "console-summary-live", full_page=False)
