"""Payouts in a real browser (issue 5): the director makes a deal at the final table from the
console and finds it in the results page and its CSV; the lobby display shows the payout
ladder at the bubble; the payout-structure editor totals and checks as you type.

Arranged through the services (fast). Screenshots: test-artifacts/screenshots/payouts-*.png.
"""

import csv
import io
import random
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from tables.seating.usecases import seats_draw
from tests.e2e.conftest import DESKTOP, PASSWORD, TV, open_tool, save_manual_picture, with_password
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Deal, Entry, PayoutStructure
from tourney.payouts.operations import payout_structure_templates_install
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register
from tourney.seasons.usecases import season_create, tournament_season_set

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Kovács Péter", "Nagy Éva", "Szabó Zoltán", "Tóth Ödön", "Papp Réka", "Horváth Júlia",
    "Varga Lili", "Molnár Dávid", "Balogh Máté", "Fekete Bence", "Kiss Anna", "Farkas Gergő",
    "Lakatos Ilona", "Simon Ákos", "Takács Zsófia", "Juhász Levente", "Mészáros Enikő",
    "Oláh Bálint", "Rácz Csilla", "Fehér Gábor",
]  # fmt: skip


def _arrange(director, tournament, count: int) -> list[int]:
    ids = []
    for name in NAMES[:count]:
        player = player_create(actor=director, name=name)
        ids.append(
            entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk).pk
        )
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(5))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    return ids


def _bust(director, tournament, entry_id: int) -> None:
    eliminations_record(
        actor=director,
        tournament_id=tournament.pk,
        eliminations=[(entry_id, None)],
        rng=random.Random(1),
    )


def _director_page(new_page, login, director):
    with_password(director)
    page = new_page(viewport=DESKTOP)
    login(page, director, PASSWORD)
    return page


def test_deal_at_the_final_table_goes_into_the_results_and_the_csv(
    live_server, new_page, login, screenshot, director, tournament
):
    ids = _arrange(director, tournament, 8)  # 80,000: 40,000 / 24,000 / 16,000
    for entry_id in ids[3:]:
        _bust(director, tournament, entry_id)
    left = list(
        Entry.objects.filter(tournament=tournament, status="active").order_by(
            "tournament_table__number", "seat", "number"
        )
    )
    page = _director_page(new_page, login, director)
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/")
    open_tool(page, "payouts")
    ladder = page.locator("#payout-ladder")
    expect(ladder).to_be_visible()
    expect(ladder.locator("tr[data-place='3']")).to_have_attribute("data-state", "next")
    page.locator("#deal-open").click()
    dialog = page.locator("#deal-dialog")
    expect(dialog).to_be_visible()
    for entry, stack in zip(left, ("160000", "100000", "60000"), strict=True):
        dialog.locator(f"tr[data-entry='{entry.pk}'] input[name=stack]").fill(stack)
    expect(page.locator("#deal-total")).to_contain_text("80,000")
    expect(page.locator("#deal-confirm")).to_be_enabled()
    # The director rounds two amounts by hand: what is shared must still add up.
    amounts = [dialog.locator(f"tr[data-entry='{e.pk}'] input[name=amount]") for e in left]
    first, second = (int(a.input_value().replace(",", "")) for a in amounts[:2])
    amounts[0].fill(str(first + 500))
    expect(page.locator("#deal-error")).to_contain_text("add up")
    expect(page.locator("#deal-confirm")).to_be_disabled()
    amounts[1].fill(str(second - 500))
    expect(page.locator("#deal-confirm")).to_be_enabled()
    screenshot(page, "payouts-deal-dialog", full_page=False)
    page.locator("#deal-confirm").click()
    expect(page.locator("#deal-in-force")).to_be_visible()
    deal = Deal.objects.get(tournament=tournament, undone_at__isnull=True)
    agreed = {s["entry_id"]: s["amount"] for s in deal.shares}
    assert sum(agreed.values()) == 80_000 and agreed[left[0].pk] == first + 500
    assert deal.method == "custom"
    screenshot(page, "payouts-console")

    # The biggest stack busts first: the deal's amounts stand whatever the places.
    _bust(director, tournament, left[0].pk)
    _bust(director, tournament, left[1].pk)
    # The console draws itself again as the finished tournament's (eeac6e4), reloading once
    # more under load after its status says so: the results open in a tab of their own, so
    # that no reload of the console aborts their navigation.
    expect(page.locator("#cc-status-text")).to_have_text("Finished")
    page = page.context.new_page()
    page.goto(f"{live_server.url}/tournaments/{tournament.pk}/results/")
    for entry in left:
        row = page.locator(f"#results-table tr[data-entry='{entry.pk}']")
        expect(row.locator("td.result-prize")).to_have_text(f"{agreed[entry.pk]:,}")
        expect(row).to_contain_text("deal")
    expect(page.locator(f"#results-table tr[data-entry='{left[2].pk}'] td").first).to_have_text("1")
    screenshot(page, "payouts-results")
    save_manual_picture(page, "payouts-results", full_page=True)
    with page.expect_download() as info:
        page.locator("#results-csv").click()
    text = Path(info.value.path()).read_text(encoding="utf-8-sig")
    rows = {int(r["entry_id"]): r for r in csv.DictReader(io.StringIO(text))}
    assert {e.pk: int(rows[e.pk]["prize"]) for e in left} == agreed
    assert all(rows[e.pk]["deal"] == "1" for e in left)
    assert rows[left[2].pk]["place"] == "1" and len(rows) == 8

    # The tournament is round 1 of a championship: its standings page.
    season = season_create(
        actor=director,
        name="Rimóc 2026",
        points_formula="table",
        points_table=[25, 18, 15, 12, 10, 8, 6, 4],
        best_of=3,
    )
    tournament_season_set(
        actor=director, tournament_id=tournament.pk, season_id=season.pk, season_round=1
    )
    page.goto(f"{live_server.url}/seasons/{season.pk}/")
    winner = page.locator(f"#standings tr[data-player='{left[2].player_id}']")
    expect(winner.locator("td.standing-points")).to_have_text("25")
    screenshot(page, "payouts-season")
    save_manual_picture(page, "championship-standings", full_page=True)


