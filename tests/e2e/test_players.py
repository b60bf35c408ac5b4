"""Duplicates at the desk in a real browser (issue 13 item 9): a second Kovács Ádám is caught
and the existing one registered by Enter; typos find the player; the players index; a merge
and its undo."""

from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.desk_steps import desk_search, sign_in
from tourney.models import Entry, Player
from tourney.players.usecases import player_create


def test_the_desk_catches_a_duplicate_and_forgives_typos(
    page, live_server, login, director, tournament, screenshot
):
    adam = player_create(actor=director, name="Kovács Ádám", phone="+36 30 555 1234")
    player_create(actor=director, name="Varga Ferenc")
    sign_in(page, login, director)
    page.goto(live_server.url + reverse("tourney:desk", args=[tournament.pk]))
    page.locator("#new-player > summary").click()
    page.fill("#id_name", "Kovács Ádám")
    page.locator("#id_name").press("Enter")
    warning = page.locator("#desk-duplicates")
    expect(warning).to_contain_text("may already be a player")
    expect(warning).to_contain_text("same name")
    expect(warning.locator("[data-register-existing]").first).to_be_focused()
    screenshot(page, "desk-duplicate-warning")
    page.keyboard.press("Enter")
    expect(page.locator("#last-registration")).to_contain_text("Kovács Ádám is registered")
    assert Player.objects.filter(name="Kovács Ádám").count() == 1
    assert Entry.objects.get(tournament=tournament).player == adam

    desk_search(page, "Vraga")
    expect(page.locator("#search-results [data-player-id]").first).to_contain_text("Varga Ferenc")
    page.keyboard.press("Enter")
    expect(page.locator("#last-registration")).to_contain_text("Varga Ferenc is registered")


def test_the_players_index_and_a_merge_undone(
    page, live_server, login, director, api, tournament, screenshot
):
    keep = player_create(actor=director, name="Mészáros Éva")
    duplicate = player_create(actor=director, name="Meszaros Eva", email="eva@example.com")
    for name in ("Molnár Dávid", "Zeman Jan", "Csizmadia Béla"):
        player_create(actor=director, name=name)
    entry = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": duplicate.pk}).json()
    sign_in(page, login, director)
    page.goto(live_server.url + reverse("tourney:players"))
    expect(page.locator("#players-q")).to_be_focused()
    page.locator("#players-q").fill("Mesaros")
    page.keyboard.press("Enter")
    rows = page.locator("#players-table tbody tr[data-player]")
    expect(rows).to_have_count(2)
    screenshot(page, "players-index")
    rows.filter(has_text="Meszaros Eva").locator("text=Merge…").click()
    candidate = page.locator(f'#merge-candidates [data-candidate="{keep.pk}"]')
    expect(candidate).to_contain_text("Mészáros Éva")
    candidate.locator("[data-merge-into]").click()
    expect(page.locator("h1")).to_contain_text("Mészáros Éva")
    expect(page.locator("#player-merged")).to_contain_text("Meszaros Eva")
    assert Entry.objects.get(pk=entry["id"]).player_id == keep.pk
    assert Player.objects.get(pk=keep.pk).email == "eva@example.com"
    page.locator("#toasts .toast-undo").click()
    expect(page.locator("#player-merged")).to_have_count(0)
    assert Entry.objects.get(pk=entry["id"]).player_id == duplicate.pk
    assert Player.objects.get(pk=duplicate.pk).merged_into_id is None
