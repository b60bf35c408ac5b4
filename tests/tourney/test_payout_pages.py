"""Payout pages: structure list and editor, the console panel, results (page, CSV, JSON), the
prize receipt, championships and standings, the display's payout ladder."""

import csv
import io
import json

import pytest
from django.test import Client

from clocks.display.selectors import display_state, display_token
from tests.conftest import numbered_players, seat_players
from tourney.models import PayoutStructure, Season, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _templates(payout_templates):
    """Every test here may read the built-in payout structures."""


@pytest.fixture
def browser(director_client):
    return director_client


@pytest.fixture
def finished(api, tournament):
    """Eight players, three paid (50/30/20 of 80,000); played to a winner."""
    ids = seat_players(api, tournament, numbered_players(8))
    api.post(f"/tournaments/{tournament.pk}/start")
    for name in ("P7", "P6", "P5", "P4", "P3", "P2", "P1"):
        api.post(
            f"/tournaments/{tournament.pk}/eliminations",
            {"eliminations": [{"entry_id": ids[name]}]},
        )
    return ids


def test_structure_pages(browser):
    listing = browser.get("/payout-structures/")
    assert listing.status_code == 200 and b"payout-structures" in listing.content
    template = PayoutStructure.objects.get(template_key="standard")
    page = browser.get(f"/payout-structures/{template.pk}/")
    assert page.status_code == 200 and b"payout-config" in page.content
    assert b"Duplicate to edit" in page.content
    assert browser.get("/payout-structures/new/").status_code == 200
    copied = browser.post(f"/payout-structures/{template.pk}/copy/")
    assert copied.status_code == 302
    assert PayoutStructure.objects.filter(template_key="").count() == 1


def test_console_panel_and_display_ladder(api, browser, tournament):
    ids = seat_players(api, tournament, numbered_players(9))
    api.post(f"/tournaments/{tournament.pk}/start")
    for name in ("P8", "P7", "P6", "P5"):
        api.post(
            f"/tournaments/{tournament.pk}/eliminations",
            {"eliminations": [{"entry_id": ids[name]}]},
        )
    # 9 entries pay 3; 5 left: not yet in the money, not the bubble.
    state = display_state(Tournament.objects.get(pk=tournament.pk))
    assert [(p["place"], p["state"]) for p in state["payouts"]] == [
        (1, "open"),
        (2, "open"),
        (3, "open"),
    ]
    assert state["payout_ladder"] == {
        "places_paid": 3,
        "players_remaining": 5,
        "bubble": False,
        "in_money": False,
    }
    api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": ids["P4"]}]}
    )
    state = display_state(Tournament.objects.get(pk=tournament.pk))
    assert state["payout_ladder"]["bubble"] is True
    api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": ids["P3"]}]}
    )
    state = display_state(Tournament.objects.get(pk=tournament.pk))
    assert state["payout_ladder"]["in_money"] is True
    assert [p["state"] for p in state["payouts"]] == ["open", "open", "next"]
    panel = browser.get(f"/tournaments/{tournament.pk}/payouts/panel/")
    assert panel.status_code == 200
    assert b'id="deal-open"' in panel.content and b'data-state="next"' in panel.content
    console = browser.get(f"/tournaments/{tournament.pk}/")
    assert b'id="payouts-panel"' in console.content
    display = Client().get(f"/display/{display_token(tournament.pk)}/")
    assert display.status_code == 200 and b"dpayouts" in display.content


def test_display_ladder_keeps_the_top_and_the_places_in_play_for_a_big_field(db, tournament):
    from tourney.payouts.selectors import payout_ladder
    from tourney.tournaments.selectors import TournamentSummary

    tournament.status = Tournament.Status.RUNNING
    summary = TournamentSummary(
        entries=2_000,
        players_remaining=200,
        waiting=0,
        prize_pool=20_000_000,
        fees=0,
        total_chips=0,
        average_stack=0,
        capacity=2_000,
        **{
            k: 0
            for k in ("rebuys", "addons", "prize_money", "overlay")
            if k in TournamentSummary.__dataclass_fields__
        },
    )
    ladder = payout_ladder(tournament, summary)
    rows = ladder["payouts"]
    assert len(rows) <= 11 and rows[0]["place"] == 1 and any(r.get("gap") for r in rows)
    assert any(r.get("state") == "next" for r in rows)
    assert ladder["payout_ladder"]["places_paid"] == 250


