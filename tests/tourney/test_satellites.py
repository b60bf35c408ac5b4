"""A satellite through the API (docs/rules.md §17): 37 players whose prize pool buys 7 seats of
its target and leaves 20,000; the leftover by each house rule; it finishes at 7 players left,
each with a ticket; the 7 register in the target on their tickets (its ledger shows tickets,
its prize pool counts them). An undo at the bubble voids the tickets. Transfer, cash-out, undo,
and the refusals."""

import pytest
from django.test import Client
from django.urls import reverse

from tables.models import FloorAction
from tests.conftest import numbered_players, seat_players
from tests.factories import start
from tests.tourney.settings_form import form_data
from tourney.models import AuditEntry, Entry, LedgerEntry, Ticket, Tournament
from tourney.payouts.selectors import payout_ladder

pytestmark = pytest.mark.django_db

SEAT = (45_000, 5_000)  # the target's buy-in and fee: a seat is worth 50,000


def _tournament(api, room, structure, name, buy_in, fee, **extra) -> Tournament:
    created = api.post(
        "/tournaments",
        {
            "name": name,
            "structure_id": structure.pk,
            "starting_stack": 10_000,
            "buy_in": buy_in,
            "fee": fee,
            "room_id": room.pk,
            **extra,
        },
    )
    assert created.status_code == 201, created.json()
    return Tournament.objects.get(pk=created.json()["id"])


@pytest.fixture
def target(api, room, structure) -> Tournament:
    return _tournament(api, room, structure, "Main Event", *SEAT)


def _satellite(api, room, structure, target, leftover="next_place") -> Tournament:
    terms = {"target_id": target.pk, "leftover": leftover}
    return _tournament(api, room, structure, "Mega satellite", 10_000, 1_000, satellite=terms)


def _left(t) -> list[int]:
    return list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _bust_down_to(api, t, players: int) -> None:
    while len(left := _left(t)) > players:
        response = api.post(
            f"/tournaments/{t.pk}/eliminations", {"eliminations": [{"entry_id": left[0]}]}
        )
        assert response.status_code == 200, response.json()


@pytest.mark.parametrize(
    ("leftover", "eighth"),
    [
        ("next_place", {"amount": 20_000, "ticket": 0, "cash": 20_000, "ticket_to": None}),
        ("partial_seat", {"amount": 20_000, "ticket": 20_000, "cash": 0}),
        ("shared", None),
    ],
)
def test_37_players_win_7_seats_and_register_on_their_tickets(
    api, room, structure, target, leftover, eighth
):
    sat = _satellite(api, room, structure, target, leftover)
    seat_players(api, sat, numbered_players(37))
    start(api, sat)
    got = api.get(f"/tournaments/{sat.pk}").json()
    assert got["prize_pool"] == 370_000
    assert got["satellite"] | {"target_name": ""} == {
        "target_id": target.pk,
        "target_name": "",
        "seat_value": 50_000,
        "seats": 7,
        "leftover": 20_000,
        "leftover_rule": leftover,
        "tickets": 0,
    }
    payouts = api.get(f"/tournaments/{sat.pk}/payouts").json()
    rows = payouts if isinstance(payouts, list) else payouts["payouts"]
    seats = [r for r in rows if r.get("ticket") == 50_000]
    assert len(seats) == 7 and all(r["ticket_to"] == target.pk for r in seats)
    assert sum(r["amount"] for r in rows) == 370_000  # to the unit
    if eighth is not None:
        assert rows[7].items() >= eighth.items()
    else:
        assert len(rows) == 7 and sorted({r["cash"] for r in rows}) == [2_857, 2_858]

    _bust_down_to(api, sat, 8)
    assert Tournament.objects.get(pk=sat.pk).status == "running"
    ladder = payout_ladder(Tournament.objects.get(pk=sat.pk))["payout_ladder"]
    assert ladder["bubble"] and ladder["places_paid"] == 7  # the last seat's bubble
    _bust_down_to(api, sat, 7)  # the bubble: the 7 left each win a seat
    sat.refresh_from_db()
    assert sat.status == "finished"
    # Over: the floor's moves not confirmed yet are void, and nothing new is planned.
    assert not FloorAction.objects.filter(tournament=sat, status="pending").exists()
    tickets = Ticket.objects.filter(source=sat).order_by("pk")
    seat_tickets = [t for t in tickets if t.value == 50_000]
    assert len(seat_tickets) == 7
    assert {t.source_entry_id for t in seat_tickets} == set(_left(sat))
    assert len(tickets) == (8 if leftover == "partial_seat" else 7)
    results = api.get(f"/tournaments/{sat.pk}/results").json()
    result_rows = results if isinstance(results, list) else results["results"]
    winners = [r for r in result_rows if r["place"] == 1]
    assert len(winners) == 7 and all(r["ticket"] == 50_000 for r in winners)
    finish = AuditEntry.objects.filter(tournament=sat, action="tournament.finish").get()
    assert len(finish.after["tickets"]) == len(tickets)

    # The target's desk: each seat winner registers on his ticket, no cash.
    for ticket in seat_tickets:
        mine = api.get(f"/players/{ticket.player_id}/tickets").json()
        assert [(t["id"], t["status"]) for t in mine] == [(ticket.pk, "active")]
        entry = api.post(
            f"/tournaments/{target.pk}/entries",
            {"player_id": ticket.player_id, "ticket_id": ticket.pk},
        )
        assert entry.status_code == 201, entry.json()
    ledger = LedgerEntry.objects.filter(tournament=target)
    assert set(ledger.values_list("method", flat=True)) == {"ticket"}
    assert api.get(f"/tournaments/{target.pk}").json()["prize_pool"] == 7 * 45_000
    assert Ticket.objects.filter(source=sat, status="used").count() == 7


