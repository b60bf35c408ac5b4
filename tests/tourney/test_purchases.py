"""Rebuys, add-ons and re-entries (docs/rules.md §2) through the API: each rule, each refusal (and
that a refusal changes nothing), undo, the prize pool and chips in play, and the receipts."""

import json

import pytest
import time_machine

from tests.conftest import make_staff, seat_players
from tourney.models import (
    AuditEntry,
    ChipPurchase,
    Elimination,
    Entry,
    LedgerEntry,
    Tournament,
    TournamentEvent,
)

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 19:00:00 +01:00"
MIN = 60

REBUY_SETTINGS = {
    "rebuy_until_level": 4,
    "rebuy_max": 0,
    "rebuy_condition": "at_most_start",
    "rebuy_buy_in": 10_000,
    "rebuy_fee": 1_000,
    "rebuy_chips": 40_000,
    "addon_level": 4,
    "addon_buy_in": 8_000,
    "addon_fee": 2_000,
    "addon_chips": 60_000,
}


def create(api, structure, room, **extra) -> dict:
    body = {
        "name": "Rebuy night",
        "structure_id": structure.pk,
        "starting_stack": 40_000,
        "buy_in": 10_000,
        "fee": 2_000,
        "room_id": room.pk,
        "house_rules": "rimoc",
        **REBUY_SETTINGS,
        **extra,
    }
    return api.post("/tournaments", body)


@pytest.fixture
def rebuy_tournament(api, structure, room):
    response = create(api, structure, room)
    assert response.status_code == 201, response.json()
    return Tournament.objects.get(pk=response.json()["id"])


def started(api, tournament, players=6) -> dict[str, int]:
    ids = seat_players(api, tournament, [f"P{i}" for i in range(players)])
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    return ids


def rebuy(api, tournament, entry_id, **body):
    return api.post(f"/tournaments/{tournament.pk}/entries/{entry_id}/rebuy", body)


def addon(api, tournament, entry_id, **body):
    return api.post(f"/tournaments/{tournament.pk}/entries/{entry_id}/addon", body)


def bust(api, tournament, *entry_ids):
    response = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": e} for e in entry_ids]},
    )
    assert response.status_code == 200, response.json()
    return response.json()


def summary(api, tournament) -> dict:
    return api.get(f"/tournaments/{tournament.pk}").json()


def world(tournament) -> tuple:
    """Everything a refused request must leave alone."""
    return (
        list(LedgerEntry.objects.filter(tournament=tournament).values_list("pk", "amount")),
        list(ChipPurchase.objects.filter(tournament=tournament).values_list("pk", "undone_at")),
        AuditEntry.objects.filter(tournament=tournament).count(),
        TournamentEvent.objects.filter(tournament=tournament).count(),
        list(Entry.objects.filter(tournament=tournament).values_list("pk", "status", "place")),
        list(Elimination.objects.filter(tournament=tournament).values_list("pk", "undone_at")),
    )


def refused(response, status: int, code: str) -> None:
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert response.json()["detail"]


# --- settings ----------------------------------------------------------------------------------


def test_settings_are_saved_and_shown(api, rebuy_tournament):
    data = summary(api, rebuy_tournament)
    for key, value in REBUY_SETTINGS.items():
        assert data[key] == value
    assert (data["rebuys"], data["addons"], data["overlay"], data["guarantee"]) == (0, 0, 0, 0)


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"rebuy_chips": 0}, "invalid_rebuy_chips"),
        ({"rebuy_until_level": 99}, "invalid_rebuy_until_level"),
        ({"addon_chips": 0}, "invalid_addon_chips"),
        ({"addon_level": 99}, "invalid_addon_level"),
        ({"rebuy_fee": -1}, "invalid_input"),
        ({"guarantee": -5}, "invalid_input"),
        ({"rebuy_condition": "whenever"}, "invalid_input"),
    ],
)
def test_bad_settings_are_refused(api, structure, room, extra, code):
    before = Tournament.objects.count()
    refused(create(api, structure, room, **extra), 422, code)
    assert Tournament.objects.count() == before