def test_the_display_shows_the_ladder_at_the_bubble(
    live_server, new_page, screenshot, director, tournament
):
    ids = _arrange(director, tournament, 20)  # 20 entries pay 5 places
    for entry_id in ids[:14]:
        _bust(director, tournament, entry_id)  # 6 left: the bubble
    page = new_page(viewport=TV)
    page.goto(f"{live_server.url}/display/{display_token(tournament.pk)}/")
    box = page.locator("[data-field=payouts-box]")
    expect(box).to_be_visible()
    expect(box.locator("[data-field=payouts-flag]")).to_have_text("Bubble")
    expect(box.locator("li")).to_have_count(5)
    screenshot(page, "payouts-display-bubble", full_page=False)
    _bust(director, tournament, ids[14])  # in the money: the stream refetches the ladder
    expect(box.locator("[data-field=payouts-flag]")).to_have_text("In the money")
    expect(box.locator("li.is-next")).to_have_count(1)


def test_payout_structure_editor_checks_and_saves(
    live_server, new_page, login, screenshot, director
):
    payout_structure_templates_install()
    page = _director_page(new_page, login, director)
    page.goto(f"{live_server.url}/payout-structures/new/")
    brackets = page.locator("#payout-brackets .payout-bracket")
    expect(brackets).to_have_count(5)
    third = brackets.nth(2)
    expect(third.locator(".payout-bracket-total")).to_have_text("Total 100 %")
    third.locator("input[data-place='2']").fill("15")
    expect(third.locator(".payout-bracket-total")).to_have_text("Total 95 %")
    expect(page.locator("#payout-error-detail")).to_contain_text("8–12 entries")
    screenshot(page, "payouts-editor-error")
    third.locator("input[data-place='2']").fill("20")
    expect(page.locator("#payout-ready")).to_be_visible()
    expect(third.locator("[data-amount='0']")).to_have_text("500,000")
    page.locator("#payout-name").fill("House 2026")
    page.locator("#save-payout-structure").click()
    page.wait_for_url(re.compile(r"/payout-structures/\d+/$"))  # not /new/: saved
    saved = PayoutStructure.objects.get(name="House 2026")
    assert len(saved.brackets) == 5 and saved.brackets[2]["shares"] == [500_000, 300_000, 200_000]
    screenshot(page, "payouts-editor")
