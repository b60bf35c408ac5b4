"""A progressive-knockout evening through the API (docs/rules.md §16): 45 players to a winner,
split pots, a hand with two bust-outs and an undo; every bounty paid once, the winner's own
to him, the prize pool and the bounty pool equal to the buy-ins. And the refusals."""

import json
import random

import pytest
from django.urls import reverse

from clocks.display.selectors import display_state
from tests.conftest import friday_deepstack, numbered_players, seat_players
from tests.factories import start
from tests.tourney.settings_form import form_data
from tourney.models import AuditEntry, Elimination, Entry, Tournament

pytestmark = pytest.mark.django_db

PRICE, BOUNTY = 10_000, 5_000


@pytest.fixture
def pko(api, room, structure) -> Tournament:
    created = api.post(
        "/tournaments",
        {
            "name": "PKO Friday",
            "structure_id": structure.pk,
            "starting_stack": 20_000,
            "buy_in": PRICE,
            "fee": 1_000,
            "room_id": room.pk,
            "bounty": {"kind": "progressive", "amount": BOUNTY},
        },
    )
    assert created.status_code == 201, created.json()
    assert created.json()["bounty"] == {"kind": "progressive", "amount": 5_000, "cash_percent": 50}
    return Tournament.objects.get(pk=created.json()["id"])


def _bust(api, t, *busts):
    response = api.post(
        f"/tournaments/{t.pk}/eliminations",
        {"eliminations": [{"entry_id": e, "busted_by": list(w)} for e, w in busts]},
    )
    assert response.status_code == 200, response.json()
    return {r["entry_id"]: r["bounties"] for r in response.json()["results"]}


def _left(t) -> list[int]:
    return list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def test_a_pko_of_45_to_a_winner_pays_every_bounty_once(api, pko):
    seat_players(api, pko, numbered_players(45))
    start(api, pko)
    rng = random.Random(45)
    heads_before_undo = None
    while len(left := _left(pko)) > 1:
        busted = rng.choice(left)
        others = [e for e in left if e != busted]
        winners = rng.sample(others, k=min(len(others), rng.choice([1, 1, 1, 2, 3])))
        if len(left) == 30:
            # A hand with two bust-outs, each pot with its own winner.
            second = rng.choice([e for e in others if e not in winners])
            survivors = [e for e in others if e != second]
            paid = _bust(api, pko, (busted, winners[:1]), (second, [survivors[0]]))
            assert set(paid) >= {busted, second}
            continue
        paid = _bust(api, pko, (busted, winners))
        assert sum(b["amount"] + b["to_head"] for b in paid[busted]) > 0
        assert sorted(b["entry_id"] for b in paid[busted]) == sorted(winners)
        if len(left) == 20:
            heads_before_undo = api.get(f"/tournaments/{pko.pk}/bounties").json()
            undone = api.post(f"/tournaments/{pko.pk}/eliminations/{busted}/undo")
            assert undone.status_code == 200, undone.json()
            rows = {r["entry_id"]: r for r in api.get(f"/tournaments/{pko.pk}/bounties").json()}
            # the undo took the bounty back: the busted head is back, the winners' cash less
            assert rows[busted]["on_head"] > 0
            assert sum(r["won"] for r in rows.values()) < sum(r["won"] for r in heads_before_undo)
            _bust(api, pko, (busted, winners))
    pko.refresh_from_db()
    assert pko.status == Tournament.Status.FINISHED
    rows = api.get(f"/tournaments/{pko.pk}/bounties").json()
    assert len(rows) == 45 and all(r["on_head"] == 0 for r in rows)
    summary = api.get(f"/tournaments/{pko.pk}").json()
    assert summary["bounty_pool"] == 45 * BOUNTY
    assert sum(r["won"] for r in rows) == summary["bounty_pool"]
    assert summary["prize_pool"] + summary["bounty_pool"] == 45 * PRICE
    champion = left[0]
    won = {r["entry_id"]: r["won"] for r in rows}
    assert won[champion] > 0
    # the results list each player's bounties beside his prize
    results = api.get(f"/tournaments/{pko.pk}/results").json()
    assert {r["entry_id"]: r["bounties"] for r in results} == won
    # every standing bust-out names its winners, each paid once
    standing = Elimination.objects.filter(tournament=pko, undone_at__isnull=True)
    assert standing.count() == 44 and not standing.filter(busted_by=[]).exists()
    # one audit a hand: 43 hands (one with two bust-outs) and the one busted again after the undo
    assert AuditEntry.objects.filter(tournament=pko, action="bounty.winners").count() == 44


