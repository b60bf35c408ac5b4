"""The registration desk stays live: what another desk or the floor changes shows without a
reload (the evening's production run found the desk still at 16 entries and "Registering"
three minutes into a running tournament with 31 entries)."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from tables.seating.usecases import seats_draw
from tests.e2e.conftest import PASSWORD, with_password
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register


@pytest.mark.django_db(transaction=True)
def test_the_desk_shows_another_desks_registrations_and_the_start(
    live_server, page, login, director, tournament
):
    with_password(director)
    first = player_create(actor=director, name="Kovács Péter")
    entry_register(actor=director, tournament_id=tournament.pk, player_id=first.pk)
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:desk", args=[tournament.pk]))
    recent = page.locator("#recent-entries tbody tr")
    expect(recent).to_have_count(1)

    # Another desk registers two players; the floor draws and starts the clock.
    for name in ("Szentgyörgyvölgyi-Kovácsné Ágnes", "Nagy Éva"):
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    expect(recent).to_have_count(3)
    expect(recent.first).to_contain_text("Nagy Éva")
    seats_draw(actor=director, tournament_id=tournament.pk)
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    expect(page.locator("#desk-status")).to_have_text("Running")
    expect(recent.first.locator("td").nth(2)).to_contain_text("T")  # his seat, drawn
    # The search box keeps its focus and what the desk typed meanwhile.
    expect(page.locator("#player-search")).to_be_focused()


@pytest.mark.django_db(transaction=True)
def test_the_desk_drops_the_late_registration_banner_at_the_finish(
    live_server, page, login, director, tournament
):
    """The evening (production run): "Open · 1:25 left" stayed on the desk after the finish."""
    from tourney.eliminations.usecases import eliminations_record
    from tourney.models import Entry

    _desk_of_a_running_tournament(live_server, page, login, director, tournament, 3)
    expect(page.locator("#late-registration")).to_contain_text("Open")

    for entry in Entry.objects.filter(tournament=tournament).order_by("pk")[:2]:
        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(entry.pk, None)]
        )
    expect(page.locator("#desk-status")).to_have_text("Finished")
    expect(page.locator("#late-registration")).to_be_hidden()
    expect(page.locator("#late-registration")).to_have_count(1)  # the next answers' target


@pytest.mark.django_db(transaction=True)
def test_the_late_registration_banner_follows_the_clock(
    live_server, page, login, director, tournament
):
    """The third evening production run: the director jumped the clock from level 5 to level 7
    past the last late-registration level (6); the desk went on saying "Open · 49:15 left ·
    until the end of level 6" and counting down, till someone reloaded it, and another minute
    on the clock was never shown. The banner is drawn again with the live column on every
    clock change."""
    _desk_of_a_running_tournament(live_server, page, login, director, tournament, 2)
    banner = page.locator("#late-registration")
    expect(banner).to_contain_text("Open")
    left = banner.locator("[data-late-reg-left]")
    expect(left).to_have_text(re.compile(r"^(29|30):\d\d$"))  # level 1 running + level 2

    clock_operate(actor=director, tournament_id=tournament.pk, operation="adjust", seconds=600)
    expect(left).to_have_text(re.compile(r"^(39|40):\d\d$"))  # ten minutes more, counting
    expect(left).not_to_have_text(left.inner_text(), timeout=3_000)

    clock_operate(actor=director, tournament_id=tournament.pk, operation="jump", period_index=2)
    expect(banner).to_contain_text("Closed")
    expect(banner).to_contain_text("Late registration closed at the end of level 2")
    expect(page.locator("#player-search")).to_be_focused()


def _desk_of_a_running_tournament(live_server, page, login, director, tournament, level):
    """Three players seated, the clock started, late registration to the end of `level`; the
    desk open on `page`."""
    from tourney.models import Tournament

    with_password(director)
    for name in ("Szentgyörgyvölgyi-Kovácsné Ágnes", "Nagy Éva", "Tóth Ödön"):
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_level=level)
    seats_draw(actor=director, tournament_id=tournament.pk)
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:desk", args=[tournament.pk]))


@pytest.mark.django_db(transaction=True)
def test_the_seat_card_prints_from_the_search_box_after_a_registration(
    live_server, page, login, director, tournament
):
    """The third evening production run: after a late registration the desk said "Print seat
    card P", but the search box has the focus (ready for the next player), so P typed a "p"
    and searched. Alt+P prints from the search box, as Alt+R and Alt+A buy there; plain P
    still prints outside a field."""
    from tests.e2e.desk_steps import desk_register_new_player

    _desk_of_a_running_tournament(live_server, page, login, director, tournament, 2)
    desk_register_new_player(page, live_server.url, tournament.pk, "Hajdú-Szoboszlay Kornélia")
    search = page.locator("#player-search")
    expect(search).to_be_focused()
    expect(page.locator("#print-seat-card kbd")).to_have_text("Alt+P")
    expect(page.locator(".shortcuts")).to_contain_text("Alt+P")
    with page.context.expect_page() as card:
        search.press("Alt+p")
    assert "/seat-card/" in card.value.url
    card.value.close()
    expect(search).to_have_value("")