def test_results_page_csv_and_json(api, browser, finished, tournament):
    page = browser.get(f"/tournaments/{tournament.pk}/results/")
    assert page.status_code == 200 and b"results-table" in page.content
    text = browser.get(f"/tournaments/{tournament.pk}/results.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["place"], r["player_name"], r["prize"]) for r in rows[:3]] == [
        ("1", "P0", "40000"),
        ("2", "P1", "24000"),
        ("3", "P2", "16000"),
    ]
    assert len(rows) == 8
    body = json.loads(browser.get(f"/tournaments/{tournament.pk}/results.json").content)
    assert body["prize_pool"] == 80_000 and body["results"][0]["player_name"] == "P0"
    paid = api.post(f"/tournaments/{tournament.pk}/results/{finished['P0']}/pay").json()
    receipt = browser.get(paid["receipt_url"])
    assert receipt.status_code == 200 and b"40,000" in receipt.content
    by_entry = browser.get(f"/tournaments/{tournament.pk}/entries/{finished['P0']}/prize-receipt/")
    assert by_entry.status_code == 302 and by_entry["Location"] == paid["receipt_url"]


def test_championship_standings(api, browser, finished, tournament, director, room, structure):
    season = api.post(
        "/seasons",
        {
            "name": "Rimóc 2026",
            "points_formula": "table",
            "points_table": [25, 18, 15, 12, 10, 8, 6, 4],
        },
    ).json()
    bad = api.post("/seasons", {"name": "x", "points_formula": "table", "points_table": [10, 20]})
    assert bad.status_code == 422 and bad.json()["code"] == "points_table_order"
    assert Season.objects.count() == 1
    joined = api.put(f"/tournaments/{tournament.pk}/season", {"season_id": season["id"]})
    assert joined.json() == {"season_id": season["id"], "round": 1}
    second = api.post(
        "/tournaments",
        {
            "name": "Round 2",
            "structure_id": structure.pk,
            "starting_stack": 40_000,
            "buy_in": 10_000,
        },
    ).json()
    taken = api.put(f"/tournaments/{second['id']}/season", {"season_id": season["id"], "round": 1})
    assert taken.status_code == 409 and taken.json()["code"] == "round_taken"
    api.put(f"/tournaments/{second['id']}/season", {"season_id": season["id"]})
    standings = api.get(f"/seasons/{season['id']}/standings").json()
    assert [r["round"] for r in standings["rounds"]] == [1, 2]
    top = standings["standings"][0]
    assert (top["rank"], top["player_name"], top["points"]) == (1, "P0", 25)
    assert standings["standings"][-1]["points"] == 4
    page = browser.get(f"/seasons/{season['id']}/")
    assert page.status_code == 200 and b"standings" in page.content
    assert browser.get("/seasons/").status_code == 200
    updated = api.put(
        f"/seasons/{season['id']}", {"name": "Rimóc", "points_formula": "linear", "best_of": 1}
    )
    assert updated.status_code == 200
    assert api.get(f"/seasons/{season['id']}/standings").json()["standings"][0]["points"] == 8


def test_the_championship_forms_save_and_refuse_bad_input(director_client, tournament):
    created = director_client.post(
        "/seasons/",
        {"name": "Kupa", "points_formula": "table", "points_table": "25; 18, 15"},
        follow=True,
    )
    season = Season.objects.get(name="Kupa")
    assert [m.level_tag for m in created.context["messages"]] == ["ok"]
    assert season.points_table == [25, 18, 15]
    for data in (
        {"name": "Kupa 2", "points_formula": "cubic"},
        {"name": "Kupa 2", "points_formula": "table", "points_table": "25, x"},
        {"name": "Kupa 2", "points_formula": "table", "points_table": "2000000"},
        {"name": "Kupa 2", "best_of": "0"},
        {"name": "K" * 161},
    ):
        refused = director_client.post("/seasons/", data, follow=True)
        assert [m.level_tag for m in refused.context["messages"]] == ["bad"], data
    assert Season.objects.count() == 1
    page = f"/seasons/{season.pk}/"
    director_client.post(page, {"name": "Kupa", "points_formula": "table", "best_of": "-1"})
    director_client.post(page, {"action": "attach", "tournament": "x", "round": "1"})
    director_client.post(page, {"action": "attach", "tournament": tournament.pk, "round": "0"})
    season.refresh_from_db()
    tournament.refresh_from_db()
    assert season.best_of is None and tournament.season_id is None
    director_client.post(page, {"action": "attach", "tournament": tournament.pk, "round": "2"})
    tournament.refresh_from_db()
    assert (tournament.season_id, tournament.season_round) == (season.pk, 2)