def test_refusals_change_nothing(api, pko, director, structure, room):
    ids = seat_players(api, pko, numbered_players(6))
    start(api, pko)
    a, b, c = ids["P0"], ids["P1"], ids["P2"]
    path = f"/tournaments/{pko.pk}/eliminations"
    for body, code in (
        ({"eliminations": [{"entry_id": a, "busted_by": [a]}]}, "invalid_busted_by"),
        ({"eliminations": [{"entry_id": a, "busted_by": [b, b]}]}, "invalid_busted_by"),
        ({"eliminations": [{"entry_id": a, "busted_by": [999_999]}]}, "winner_not_playing"),
        (
            {"eliminations": [{"entry_id": a, "busted_by": [b]}, {"entry_id": b}]},
            "winner_not_playing",
        ),
        ({"eliminations": [{"entry_id": a, "busted_by": "P1"}]}, None),
        ({"eliminations": [{"entry_id": a, "busted_by": [b] * 11}]}, None),
    ):
        response = api.post(path, body)
        assert response.status_code in (400, 422), response.json()
        if code:
            assert response.json()["code"] == code
    assert not Elimination.objects.filter(tournament=pko).exists()
    _bust(api, pko, (a, [b, c]))
    # a bust-out with no winner named is kept; its bounty waits, unclaimed
    _bust(api, pko, (ids["P3"], []))
    rows = {r["entry_id"]: r for r in api.get(f"/tournaments/{pko.pk}/bounties").json()}
    assert rows[b]["won"] + rows[c]["won"] == 2_500 and rows[ids["P3"]]["on_head"] == 0

    plain = friday_deepstack(director, structure, room, name="No bounties")
    plain_ids = seat_players(api, plain, numbered_players(3))
    start(api, plain)
    p0, p1 = plain_ids["P0"], plain_ids["P1"]
    refused = api.post(
        f"/tournaments/{plain.pk}/eliminations",
        {"eliminations": [{"entry_id": p0, "busted_by": [p1]}]},
    )
    assert refused.status_code == 409 and refused.json()["code"] == "not_a_bounty_tournament"
    assert api.get(f"/tournaments/{plain.pk}/bounties").json() == []


@pytest.mark.parametrize(
    "bounty",
    [
        {"kind": "mystery-box", "amount": 5},
        {"kind": "knockout", "amount": 0},
        {"kind": "knockout", "amount": PRICE + 1},
        {"kind": "progressive", "amount": 5, "cash_percent": 101},
        {"kind": "knockout", "amount": "\x00"},
        ["knockout"],
    ],
)
def test_a_bounty_that_cannot_be_is_refused(api, room, structure, bounty):
    before = Tournament.objects.count()
    response = api.post(
        "/tournaments",
        {
            "name": "Bad bounty",
            "structure_id": structure.pk,
            "starting_stack": 20_000,
            "buy_in": PRICE,
            "room_id": room.pk,
            "bounty": bounty,
        },
    )
    assert response.status_code in (400, 422), response.json()
    assert set(response.json()) >= {"code", "detail"}
    assert Tournament.objects.count() == before


def test_the_pots_winners_named_later_on_the_bounties_page(api, pko, director_client):
    """A bust-out recorded without its winners: the bounties page lists it with the players
    of its table; the floor ticks the winner; a winner out before it is refused."""
    ids = seat_players(api, pko, numbered_players(6))
    start(api, pko)
    a, b, c = ids["P0"], ids["P1"], ids["P2"]
    _bust(api, pko, (a, []))
    page = director_client.get(f"/tournaments/{pko.pk}/bounties/")
    assert page.status_code == 200
    assert f'data-bust="{a}"' in page.content.decode()
    url = f"/tournaments/{pko.pk}/bounties/winners/"
    for body in (
        {"entry": a, "won_by": [a]},
        {"entry": a, "won_by": ["x"]},
        {"entry": "\x00", "won_by": [b]},
        {"entry": a},
        {"entry": b, "won_by": [c]},  # not busted
        {"entry": a, "won_by": [999_999]},
    ):
        refused = director_client.post(url, body, HTTP_HX_REQUEST="true")
        assert refused.status_code == 422, body
    assert Elimination.objects.get(entry_id=a, undone_at__isnull=True).busted_by == []
    named = director_client.post(url, {"entry": a, "won_by": [b]}, HTTP_HX_REQUEST="true")
    assert named.status_code == 204
    rows = {r["entry_id"]: r for r in api.get(f"/tournaments/{pko.pk}/bounties").json()}
    assert rows[b]["won"] == 2_500 and rows[b]["on_head"] == 7_500
    # C busts B (C wins); then B is named, too late, the winner of a bust-out after his own
    _bust(api, pko, (b, [c]))
    _bust(api, pko, (ids["P3"], []))
    late = director_client.post(url, {"entry": ids["P3"], "won_by": [b]}, HTTP_HX_REQUEST="true")
    assert late.status_code == 422
    assert Elimination.objects.get(entry_id=ids["P3"], undone_at__isnull=True).busted_by == []
    assert AuditEntry.objects.filter(tournament=pko, action="bounty.winners").count() == 2


