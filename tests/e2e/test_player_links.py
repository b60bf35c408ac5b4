"""The console's Player links page (director): revoke one player's link, undo it, revoke all
and undo; the reprinted seat card carries the new link. Passes the geometry check on a desktop
and on a phone. Screenshots: test-artifacts/screenshots/player-links-*.png."""

import pytest
from playwright.sync_api import expect

from tests.conftest import seat_players
from tests.e2e.conftest import DESKTOP, PASSWORD, PHONE, with_password
from tests.e2e.geometry import assert_geometry
from tourney.models import Entry
from tourney.player_page.selectors import player_link, player_token

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_director_revokes_and_restores_player_links(
    live_server, new_page, login, api, director, tournament
):
    seat_players(
        api, tournament, ["Gyöngyösi-Szentmiklóssy Bernadett", "Kovács Ádám", "Řezníček Přemysl"]
    )
    entry = Entry.objects.filter(tournament=tournament).order_by("number").first()
    old = player_token(tournament.pk, entry.pk)
    page = new_page(viewport=DESKTOP)
    login(page, with_password(director), PASSWORD)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    page.locator("#player-links").click()
    row = page.locator(f'#player-links tr[data-entry="{entry.pk}"]')
    row.locator("[data-revoke]").click()
    expect(row.locator(".badge.warn")).to_be_visible()
    assert player_link(old).status == "revoked"
    assert player_token(tournament.pk, entry.pk) != old  # the seat card's new QR code
    assert_geometry(page, "player-links-revoked", full_page=True)

    row.locator("[data-undo-revoke]").click()
    expect(row.locator(".badge.ok")).to_be_visible()
    assert player_link(old).ok

    page.locator("#revoke-player-links").click()
    expect(page.locator("#undo-revoke-player-links")).to_be_visible()
    expect(page.locator("#player-links .badge.warn")).to_have_count(3)  # every row says so
    assert player_link(old).status == "revoked"
    page.set_viewport_size(PHONE)
    assert_geometry(page, "player-links-phone", full_page=True)
    page.locator("#undo-revoke-player-links").click()
    expect(page.locator("#undo-revoke-player-links")).to_have_count(0)
    assert player_link(old).ok