def test_a_tournament_without_rebuys_or_addons_refuses_both(api, tournament):
    ids = started(api, tournament, 4)
    entry = ids["P0"]
    before = world(tournament)
    refused(rebuy(api, tournament, entry, stack=1_000), 409, "no_rebuys")
    refused(addon(api, tournament, entry), 409, "no_addons")
    assert world(tournament) == before


# --- rebuys --------------------------------------------------------------------------------------


def test_rebuy_at_most_the_starting_stack(api, rebuy_tournament):
    t = rebuy_tournament
    ids = started(api, t)
    entry = ids["P1"]
    before = world(t)
    refused(rebuy(api, t, entry), 422, "stack_required")
    refused(rebuy(api, t, entry, stack=40_001), 409, "rebuy_not_allowed")
    assert world(t) == before
    response = rebuy(api, t, entry, stack=40_000, method="card")
    assert response.status_code == 201, response.json()
    row = response.json()
    assert (row["kind"], row["chips"], row["price"], row["method"]) == (
        "rebuy",
        40_000,
        11_000,
        "card",
    )
    assert row["receipt_number"] == f"{t.pk}-0002-B1" and row["revived"] is False
    ledger = LedgerEntry.objects.filter(purchase_id=row["id"]).order_by("kind")
    assert [(r.kind, r.purpose, r.amount) for r in ledger] == [
        ("buy_in", "rebuy", 10_000),
        ("fee", "rebuy", 1_000),
    ]
    data = summary(api, t)
    assert data["rebuys"] == 1
    assert data["prize_pool"] == 6 * 10_000 + 10_000
    assert data["total_chips"] == 6 * 40_000 + 40_000
    assert data["average_stack"] == (7 * 40_000) // 6
    assert AuditEntry.objects.filter(action="entry.rebuy").count() == 1
    assert TournamentEvent.objects.filter(tournament=t, kind="money").count() == 1


def test_rebuy_limit(api, structure, room):
    t = Tournament.objects.get(pk=create(api, structure, room, rebuy_max=1).json()["id"])
    entry = started(api, t)["P0"]
    assert rebuy(api, t, entry, stack=100).status_code == 201
    before = world(t)
    refused(rebuy(api, t, entry, stack=100), 409, "rebuy_limit")
    assert world(t) == before


def test_busted_only_and_a_busted_players_rebuy_takes_back_his_bust(api, structure, room):
    t = Tournament.objects.get(
        pk=create(api, structure, room, rebuy_condition="busted").json()["id"]
    )
    ids = started(api, t)
    refused(rebuy(api, t, ids["P0"], stack=1_000), 409, "rebuy_not_allowed")
    seat = Entry.objects.get(pk=ids["P0"]).seat
    bust(api, t, ids["P0"])  # place 6
    bust(api, t, ids["P1"])  # place 5
    response = rebuy(api, t, ids["P0"])
    assert response.status_code == 201, response.json()
    assert response.json()["revived"] is True and response.json()["stack_before"] == 0
    p0, p1 = Entry.objects.get(pk=ids["P0"]), Entry.objects.get(pk=ids["P1"])
    assert (p0.status, p0.place, p0.seat) == ("active", None, seat)  # keeps his seat
    assert (p1.status, p1.place) == ("eliminated", 6)  # later busts move back
    assert summary(api, t)["players_remaining"] == 5


def test_rebuy_must_come_before_the_next_hand(api, structure, room):
    t = Tournament.objects.get(
        pk=create(api, structure, room, rebuy_condition="busted").json()["id"]
    )
    ids = started(api, t, 4)
    entry = Entry.objects.select_related("tournament_table").get(pk=ids["P0"])
    table = entry.tournament_table.number
    hands = f"/tournaments/{t.pk}/tables/{table}/hands"
    bust(api, t, entry.pk)
    # The bust-out's own hand is reported: the next hand has not been dealt yet.
    assert api.post(hands).status_code == 200
    assert api.post(hands).status_code == 200  # ... and now the next one has been played
    before = world(t)
    refused(rebuy(api, t, entry.pk), 409, "rebuy_too_late")
    assert world(t) == before