def test_the_new_tournament_page_makes_a_bounty_tournament(client, director, structure, room):
    client.force_login(director)
    form = {
        "name": "Page PKO",
        "structure": structure.pk,
        "room": room.pk,
        "house_rules": "tda2024",
        "starting_stack": 30_000,
        "buy_in": 10_000,
        "fee": 1_000,
        "rebuy_condition": "at_most_start",
        "bounty_kind": "progressive",
        "bounty_amount": 4_000,
        "bounty_cash_percent": 40,
    }
    for bad in ({"bounty_amount": 10_001}, {"bounty_amount": ""}, {"bounty_cash_percent": 101}):
        assert client.post("/tournaments/new/", {**form, **bad}).status_code == 422
    assert not Tournament.objects.filter(name="Page PKO").exists()
    assert client.post("/tournaments/new/", form).status_code == 302
    t = Tournament.objects.get(name="Page PKO")
    assert t.bounty == {"kind": "progressive", "amount": 4_000, "cash_percent": 40}
    assert client.post("/tournaments/new/", {**form, "name": "Plain", "bounty_kind": ""})
    assert Tournament.objects.get(name="Plain").bounty == {}


def test_a_console_bust_out_without_the_winner_points_to_the_bounties_page(
    api, pko, director_client
):
    ids = seat_players(api, pko, numbered_players(4))
    start(api, pko)
    response = director_client.post(
        f"/tournaments/{pko.pk}/floor/bustout/", {"entry": ids["P0"]}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 204
    toasts = json.loads(response["HX-Trigger"])["floor:done"]["toasts"]
    assert any(t.get("link", {}).get("href") == f"/tournaments/{pko.pk}/bounties/" for t in toasts)
    # with the winner ticked (the dealer page's dialog), no such toast
    response = director_client.post(
        f"/tournaments/{pko.pk}/floor/bustout/",
        {"entry": ids["P1"], "won_by": [ids["P2"]]},
        HTTP_HX_REQUEST="true",
    )
    toasts = json.loads(response["HX-Trigger"])["floor:done"]["toasts"]
    assert not any("link" in t and "bounties" in t["link"]["href"] for t in toasts)
    assert Elimination.objects.get(entry_id=ids["P1"], undone_at__isnull=True).busted_by == [
        ids["P2"]
    ]


def test_a_bounty_is_set_or_removed_by_patch_until_an_entry_is_paid(api, tournament):
    path = f"/tournaments/{tournament.pk}"
    made = api.patch(path, {"bounty": {"kind": "knockout", "amount": 3_000}})
    assert made.status_code == 200, made.json()
    assert made.json()["bounty"] == {"kind": "knockout", "amount": 3_000}
    for bad in (
        {"kind": "knockout", "amount": 10_001},
        {"kind": "knockout", "amount": True},
        {"kind": "knockout", "amount": 5, "colour": "red"},
        {"kind": "\x00", "amount": 5},
        ["knockout"],
        "knockout",
    ):
        refused = api.patch(path, {"bounty": bad})
        assert refused.status_code in (400, 422), (bad, refused.json())
        assert set(refused.json()) >= {"code", "detail"}
    assert Tournament.objects.get(pk=tournament.pk).bounty == {"kind": "knockout", "amount": 3_000}
    assert api.patch(path, {"bounty": {}}).json()["bounty"] == {}
    seat_players(api, tournament, numbered_players(2))
    locked = api.patch(path, {"bounty": {"kind": "progressive", "amount": 1_000}})
    assert locked.status_code == 409 and locked.json()["code"] == "money_taken"


def test_the_settings_page_sets_the_bounty_and_locks_it_once_paid(api, director_client, tournament):
    url = reverse("tourney:tournament_settings", args=[tournament.pk])
    data = form_data(director_client, tournament)
    data.update(bounty_kind="progressive", bounty_amount="4000", bounty_cash_percent="40")
    saved = director_client.post(url, data)
    assert saved.status_code == 302, saved.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.bounty == {"kind": "progressive", "amount": 4_000, "cash_percent": 40}
    # saving again with nothing changed, after an entry is paid: the bounty is read-only
    seat_players(api, tournament, numbered_players(2))
    data = form_data(director_client, tournament)
    assert "bounty_kind" not in data  # disabled
    data.update(name="Friday PKO")
    again = director_client.post(url, data)
    assert again.status_code == 302, again.context["form"].errors
    tournament.refresh_from_db()
    assert tournament.name == "Friday PKO" and tournament.bounty["amount"] == 4_000


def test_the_cage_pays_the_prize_and_the_bounties_won_on_one_receipt(api, pko, director_client):
    """A progressive knockout of 9: the winner is paid his prize and his bounties (his own
    head too) on one receipt of two lines; a player out of the money who won a bounty is paid
    the bounty alone; one who won nothing is refused."""
    ids = seat_players(api, pko, numbered_players(9))
    start(api, pko)
    hunter, prey, idle = ids["P0"], ids["P1"], ids["P2"]
    _bust(api, pko, (prey, [hunter]))  # 5,000: 2,500 cash, 2,500 onto the hunter's head
    _bust(api, pko, (idle, []))
    won = {r["entry_id"]: r["won"] for r in api.get(f"/tournaments/{pko.pk}/bounties").json()}
    assert won[hunter] == 2_500
    url = f"/tournaments/{pko.pk}/results"
    assert api.post(f"{url}/{hunter}/pay").json()["code"] == "not_finished"
    _bust(api, pko, (hunter, [ids["P3"]]))
    paid = api.post(f"{url}/{hunter}/pay", {"method": "cash"})
    assert paid.status_code == 201 and paid.json()["amount"] == -2_500  # out of the money
    nothing = api.post(f"{url}/{idle}/pay")
    assert nothing.status_code == 409 and nothing.json()["code"] == "no_prize"
    while len(left := _left(pko)) > 1:
        _bust(api, pko, (left[0], [left[1]]))
    champion = _left(pko)[0]
    rows = {r["entry_id"]: r for r in api.get(url).json()}
    owed = rows[champion]["prize"] + rows[champion]["bounties"]
    paid = api.post(f"{url}/{champion}/pay", {"method": "card"})
    assert paid.status_code == 201 and paid.json()["amount"] == -owed
    receipt = director_client.get(paid.json()["receipt_url"]).content.decode()
    assert "Bounties won" in receipt and "Prize" in receipt  # two lines, one receipt
    assert api.post(f"{url}/{champion}/pay").json()["code"] == "already_paid"


def test_the_tvs_seat_moves_say_the_bounty_on_each_head(api, pko):
    """A late entry's seat is a move on the TV; in a bounty tournament it says his bounty."""
    seat_players(api, pko, numbered_players(9))
    start(api, pko)
    late = api.post("/players", {"name": "Late Lajos"}).json()["id"]
    entry = api.post(f"/tournaments/{pko.pk}/entries", {"player_id": late}).json()
    moves = display_state(Tournament.objects.get(pk=pko.pk))["recent_moves"]
    mine = next(m for m in moves if m["entry_id"] == entry["id"])
    assert mine["bounty"] == BOUNTY


def test_a_rebuy_buys_a_new_bounty_and_the_first_one_stays_paid(api, structure, room):
    """A knockout with rebuys for busted players: P1 busts P0, who rebuys (his bust-out is
    taken back, not its bounty), then P2 busts P0 again. Each entry and each rebuy bought a
    bounty; the bounty pool and the prize pool are the buy-ins to the unit."""
    created = api.post(
        "/tournaments",
        {"name": "KO rebuy", "structure_id": structure.pk, "starting_stack": 20_000,
         "buy_in": PRICE, "fee": 1_000, "room_id": room.pk, "house_rules": "rimoc",
         "bounty": {"kind": "knockout", "amount": BOUNTY}, "rebuy_until_level": 4,
         "rebuy_condition": "busted", "rebuy_buy_in": PRICE, "rebuy_fee": 1_000,
         "rebuy_chips": 20_000},
    )  # fmt: skip
    assert created.status_code == 201, created.json()
    t = Tournament.objects.get(pk=created.json()["id"])
    ids = seat_players(api, t, numbered_players(6))
    assert api.post(f"/tournaments/{t.pk}/clock/start").status_code == 200
    p0, p1, p2 = ids["P0"], ids["P1"], ids["P2"]
    _bust(api, t, (p0, [p1]))
    bought = api.post(f"/tournaments/{t.pk}/entries/{p0}/rebuy", {})
    assert bought.status_code == 201 and bought.json()["revived"] is True
    rows = {r["entry_id"]: r for r in api.get(f"/tournaments/{t.pk}/bounties").json()}
    assert rows[p1]["won"] == BOUNTY and rows[p0]["on_head"] == BOUNTY  # a new head
    _bust(api, t, (p0, [p2]))
    rows = {r["entry_id"]: r for r in api.get(f"/tournaments/{t.pk}/bounties").json()}
    assert (rows[p1]["won"], rows[p2]["won"], rows[p0]["on_head"]) == (BOUNTY, BOUNTY, 0)
    got = api.get(f"/tournaments/{t.pk}").json()
    assert got["bounty_pool"] == 7 * BOUNTY  # six entries and a rebuy
    assert got["prize_pool"] + got["bounty_pool"] == 7 * PRICE
    assert sum(r["won"] + r["on_head"] for r in rows.values()) == 7 * BOUNTY
