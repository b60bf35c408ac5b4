"""Payout structures, payouts and results through the API (docs/rules.md §12): refusals change
nothing; ties, hand-for-hand shares, a deal, disqualification and prizes paid at the cage."""

import pytest
from django.db import transaction
from django.utils import timezone

from tests.conftest import numbered_players, seat_players
from tests.factories import bust, results, start
from tourney.eliminations.operations import eliminations_apply
from tourney.models import AuditEntry, Deal, Entry, LedgerEntry, PayoutStructure, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _templates(payout_templates):
    """Every test here may read the built-in payout structures."""


def structure_body(name, *brackets):
    return {
        "name": name,
        "brackets": [
            {"min_entries": a, "max_entries": b, "percents": list(p)} for a, b, p in brackets
        ],
    }


def create_structure(api, *brackets, name="House"):
    response = api.post("/payout-structures", structure_body(name, *brackets))
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def use_structure(api, tournament, structure_id):
    response = api.put(
        f"/tournaments/{tournament.pk}/payout-structure", {"payout_structure_id": structure_id}
    )
    assert response.status_code == 200, response.json()
    return response.json()


def payouts(api, tournament):
    return [p["amount"] for p in api.get(f"/tournaments/{tournament.pk}/payouts").json()]


# --- structures ------------------------------------------------------------------------------


def test_templates_are_listed_and_read_only(api):
    listed = api.get("/payout-structures").json()
    templates = {s["template"]: s for s in listed if s["template"]}
    assert set(templates) == {"standard", "flat", "winner-heavy"}
    standard = templates["standard"]
    assert standard["brackets"][2]["percents"] == ["50", "30", "20"]
    response = api.put(
        f"/payout-structures/{standard['id']}", structure_body("x", (1, None, ("100",)))
    )
    assert response.status_code == 409 and response.json()["code"] == "payout_structure_is_template"
    copy = api.post(f"/payout-structures/{standard['id']}/copy")
    assert copy.status_code == 201 and copy.json()["template"] is None
    assert copy.json()["brackets"] == standard["brackets"]


def test_a_structure_not_summing_to_100_is_refused_naming_the_table(api, api_as):
    before = PayoutStructure.objects.count()
    body = structure_body(
        "Bad", (1, 7, ("100",)), (8, 12, ("50", "30", "15")), (13, None, ("100",))
    )
    response = api.post("/payout-structures", body)
    assert response.status_code == 422
    assert response.json()["code"] == "percent_sum"
    assert response.json()["detail"].startswith("8–12 entries:")
    assert "95 %" in response.json()["detail"]
    gap = api.post(
        "/payout-structures", structure_body("Gap", (1, 7, ("100",)), (9, None, ("100",)))
    )
    assert gap.json()["code"] == "bracket_gap"
    typo = api.post("/payout-structures", structure_body("Typo", (1, None, ("1OO",))))
    assert typo.status_code == 422 and typo.json()["code"] == "bad_percent"
    assert api_as("desk").post("/payout-structures", body).status_code == 403
    assert PayoutStructure.objects.count() == before


def test_preview_totals_and_sample_amounts_and_update(api):
    preview = api.post(
        "/payout-structures/preview",
        {**structure_body("P", (1, 5, ("100",)), (6, None, ("60", "30"))), "sample_pool": 100_000},
    ).json()
    assert not preview["valid"] and preview["error"]["code"] == "percent_sum"
    assert preview["error"]["bracket"] == 1
    assert [b["total_percent"] for b in preview["brackets"]] == ["100", "90"]
    good = api.post(
        "/payout-structures/preview",
        {
            **structure_body("P", (1, 5, ("100",)), (6, None, ("62.5", "37.5"))),
            "sample_pool": 100_000,
            "unit": 1_000,
        },
    ).json()
    assert good["valid"] and good["brackets"][1]["amounts"] == [63_000, 37_000]
    structure_id = create_structure(api, (1, None, ("100",)))
    response = api.put(
        f"/payout-structures/{structure_id}",
        structure_body("Renamed", (1, 3, ("100",)), (4, None, ("70", "30"))),
    )
    assert response.status_code == 200 and response.json()["name"] == "Renamed"
    assert AuditEntry.objects.filter(action="payout_structure.update").count() == 1