def test_an_undo_at_the_bubble_voids_the_tickets_and_the_seats_go_again(
    api, room, structure, target
):
    sat = _satellite(api, room, structure, target)
    seat_players(api, sat, numbered_players(37))
    start(api, sat)
    _bust_down_to(api, sat, 8)
    last = _left(sat)[0]
    _bust_down_to(api, sat, 7)
    assert Ticket.objects.filter(source=sat, status="active").count() == 7
    undone = api.post(f"/tournaments/{sat.pk}/eliminations/{last}/undo")
    assert undone.status_code == 200, undone.json()
    sat.refresh_from_db()
    assert sat.status == "running"
    assert Ticket.objects.filter(source=sat).exclude(status="void").count() == 0
    assert not Entry.objects.filter(tournament=sat, place=1).exists()
    _bust_down_to(api, sat, 7)
    assert Ticket.objects.filter(source=sat, status="active").count() == 7

    # A used ticket holds the finish: the undo is refused until the entry is refunded.
    ticket = Ticket.objects.filter(source=sat).exclude(status="void").first()
    entry = api.post(
        f"/tournaments/{target.pk}/entries",
        {"player_id": ticket.player_id, "ticket_id": ticket.pk},
    ).json()
    last = Entry.objects.filter(tournament=sat, status="eliminated").order_by("-ended_at").first()
    refused = api.post(f"/tournaments/{sat.pk}/eliminations/{last.pk}/undo")
    assert refused.status_code == 409 and refused.json()["code"] == "ticket_used"
    refund = api.delete(f"/tournaments/{target.pk}/entries/{entry['id']}")
    assert refund.status_code == 204
    ticket.refresh_from_db()
    assert ticket.status == "active" and ticket.entry_id is None


def test_a_hand_that_would_split_the_last_seat_is_refused(api, room, structure, target):
    sat = _satellite(api, room, structure, target)
    seat_players(api, sat, numbered_players(37))
    start(api, sat)
    _bust_down_to(api, sat, 8)
    two = _left(sat)[:2]  # busted in one hand: 6 left, and they would share 7th and 8th
    response = api.post(
        f"/tournaments/{sat.pk}/eliminations",
        {"eliminations": [{"entry_id": e} for e in two]},
    )
    assert response.status_code == 409 and response.json()["code"] == "seat_tie"
    assert len(_left(sat)) == 8  # nothing changed
    response = api.post(
        f"/tournaments/{sat.pk}/eliminations",
        {"eliminations": [{"entry_id": two[0], "hand_start_stack": 5_000},
                          {"entry_id": two[1], "hand_start_stack": 8_000}]},
    )  # fmt: skip
    assert response.status_code == 200, response.json()
    # The six left and the bigger stack of the hand (7th) win a seat; 8th the leftover.
    assert set(Ticket.objects.filter(source=sat).values_list("source_entry_id", flat=True)) == {
        *_left(sat),
        two[1],
    }