def test_rebuy_in_time_after_the_bust_hand_is_reported(api, structure, room):
    t = Tournament.objects.get(
        pk=create(api, structure, room, rebuy_condition="busted").json()["id"]
    )
    ids = started(api, t, 4)
    entry = Entry.objects.select_related("tournament_table").get(pk=ids["P0"])
    bust(api, t, entry.pk)
    assert (
        api.post(f"/tournaments/{t.pk}/tables/{entry.tournament_table.number}/hands").status_code
        == 200
    )
    assert rebuy(api, t, entry.pk).status_code == 201


def test_rebuys_close_at_the_end_of_the_level(api, rebuy_tournament):
    t = rebuy_tournament
    with time_machine.travel(T0, tick=False) as traveller:
        entry = started(api, t)["P2"]
        traveller.shift(4 * 15 * MIN - 1)  # the last second of level 4
        assert rebuy(api, t, entry, stack=10).status_code == 201
        traveller.shift(1)  # the break after level 4: closed
        before = world(t)
        refused(rebuy(api, t, entry, stack=10), 409, "rebuy_closed")
        assert world(t) == before


def test_no_rebuy_before_the_start(api, rebuy_tournament):
    ids = seat_players(api, rebuy_tournament, ["A", "B"])
    refused(rebuy(api, rebuy_tournament, ids["A"], stack=1), 409, "tournament_not_running")


def test_desk_role_buys_floor_role_may_not(api, api_as, rebuy_tournament):
    entry = started(api, rebuy_tournament)["P0"]
    assert rebuy(api_as("floor"), rebuy_tournament, entry, stack=1).status_code == 403
    assert rebuy(api_as("desk"), rebuy_tournament, entry, stack=1).status_code == 201


# --- add-ons -------------------------------------------------------------------------------------


def test_addon_once_in_the_break_after_the_level(api, rebuy_tournament):
    t = rebuy_tournament
    with time_machine.travel(T0, tick=False) as traveller:
        ids = started(api, t)
        before = world(t)
        refused(addon(api, t, ids["P0"]), 409, "addon_closed")
        assert world(t) == before
        traveller.shift(4 * 15 * MIN)  # the break after level 4
        response = addon(api, t, ids["P0"], method="other")
        assert response.status_code == 201, response.json()
        assert response.json()["receipt_number"] == f"{t.pk}-0001-A1"
        before = world(t)
        refused(addon(api, t, ids["P0"]), 409, "addon_twice")
        assert world(t) == before
        data = summary(api, t)
        assert (data["addons"], data["prize_pool"]) == (1, 6 * 10_000 + 8_000)
        assert data["total_chips"] == 6 * 40_000 + 60_000
        traveller.shift(10 * MIN)  # level 5: over
        refused(addon(api, t, ids["P1"]), 409, "addon_closed")


def test_addon_without_a_break_runs_through_the_next_level(api, structure, room):
    # Level 3 is followed by level 4, not a break: the add-on is taken during level 4.
    t = Tournament.objects.get(pk=create(api, structure, room, addon_level=3).json()["id"])
    with time_machine.travel(T0, tick=False) as traveller:
        ids = started(api, t)
        traveller.shift(3 * 15 * MIN - 1)
        refused(addon(api, t, ids["P0"]), 409, "addon_closed")
        traveller.shift(15 * MIN)  # the last second of level 4
        assert addon(api, t, ids["P0"]).status_code == 201
        traveller.shift(1)
        refused(addon(api, t, ids["P1"]), 409, "addon_closed")