# --- payouts ---------------------------------------------------------------------------------


def test_payouts_follow_the_entries_and_sum_to_the_pool(api, tournament, api_as):
    assert api.get(f"/tournaments/{tournament.pk}/payouts").json() == []
    seat_players(api, tournament, numbered_players(7))
    assert payouts(api, tournament) == [45_500, 24_500]  # 70,000: 65/35
    player = api.post("/players", {"name": "Late"}).json()["id"]
    api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player})
    assert payouts(api, tournament) == [40_000, 24_000, 16_000]  # 8 entries: 50/30/20
    pool = api.get(f"/tournaments/{tournament.pk}").json()["prize_pool"]
    assert sum(payouts(api, tournament)) == pool == 80_000
    tournament.rules_overrides = {"money_rounding": 5_000}
    tournament.save(update_fields=["rules_overrides"])
    assert payouts(api, tournament) == [40_000, 25_000, 15_000]
    assert api_as("display").get(f"/tournaments/{tournament.pk}/payouts").status_code == 200


def test_choosing_a_structure_is_for_the_director_and_refuses_an_unknown_one(
    api, api_as, tournament
):
    seat_players(api, tournament, numbered_players(4))
    flat = PayoutStructure.objects.get(template_key="flat")
    assert use_structure(api, tournament, flat.pk)["payouts"] == [
        {"place": 1, "amount": 24_000, "ticket_to": None, "ticket": 0, "cash": 24_000},
        {"place": 2, "amount": 16_000, "ticket_to": None, "ticket": 0, "cash": 16_000},
    ]
    assert (
        api_as("floor")
        .put(f"/tournaments/{tournament.pk}/payout-structure", {"payout_structure_id": None})
        .status_code
        == 403
    )
    missing = api.put(
        f"/tournaments/{tournament.pk}/payout-structure", {"payout_structure_id": 99_999}
    )
    assert missing.status_code == 404
    short = create_structure(api, (1, 3, ("100",)), name="Small only")
    refused = api.put(
        f"/tournaments/{tournament.pk}/payout-structure", {"payout_structure_id": short}
    )
    assert refused.status_code == 409 and refused.json()["code"] == "no_bracket"
    tournament.refresh_from_db()
    assert tournament.payout_structure_id == flat.pk


# --- docs/rules.md §11.9 and §12.8 examples through the API ---------------------------------


