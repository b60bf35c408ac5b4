"""A rebuy tournament from registration to the final payouts in a real browser (issue 5's
"What it must show"): the desk registers a player, the console busts him and the desk takes
his rebuy, at Rimóc's break 2 (100s and 500s go) every table rounds up on the color-up page
and the console's card turns done, the director gives a 1-round penalty from the console, and
once the field is played down the results page pays out the whole prize pool.

Play between the pages goes through the services (fast). Screenshots:
test-artifacts/screenshots/night-*.png.
"""

import random

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clocks.clock.usecases import clock_operate
from tables.seating.usecases import seats_draw
from tests.conftest import friday_deepstack
from tests.e2e.conftest import DESKTOP, PASSWORD, with_password
from tests.e2e.desk_steps import desk_register_new_player
from tests.e2e.penalty_steps import penalty_search
from tourney.domain.purchases import MoneySettings
from tourney.eliminations.usecases import eliminations_record
from tourney.models import ChipPurchase, Entry, Penalty, Tournament
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register
from tourney.tournaments.selectors import tournament_summary

pytestmark = pytest.mark.django_db(transaction=True)

OTHERS = ["Kiss Anna", "Lakatos Bea", "Szűcs Gábor", "Major Ilona", "Bognár Ede"]
BREAK_2 = 9  # Rimóc: L1-L4, break 1, L5-L8, break 2 (100s and 500s go, D = 1,000)


def _close_toasts(page: Page) -> None:
    page.evaluate("document.querySelectorAll('#toasts .toast-close').forEach(b => b.click())")


def test_a_rebuy_night_from_registration_to_the_payouts(
    live_server, new_page, login, screenshot, director, structure, room
):
    with_password(director)
    tournament = friday_deepstack(
        director,
        structure,
        room,
        name="Rebuy night",
        money=MoneySettings(
            rebuy_until_level=4,
            rebuy_condition="busted",
            rebuy_buy_in=10_000,
            rebuy_fee=1_000,
            rebuy_chips=40_000,
        ),
    )
    for name in OTHERS:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    url = live_server.url
    page = new_page(viewport=DESKTOP)
    login(page, director, PASSWORD)

    # Registration at the desk, by keyboard.
    desk_register_new_player(page, url, tournament.pk, "Fehér Tamás")
    entry = Entry.objects.get(tournament=tournament, player__name="Fehér Tamás")
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(3))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")

    # Level 1: he busts at the console and rebuys at the desk from the toast.
    page.goto(url + reverse("tourney:console", args=[tournament.pk]))
    expect(page.locator("body")).to_have_attribute("data-floor-stream", "online")
    page.keyboard.press("b")
    page.locator("#bustout-search").press_sequentially("Fehér", delay=15)
    expect(page.locator("#bustout-results [data-pick-entry]")).to_have_count(1)
    page.keyboard.press("Enter")
    page.locator("#bustout-submit").click()
    toast = page.locator("#toasts .toast", has_text="Fehér Tamás is out in place 6")
    toast.locator(".toast-link").click()
    page.wait_for_url(f"**/desk/?entry={entry.pk}")
    rebuy = page.locator(f'.desk-purchase[data-entry-id="{entry.pk}"] button[data-buy="rebuy"]')
    expect(rebuy).to_be_focused()
    page.keyboard.press("r")
    expect(page.locator("#last-purchase")).to_contain_text("Rebuy for Fehér Tamás: 40,000 chips")
    assert ChipPurchase.objects.filter(entry=entry, undone_at__isnull=True).count() == 1
    entry.refresh_from_db()
    assert entry.status == "active"
    screenshot(page, "night-rebuy")

    # Break 2: each table in play rounds its stacks up; the console's card follows.
    clock_operate(
        actor=director, tournament_id=tournament.pk, operation="jump", period_index=BREAK_2
    )
    chips_before = tournament_summary(tournament).total_chips
    assert chips_before == 7 * 40_000
    console = new_page(viewport=DESKTOP)
    login(console, director, PASSWORD)
    console.goto(url + reverse("tourney:console", args=[tournament.pk]))
    expect(console.locator("body")).to_have_attribute("data-floor-stream", "online")
    card = console.locator("#colorup-card")
    expect(card).to_contain_text("Color-up: remove 100 and 500 chips")
    tables = sorted(
        set(
            Entry.objects.filter(tournament=tournament, status="active").values_list(
                "tournament_table__number", flat=True
            )
        )
    )
    for number in tables:
        page.goto(url + reverse("clocks:colorup", args=[tournament.pk, number]))
        page.locator("input[name='method'][value='round_up']").check()
        page.locator("li.colorup-seat input[name^='stack_']").nth(0).fill("40300")
        expect(page.locator("#colorup-plan")).to_contain_text("Chips in play: +700")
        page.locator("#colorup-confirm-stacks").click()
        expect(page.locator("#colorup-result")).to_have_attribute("data-status", "done")
    expect(card).to_have_attribute("data-all-done", "true")
    screenshot(page, "night-colorup")
    chips_after = tournament_summary(Tournament.objects.get(pk=tournament.pk)).total_chips
    assert chips_after == chips_before + 700 * len(tables)

    # Back to play: a 1-round penalty from the console.
    clock_operate(
        actor=director, tournament_id=tournament.pk, operation="jump", period_index=BREAK_2 + 1
    )
    offender = Entry.objects.select_related("tournament_table").get(player__name="Kiss Anna")
    at_table = Entry.objects.filter(
        tournament_table=offender.tournament_table, status="active"
    ).count()
    console.reload()
    expect(console.locator("body")).to_have_attribute("data-floor-stream", "online")
    penalty_search(console, f"{offender.tournament_table.number} {offender.seat}")
    console.locator(f'#penalty-results [data-penalty-entry="{offender.pk}"]').click()
    console.locator('input[name="kind"][value="missed_rounds"]').check()
    console.locator("#penalty-count").fill("1")
    expect(console.locator("#penalty-preview")).to_have_text(
        f"1 × {at_table} players = {at_table} hands"
    )
    console.locator("#penalty-reason").fill("Abusive language")
    console.locator("#penalty-submit").click()
    expect(console.locator("#toasts .toast").first).to_contain_text(f"sits out {at_table} hands")
    expect(console.locator("#sitting-out li.sitting-out")).to_have_count(1)
    assert Penalty.objects.get(entry=offender).hands == at_table
    _close_toasts(console)
    screenshot(console, "night-penalty", full_page=False)

    # Played down to the winner: the results pay out the whole prize pool (6 buy-ins, 1 rebuy).
    pool = tournament_summary(Tournament.objects.get(pk=tournament.pk)).prize_pool
    assert pool == 7 * 10_000
    order = list(
        Entry.objects.filter(tournament=tournament, status="active").values_list("pk", flat=True)
    )
    for entry_id in order[:-1]:
        eliminations_record(
            actor=director,
            tournament_id=tournament.pk,
            eliminations=[(entry_id, None)],
            rng=random.Random(1),
        )
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"
    page.goto(url + reverse("payouts:results", args=[tournament.pk]))
    prizes = page.locator("#results-table td.result-prize").all_inner_texts()
    paid = [int(p.replace(",", "")) for p in prizes if p.strip() not in ("", "—")]
    assert sum(paid) == pool and len(paid) >= 1
    expect(page.locator(f"#results-table tr[data-entry='{order[-1]}'] td").first).to_have_text("1")
    screenshot(page, "night-results")