def test_a_busted_player_takes_no_addon(api, rebuy_tournament):
    t = rebuy_tournament
    with time_machine.travel(T0, tick=False) as traveller:
        ids = started(api, t)
        bust(api, t, ids["P3"])
        traveller.shift(4 * 15 * MIN)
        refused(addon(api, t, ids["P3"]), 409, "entry_not_playing")


# --- undo ----------------------------------------------------------------------------------------


def test_undo_refunds_and_takes_the_chips_out(api, rebuy_tournament):
    t = rebuy_tournament
    entry = started(api, t)["P0"]
    first = rebuy(api, t, entry, stack=0).json()
    second = rebuy(api, t, entry, stack=5).json()
    undo = f"/tournaments/{t.pk}/chip-purchases/%s/undo"
    refused(api.post(undo % first["id"]), 409, "undo_later_first")
    response = api.post(undo % second["id"])
    assert response.status_code == 200, response.json()
    assert response.json()["undone"] is True
    assert response.json()["refund_receipt_number"] == f"{t.pk}-0001-B2R"
    refunds = LedgerEntry.objects.filter(purchase_id=second["id"], amount__lt=0)
    assert sorted((r.kind, r.amount) for r in refunds) == [
        ("refund_buy_in", -10_000),
        ("refund_fee", -1_000),
    ]
    data = summary(api, t)
    assert (data["rebuys"], data["prize_pool"], data["total_chips"]) == (
        1,
        7 * 10_000,
        7 * 40_000,
    )
    refused(api.post(undo % second["id"]), 409, "purchase_undone")
    refused(api.post(undo % 999_999), 404, "purchase_not_found")
    # A new rebuy gets a receipt number of its own.
    assert rebuy(api, t, entry, stack=5).json()["receipt_number"] == f"{t.pk}-0001-B3"


def test_undoing_a_revival_busts_the_entry_again(api, structure, room):
    t = Tournament.objects.get(
        pk=create(api, structure, room, rebuy_condition="busted").json()["id"]
    )
    ids = started(api, t)
    bust(api, t, ids["P0"])
    purchase = rebuy(api, t, ids["P0"]).json()
    bust(api, t, ids["P1"])  # place 6 now that P0 plays again
    response = api.post(f"/tournaments/{t.pk}/chip-purchases/{purchase['id']}/undo")
    assert response.status_code == 200, response.json()
    p0, p1 = Entry.objects.get(pk=ids["P0"]), Entry.objects.get(pk=ids["P1"])
    assert (p0.status, p0.place) == ("eliminated", 5)  # busted again, now
    assert (p1.status, p1.place) == ("eliminated", 6)
    assert summary(api, t)["players_remaining"] == 4


# --- re-entries ----------------------------------------------------------------------------------


def test_reentry_refused_without_reentries(api, rebuy_tournament):
    t = rebuy_tournament
    ids = started(api, t)
    bust(api, t, ids["P0"])
    player_id = Entry.objects.get(pk=ids["P0"]).player_id
    before = world(t)
    refused(
        api.post(f"/tournaments/{t.pk}/entries", {"player_id": player_id}),
        409,
        "reentry_not_allowed",
    )
    assert world(t) == before


def test_reentry_is_a_new_entry_with_a_new_seat_and_full_price(api, structure, room):
    t = Tournament.objects.get(pk=create(api, structure, room, reentry_max=1).json()["id"])
    ids = started(api, t)
    assert t.rules_overrides == {"reentry_max": 1}
    bust(api, t, ids["P0"])
    player_id = Entry.objects.get(pk=ids["P0"]).player_id
    response = api.post(f"/tournaments/{t.pk}/entries", {"player_id": player_id})
    assert response.status_code == 201, response.json()
    row = response.json()
    assert row["number"] == 7 and row["status"] == "active" and row["table"] is not None
    assert LedgerEntry.objects.filter(entry_id=row["id"]).count() == 2
    assert AuditEntry.objects.filter(
        action="entry.register", summary__startswith="Re-entry"
    ).exists()
    data = summary(api, t)
    assert (data["entries"], data["prize_pool"], data["total_chips"]) == (7, 70_000, 280_000)
    bust(api, t, row["id"])
    refused(
        api.post(f"/tournaments/{t.pk}/entries", {"player_id": player_id}), 409, "reentry_limit"
    )