def field(api, tournament, players, places, house_rules=None):
    """`players` seated and started, paying `places` places (1st 1 % more than the others)."""
    if house_rules:
        tournament.rules_overrides = house_rules
        tournament.save(update_fields=["rules_overrides"])
    first = 100 - (places - 1) * (100 // places)
    structure = create_structure(
        api,
        (1, places - 1, ("100",)),
        (places, None, (str(first), *[str(100 // places)] * (places - 1))),
    )
    use_structure(api, tournament, structure)
    ids = seat_players(api, tournament, numbered_players(players))
    start(api, tournament)
    return ids


def at_tables(tournament, count):
    """Entries at `count` different tables."""
    seen, out = set(), []
    for e in Entry.objects.filter(tournament=tournament, status="active").select_related(
        "tournament_table"
    ):
        if e.tournament_table.number not in seen:
            seen.add(e.tournament_table.number)
            out.append(e.pk)
    return out[:count]


def test_rules_11_example_2_equal_stacks_share_14th_and_15th(api, tournament):
    field(api, tournament, 15, 15)
    prizes = payouts(api, tournament)
    a, b = at_tables(tournament, 2)
    bust(api, tournament, (a, 8_000), (b, 8_000))
    rows = results(api, tournament)
    assert (rows[a]["place"], rows[a]["place_to"], rows[a]["tied"]) == (14, 15, True)
    assert rows[a]["prize"] == rows[b]["prize"] == (prizes[13] + prizes[14]) // 2


def test_rules_11_example_3_three_bust_hand_for_hand_and_share_the_50th_prize(api, tournament):
    field(api, tournament, 52, 50)
    prizes = payouts(api, tournament)
    assert len(prizes) == 50
    assert (
        api.put(f"/tournaments/{tournament.pk}/hand-for-hand", {"active": True}).status_code == 200
    )
    busted = at_tables(tournament, 3)
    for entry, stack in zip(busted, (9_000, 40_000, 2_000), strict=True):
        bust(api, tournament, (entry, stack))  # three tables report the same hand-for-hand hand
    rows = results(api, tournament)
    assert {(rows[e]["place"], rows[e]["place_to"]) for e in busted} == {(50, 52)}
    assert sum(rows[e]["prize"] for e in busted) == prizes[49]


def test_rules_11_example_4_wsop_two_tables_tie_for_50th_51st(api, tournament):
    field(api, tournament, 51, 50, {"h4h_mode": "wsop"})
    prizes = payouts(api, tournament)
    api.put(f"/tournaments/{tournament.pk}/hand-for-hand", {"active": True})
    a, b = at_tables(tournament, 2)
    bust(api, tournament, (a, 30_000))
    bust(api, tournament, (b, 5_000))
    rows = results(api, tournament)
    assert {(rows[e]["place"], rows[e]["place_to"]) for e in (a, b)} == {(50, 51)}
    assert rows[a]["prize"] + rows[b]["prize"] == prizes[49]


# --- deals, disqualification, paying -------------------------------------------------------


def test_deal_preview_refusals_change_nothing_then_the_deal_sets_the_prizes(
    api, api_as, tournament
):
    ids = seat_players(api, tournament, numbered_players(6))
    start(api, tournament)
    bust(api, tournament, (ids["P5"], None))
    bust(api, tournament, (ids["P4"], None))
    bust(api, tournament, (ids["P3"], None))  # 3 left: 1st 39,000, 2nd 21,000 of 60,000
    left = [ids["P0"], ids["P1"], ids["P2"]]
    url = f"/tournaments/{tournament.pk}/deals"
    stacks = [
        {"entry_id": e, "stack": s} for e, s in zip(left, (120_000, 80_000, 40_000), strict=True)
    ]
    quote = api.post(f"{url}/preview", {"method": "icm", "stacks": stacks}).json()
    assert quote["pool"] == 60_000 and sum(s["amount"] for s in quote["shares"]) == 60_000
    amounts = [s["amount"] for s in quote["shares"]]
    assert amounts == sorted(amounts, reverse=True)
    chop = api.post(
        f"{url}/preview", {"method": "chip_chop", "stacks": stacks, "left_to_play": 5_000}
    ).json()
    assert chop["pool"] == 55_000 and chop["left_to_play"] == 5_000
    for body, code in (
        ({"method": "icm", "stacks": stacks[:2]}, "deal_players"),
        (
            {"method": "icm", "stacks": [*stacks[:2], {"entry_id": ids["P3"], "stack": 1}]},
            "deal_players",
        ),
        (
            {"method": "icm", "stacks": [*stacks[:2], {"entry_id": left[2], "stack": -5}]},
            "bad_stack",
        ),
        ({"method": "icm", "stacks": stacks, "left_to_play": 50_000}, "left_to_play_invalid"),
        (
            {
                "method": "icm",
                "stacks": stacks,
                "amounts": [{"entry_id": e, "amount": 10_000} for e in left],
            },
            "deal_sum",
        ),
    ):
        for path in (f"{url}/preview", url):
            response = api.post(path, body)
            assert response.status_code == 422 and response.json()["code"] == code, (
                body,
                response.json(),
            )
    assert api_as("floor").post(url, {"method": "icm", "stacks": stacks}).status_code == 403
    assert Deal.objects.count() == 0
    agreed = [
        {"entry_id": e, "amount": a} for e, a in zip(left, (30_000, 20_000, 10_000), strict=True)
    ]
    made = api.post(url, {"method": "icm", "stacks": stacks, "amounts": agreed})
    assert made.status_code == 201 and made.json()["method"] == "custom"
    again = api.post(url, {"method": "icm", "stacks": stacks})
    assert again.status_code == 409 and again.json()["code"] == "deal_exists"
    # The short stack wins: the deal's amounts stand whatever place each finishes.
    bust(api, tournament, (ids["P0"], None))
    bust(api, tournament, (ids["P1"], None))
    rows = results(api, tournament)
    assert [rows[e]["prize"] for e in left] == [30_000, 20_000, 10_000]
    assert rows[ids["P2"]]["place"] == 1 and rows[ids["P3"]]["prize"] == 0
    assert all(rows[e]["deal"] for e in left)
    assert sum(r["prize"] for r in rows.values()) == 60_000
    paid = api.post(f"/tournaments/{tournament.pk}/results/{ids['P1']}/pay", {"method": "cash"})
    assert paid.status_code == 201 and paid.json()["amount"] == -20_000
    assert (
        api.post(f"/tournaments/{tournament.pk}/results/{ids['P1']}/pay").json()["code"]
        == "already_paid"
    )
    assert (
        api.post(f"/tournaments/{tournament.pk}/results/{ids['P4']}/pay").json()["code"]
        == "no_prize"
    )
    undo = api.post(f"{url}/{made.json()['id']}/undo")
    assert undo.status_code == 409 and undo.json()["code"] == "prizes_paid"
    assert LedgerEntry.objects.filter(kind="payout").count() == 1
    receipt = api.client.get(paid.json()["receipt_url"])
    assert receipt.status_code in (200, 302)


def test_deal_undo_restores_the_prizes_by_place(api, tournament):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    stacks = [{"entry_id": e, "stack": 40_000} for e in ids.values()]
    deal = api.post(
        f"/tournaments/{tournament.pk}/deals", {"method": "chip_chop", "stacks": stacks}
    ).json()
    assert [s["amount"] for s in deal["shares"]] == [10_000] * 4
    undone = api.post(f"/tournaments/{tournament.pk}/deals/{deal['id']}/undo")
    assert undone.status_code == 200 and undone.json()["undone"]
    assert (
        api.post(f"/tournaments/{tournament.pk}/deals/{deal['id']}/undo").json()["code"]
        == "deal_undone"
    )
    bust(api, tournament, (ids["P3"], None))
    bust(api, tournament, (ids["P2"], None))
    bust(api, tournament, (ids["P1"], None))
    rows = results(api, tournament)
    assert rows[ids["P0"]]["prize"] == 26_000 and not rows[ids["P0"]]["deal"]
    assert Tournament.objects.get(pk=tournament.pk).status == "finished"


def test_a_bust_out_before_a_standing_deal_is_not_undone(api, tournament):
    ids = seat_players(api, tournament, numbered_players(5))
    start(api, tournament)
    bust(api, tournament, (ids["P4"], None))
    stacks = [{"entry_id": ids[f"P{i}"], "stack": 50_000} for i in range(4)]
    deal = api.post(
        f"/tournaments/{tournament.pk}/deals", {"method": "chip_chop", "stacks": stacks}
    ).json()
    refused = api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['P4']}/undo")
    assert refused.status_code == 409 and refused.json()["code"] == "deal_made"
    assert Entry.objects.get(pk=ids["P4"]).status == "eliminated"
    api.post(f"/tournaments/{tournament.pk}/deals/{deal['id']}/undo")
    again = api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['P4']}/undo")
    assert again.status_code == 200, again.json()


def test_a_disqualified_player_forfeits_the_prize_and_it_is_reported(api, director, tournament):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    bust(api, tournament, (ids["P3"], None))
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entry = Entry.objects.select_related("player", "tournament_table").get(pk=ids["P2"])
        entry.disqualified_at = timezone.now()
        entry.save(update_fields=["disqualified_at"])
        eliminations_apply(
            actor=director, tournament=locked, busts=[(entry, None)], reason="disqualified"
        )
    bust(api, tournament, (ids["P1"], None))
    rows = results(api, tournament)
    # 4 entries: 65 / 35 of 40,000; the disqualified player finished 3rd, unpaid anyway.
    assert rows[ids["P2"]]["disqualified"] and rows[ids["P2"]]["prize"] == 0
    assert rows[ids["P1"]]["prize"] == 14_000 and rows[ids["P0"]]["prize"] == 26_000
    refused = api.post(f"/tournaments/{tournament.pk}/results/{ids['P2']}/pay")
    assert refused.status_code == 409 and refused.json()["code"] == "no_prize"


def test_a_disqualified_winner_forfeits(api, director, tournament):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    bust(api, tournament, (ids["P3"], None))
    bust(api, tournament, (ids["P2"], None))
    Entry.objects.filter(pk=ids["P1"]).update(disqualified_at=timezone.now())
    with transaction.atomic():
        locked = Tournament.objects.select_for_update().get(pk=tournament.pk)
        entry = Entry.objects.select_related("player", "tournament_table").get(pk=ids["P1"])
        eliminations_apply(
            actor=director, tournament=locked, busts=[(entry, None)], reason="disqualified"
        )
    rows = results(api, tournament)
    assert rows[ids["P1"]]["place"] == 2 and rows[ids["P1"]]["prize"] == 0
    assert rows[ids["P1"]]["forfeited"] == 14_000
    refused = api.post(f"/tournaments/{tournament.pk}/results/{ids['P1']}/pay")
    assert refused.json()["code"] == "prize_forfeited"
    assert api.post(f"/tournaments/{tournament.pk}/results/{ids['P0']}/pay").status_code == 201
    assert (
        api.post(f"/tournaments/{tournament.pk}/results/{ids['P0']}/pay").json()["code"]
        == "already_paid"
    )
    not_out = api.post(f"/tournaments/{tournament.pk}/results/99999/pay")
    assert not_out.status_code == 404


def test_a_new_tournament_picks_its_payout_structure(api, room, structure):
    flat = PayoutStructure.objects.get(template_key="flat")
    body = {
        "name": "Flat Friday",
        "structure_id": structure.pk,
        "starting_stack": 30_000,
        "buy_in": 5_000,
    }
    created = api.post("/tournaments", {**body, "payout_structure_id": flat.pk})
    assert created.status_code == 201 and created.json()["payout_structure_id"] == flat.pk
    missing = api.post("/tournaments", {**body, "payout_structure_id": 99_999})
    assert missing.status_code == 404 and missing.json()["code"] == "payout_structure_not_found"
    assert Tournament.objects.filter(name="Flat Friday").count() == 1


def test_a_disqualification_penalty_forfeits_the_prize_through_the_api(api, tournament):
    ids = seat_players(api, tournament, numbered_players(4))
    start(api, tournament)
    bust(api, tournament, (ids["P3"], None))
    bust(api, tournament, (ids["P2"], None))
    dq = api.post(
        f"/tournaments/{tournament.pk}/penalties",
        {"entry_id": ids["P1"], "kind": "disqualification", "reason": "Abuse", "chips": 60_000},
    )
    assert dq.status_code == 201, dq.json()
    rows = results(api, tournament)
    assert rows[ids["P1"]]["disqualified"] and rows[ids["P1"]]["place"] == 2
    assert (rows[ids["P1"]]["prize"], rows[ids["P1"]]["forfeited"]) == (0, 14_000)
    assert rows[ids["P0"]]["prize"] == 26_000
    assert sum(payouts(api, tournament)) == 40_000  # the payouts by place do not change