def test_a_ticket_is_transferred_cashed_out_and_each_step_undone(api, room, structure, target):
    sat = _satellite(api, room, structure, target)
    other = _tournament(api, room, structure, "Sunday 50K", *SEAT)
    dearer = _tournament(api, room, structure, "High roller", 100_000, 10_000)
    seat_players(api, sat, numbered_players(37))
    start(api, sat)
    _bust_down_to(api, sat, 7)
    ticket = Ticket.objects.filter(source=sat).first()
    url = f"/tickets/{ticket.pk}"

    refused = api.post(f"{url}/transfer", {"target_id": dearer.pk})
    assert refused.status_code == 409 and refused.json()["code"] == "ticket_value_differs"
    moved = api.post(f"{url}/transfer", {"target_id": other.pk})
    assert moved.status_code == 200 and moved.json()["target_id"] == other.pk
    wrong_event = api.post(
        f"/tournaments/{target.pk}/entries", {"player_id": ticket.player_id, "ticket_id": ticket.pk}
    )
    assert wrong_event.json()["code"] == "ticket_other_event"
    back = api.post(f"{url}/undo")
    assert back.status_code == 200 and back.json()["target_id"] == target.pk

    cashed = api.post(f"{url}/cash-out", {"method": "cash"})
    assert cashed.status_code == 200 and cashed.json()["status"] == "cashed_out"
    paid = LedgerEntry.objects.filter(tournament=sat, kind="payout")
    assert sum(paid.values_list("amount", flat=True)) == -50_000
    results = api.get(f"/tournaments/{sat.pk}/results").json()
    result_rows = results if isinstance(results, list) else results["results"]
    row = next(r for r in result_rows if r["entry_id"] == ticket.source_entry_id)
    assert (row["ticket"], row["prize"], row["paid"]) == (0, 50_000, 50_000)
    used = api.post(
        f"/tournaments/{target.pk}/entries", {"player_id": ticket.player_id, "ticket_id": ticket.pk}
    )
    assert used.json()["code"] == "ticket_not_active"
    assert api.post(f"{url}/undo").json()["status"] == "active"
    assert sum(paid.values_list("amount", flat=True)) == 0
    assert api.post(f"{url}/undo").json()["code"] == "nothing_to_undo"
    actions = AuditEntry.objects.filter(target_type="ticket", target_id=ticket.pk)
    assert list(actions.order_by("id").values_list("action", flat=True)) == [
        "ticket.transfer", "ticket.undo", "ticket.cash_out", "ticket.undo",
    ]  # fmt: skip


def test_bad_satellite_terms_and_tickets_are_refused(api, room, structure, target):
    for terms, code in [
        ({"target_id": 999_999}, "invalid_target"),
        ({"target_id": target.pk, "seat_value": 0}, None),
        ({"target_id": target.pk, "leftover": "to_the_house"}, None),
        ({"target_id": "x"}, None),
    ]:
        response = api.post(
            "/tournaments",
            {"name": "Sat", "structure_id": structure.pk, "starting_stack": 1_000,
             "buy_in": 100, "room_id": room.pk, "satellite": terms},
        )  # fmt: skip
        assert response.status_code in (400, 422), response.json()
        if code:
            assert response.json()["code"] == code
    sat = _satellite(api, room, structure, target)
    patched = api.patch(f"/tournaments/{sat.pk}", {"satellite": {"target_id": sat.pk}})
    assert patched.status_code == 422 and patched.json()["code"] == "invalid_target"
    assert api.get("/players/999999/tickets").status_code == 404
    assert api.post("/tickets/999999/undo").json()["code"] == "ticket_not_found"
    player = api.post("/players", {"name": "Kiss Anna"}).json()["id"]
    nobody = api.post(f"/tournaments/{target.pk}/entries", {"player_id": player, "ticket_id": 1})
    assert nobody.status_code == 404
    assert not Entry.objects.filter(tournament=target).exists()


def test_the_desk_registers_a_seat_winner_on_his_ticket(api, room, structure, target, director):
    """The desk of the target: the search marks the player holding a ticket, "Ticket" is a way
    to pay, and the player's page lists his tickets."""
    sat = _satellite(api, room, structure, target)
    seat_players(api, sat, numbered_players(37))
    start(api, sat)
    _bust_down_to(api, sat, 7)
    ticket = Ticket.objects.filter(source=sat).select_related("player").first()
    desk = Client()
    desk.force_login(director)
    found = desk.get(
        reverse("tourney:desk_search", args=[target.pk]), {"q": ticket.player.name}
    ).content.decode()
    assert "data-has-ticket" in found
    page = desk.get(reverse("tourney:desk", args=[target.pk])).content.decode()
    assert 'value="ticket"' in page
    player_page = desk.get(reverse("penalties:player", args=[ticket.player_id])).content.decode()
    assert 'id="player-tickets"' in player_page and "Main Event" in player_page

    nobody = api.post("/players", {"name": "Kiss Anna"}).json()["id"]
    register = reverse("tourney:desk_register", args=[target.pk])
    desk.post(register, {"player_id": nobody, "method": "ticket"})
    assert not Entry.objects.filter(tournament=target).exists()
    desk.post(register, {"player_id": ticket.player_id, "method": "ticket"})
    entry = Entry.objects.get(tournament=target)
    ticket.refresh_from_db()
    assert (ticket.status, ticket.entry_id) == ("used", entry.pk)
    assert set(LedgerEntry.objects.filter(entry=entry).values_list("method", flat=True)) == {
        "ticket"
    }