def test_reentry_closes_with_late_registration(api, structure, room):
    t = Tournament.objects.get(
        pk=create(api, structure, room, reentry_max=3, late_registration_level=1).json()["id"]
    )
    with time_machine.travel(T0, tick=False) as traveller:
        ids = started(api, t)
        bust(api, t, ids["P0"])
        traveller.shift(15 * MIN)
        player_id = Entry.objects.get(pk=ids["P0"]).player_id
        refused(
            api.post(f"/tournaments/{t.pk}/entries", {"player_id": player_id}),
            409,
            "registration_closed",
        )


# --- prize pool and receipts ---------------------------------------------------------------------


def test_guarantee_overlay(api, structure, room):
    t = Tournament.objects.get(pk=create(api, structure, room, guarantee=100_000).json()["id"])
    seat_players(api, t, ["A", "B", "C"])
    data = summary(api, t)
    assert (data["prize_money"], data["overlay"], data["prize_pool"]) == (30_000, 70_000, 100_000)


def test_receipts_one_per_transaction(api, director, client, rebuy_tournament):
    t = rebuy_tournament
    entry = started(api, t)["P0"]
    purchase = rebuy(api, t, entry, stack=10).json()
    api.post(f"/tournaments/{t.pk}/chip-purchases/{purchase['id']}/undo")
    client.force_login(director)
    page = client.get(purchase["receipt_url"])
    assert page.status_code == 200
    html = page.content.decode()
    assert purchase["receipt_number"] in html and "11,000" in html and "Rebuy" in html
    refund = client.get(f"/tournaments/{t.pk}/receipts/{purchase['receipt_number']}R/")
    assert refund.status_code == 200 and "Refund" in refund.content.decode()
    registration = client.get(f"/tournaments/{t.pk}/entries/{entry}/receipt/?print=1")
    assert registration.status_code == 302
    assert registration["Location"].endswith(f"/receipts/{t.pk}-0001/?print=1")
    assert client.get(f"/tournaments/{t.pk}/receipts/nope/").status_code == 404
    client.force_login(make_staff("viewer", "display"))
    assert client.get(purchase["receipt_url"]).status_code == 403


def test_purchases_are_listed(api, rebuy_tournament):
    t = rebuy_tournament
    ids = started(api, t)
    rebuy(api, t, ids["P0"], stack=1)
    rebuy(api, t, ids["P1"], stack=1)
    rows = api.get(f"/tournaments/{t.pk}/chip-purchases?entry_id={ids['P1']}").json()
    assert [r["entry_id"] for r in rows] == [ids["P1"]]
    assert len(api.get(f"/tournaments/{t.pk}/chip-purchases").json()) == 2


# --- the new-tournament page ---------------------------------------------------------------------


def test_new_tournament_page_takes_the_money_settings(client, director, structure, room):
    client.force_login(director)
    form = {
        "name": "Page rebuy",
        "structure": structure.pk,
        "room": room.pk,
        "house_rules": "tda2024",
        "starting_stack": 30_000,
        "buy_in": 10_000,
        "fee": 1_000,
        "waiting_list": "on",
        "rebuy_until_level": 6,
        "rebuy_condition": "busted",
        "rebuy_buy_in": 10_000,
        "rebuy_chips": 30_000,
        "reentry_max": 2,
        "guarantee": 500_000,
    }
    bad = client.post("/tournaments/new/", {**form, "rebuy_chips": 0})
    assert bad.status_code == 422
    assert "A rebuy must give chips" in bad.content.decode()
    assert not Tournament.objects.filter(name="Page rebuy").exists()
    assert 'id="money-settings"' in client.get("/").content.decode()
    response = client.post("/tournaments/new/", form)
    assert response.status_code == 302
    t = Tournament.objects.get(name="Page rebuy")
    assert (t.rebuy_until_level, t.rebuy_condition, t.rebuy_chips, t.rebuy_max) == (
        6,
        "busted",
        30_000,
        0,
    )
    assert (t.addon_level, t.guarantee, t.rules_overrides) == (None, 500_000, {"reentry_max": 2})