def test_the_pages_make_a_tournament_a_satellite_and_change_its_terms(
    director_client, structure, room, target
):
    """The new-tournament form's satellite section, then the settings page's."""
    data = {
        "name": "Mega satellite",
        "structure": structure.pk,
        "room": room.pk,
        "house_rules": "tda2024",
        "starting_stack": "10000",
        "buy_in": "10000",
        "fee": "1000",
        "rebuy_condition": "at_most_start",
        "waiting_list": "on",
        "satellite_target": str(target.pk),
        "satellite_leftover": "shared",
    }
    home = director_client.get(reverse("tourney:home")).content.decode()
    assert 'id="satellite-settings"' in home and "Main Event" in home
    created = director_client.post(reverse("tourney:tournament_new"), data)
    assert created.status_code == 302
    sat = Tournament.objects.get(name="Mega satellite")
    assert sat.satellite == {
        "target_id": target.pk, "seat_value": None, "leftover": "shared", "seat_holder": "cash",
    }  # fmt: skip
    wrong = director_client.post(
        reverse("tourney:tournament_new"), {**data, "satellite_target": "999999"}
    )
    assert wrong.status_code == 422 and Tournament.objects.filter(name=data["name"]).count() == 1

    form = form_data(director_client, sat)
    assert form["satellite_target"] == str(target.pk)
    form.update(
        satellite_leftover="partial_seat",
        satellite_seat_value="40000",
        satellite_seat_holder="refuse",
    )
    saved = director_client.post(reverse("tourney:tournament_settings", args=[sat.pk]), form)
    assert saved.status_code in (200, 302)
    sat.refresh_from_db()
    assert sat.satellite == {
        "target_id": target.pk,
        "seat_value": 40_000,
        "leftover": "partial_seat",
        "seat_holder": "refuse",
    }
    form = form_data(director_client, sat)
    form["satellite_target"] = ""  # an ordinary tournament again
    director_client.post(reverse("tourney:tournament_settings", args=[sat.pk]), form)
    sat.refresh_from_db()
    assert sat.satellite == {}


def test_a_seat_holder_plays_for_cash_or_is_refused_as_the_house_says(api, room, structure, target):
    """A player who won a seat in one satellite plays the next one: by default he plays for the
    seat's value in cash (no second ticket); under `refuse` the desk does not take him."""
    first = _satellite(api, room, structure, target)
    seat_players(api, first, numbered_players(37))
    start(api, first)
    _bust_down_to(api, first, 7)
    holder = Ticket.objects.filter(source=first).first().player_id

    second = _tournament(
        api, room, structure, "Second chance", 10_000, 1_000,
        satellite={"target_id": target.pk},  # a seat each 5 entries; seat holders for cash
    )  # fmt: skip
    entries = [
        api.post(f"/tournaments/{second.pk}/entries", {"player_id": p}).json()["id"]
        for p in [holder, *(api.post("/players", {"name": f"Q{i}"}).json()["id"] for i in range(5))]
    ]
    api.post(f"/tournaments/{second.pk}/draw")
    start(api, second)
    for entry_id in entries[1:]:  # the holder outlasts them: the one seat is his
        api.post(
            f"/tournaments/{second.pk}/eliminations", {"eliminations": [{"entry_id": entry_id}]}
        )
    second.refresh_from_db()
    assert second.status == "finished"
    assert not Ticket.objects.filter(source=second).exists()  # no second seat
    rows = {r["entry_id"]: r for r in api.get(f"/tournaments/{second.pk}/results").json()}
    assert (rows[entries[0]]["ticket"], rows[entries[0]]["prize"]) == (0, 50_000)  # in cash

    strict = _tournament(
        api, room, structure, "Last chance", 10_000, 1_000,
        satellite={"target_id": target.pk, "seat_holder": "refuse"},
    )  # fmt: skip
    refused = api.post(f"/tournaments/{strict.pk}/entries", {"player_id": holder})
    assert refused.status_code == 409 and refused.json()["code"] == "holds_a_seat"
    assert not Entry.objects.filter(tournament=strict).exists()