# --- the desk and the console -------------------------------------------------------------------


def test_desk_search_offers_rebuy_and_addon_with_the_reason_when_off(
    api, client, director, rebuy_tournament
):
    t = rebuy_tournament
    ids = started(api, t)
    client.force_login(director)
    html = client.get(f"/tournaments/{t.pk}/desk/search/?q=P1").content.decode()
    assert f'data-entry-id="{ids["P1"]}"' in html and "data-buy-first" in html
    assert 'data-buy="rebuy"' in html and 'name="stack"' in html  # at most the starting stack
    assert "11,000\xa0Ft" in html and "40,000 chips" in html
    assert "The add-on is taken during the break after level 4." in html  # off, with why
    bust(api, t, ids["P2"])
    html = client.get(f"/tournaments/{t.pk}/desk/search/?q=P2").content.decode()
    assert "Rebuy (back in)" in html and 'name="stack"' not in html
    assert "data-reenter" not in html  # rimoc has no re-entries


def test_desk_shows_the_purchase_with_receipt_and_undo(api, client, director, rebuy_tournament):
    t = rebuy_tournament
    entry = started(api, t)["P0"]
    purchase = rebuy(api, t, entry, stack=100).json()
    client.force_login(director)
    html = client.get(f"/tournaments/{t.pk}/desk/?purchase={purchase['id']}").content.decode()
    assert 'id="last-purchase"' in html and purchase["receipt_url"] in html
    assert f'data-purchase-undo="{purchase["undo_url"]}"' in html
    api.post(purchase["undo_url"].removeprefix("/api/v1"))
    html = client.get(f"/tournaments/{t.pk}/desk/?purchase={purchase['id']}").content.decode()
    assert "undone: refund 11,000\xa0Ft" in html and f"{purchase['receipt_number']}R" in html
    focus = client.get(f"/tournaments/{t.pk}/desk/?entry={entry}").content.decode()
    assert f'data-focus-entry="{entry}"' in focus and 'value="P0"' in focus


def test_console_bustout_toast_offers_the_rebuy(api, client, director, structure, room):
    t = Tournament.objects.get(
        pk=create(api, structure, room, rebuy_condition="busted").json()["id"]
    )
    ids = started(api, t, 4)
    client.force_login(director)
    response = client.post(
        f"/tournaments/{t.pk}/floor/bustout/",
        {"entry": str(ids["P0"])},
        headers={"HX-Request": "true"},
    )
    assert response.status_code == 204, response.content
    toast = json.loads(response["HX-Trigger"])["floor:done"]["toasts"][0]
    assert toast["link"] == {
        "href": f"/tournaments/{t.pk}/desk/?entry={ids['P0']}",
        "label": "Rebuy",
    }
    console = client.get(f"/tournaments/{t.pk}/").content.decode()
    assert 'data-stat="rebuys"' in console and 'data-stat="addons"' in console


def test_a_refund_at_the_desk_has_its_receipt(api, client, director, tournament):
    player_id = api.post("/players", {"name": "Refunded"}).json()["id"]
    entry = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player_id}).json()
    assert api.delete(f"/tournaments/{tournament.pk}/entries/{entry['id']}").status_code == 204
    client.force_login(director)
    url = f"/tournaments/{tournament.pk}/receipts/{tournament.pk}-0001R/"
    assert url in client.get(f"/tournaments/{tournament.pk}/desk/").content.decode()
    html = client.get(url).content.decode()
    assert "Refund · Entry" in html and "Paid to the player" in html and "12,000\xa0Ft" in html
