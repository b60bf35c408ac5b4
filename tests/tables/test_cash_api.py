"""The cash floor through the API (docs/rules.md §20): tables and lists, seat calls taken,
passed and run out (time moved by time-machine), table changes, a must-move table feeding its
main game, a new table from an interest list, bans, away players; every refusal changes
nothing."""

import datetime

import pytest
import time_machine

from tables.cash_seats.usecases import cash_calls_expire
from tables.models import CashCall, CashListPlayer, CashSeat
from tests.tables.cash_floor import list_of as _list_of
from tests.tables.cash_floor import names as _names
from tests.tables.cash_floor import open_table as _table
from tests.tables.cash_floor import players as _players
from tourney.players.usecases import player_ban

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 7, 19, 0, tzinfo=datetime.UTC)


def test_a_seat_is_called_taken_passed_and_run_out(api, room):
    with time_machine.travel(T0, tick=False) as clock:
        table = _table(api, room, 1)
        assert [s["player_id"] for s in table["seats"]] == [None] * 10
        nlh = _list_of(api, room)  # opening the table made its list
        who = _players(api, ["Kovács Péter", "Nagy Éva", "Szabó Zoltán", "Tóth Ödön"])
        for name in ["Kovács Péter", "Nagy Éva", "Szabó Zoltán"]:
            clock.shift(60)
            r = api.post(f"/cash-lists/{nlh['id']}/players", {"player_id": who[name]})
            assert r.status_code == 201, r.json()
        listed = api.get(f"/cash-lists/{nlh['id']}").json()
        assert _names(listed) == ["Kovács Péter", "Nagy Éva", "Szabó Zoltán"]
        assert [p["position"] for p in listed["players"]] == [1, 2, 3]
        again = api.post(f"/cash-lists/{nlh['id']}/players", {"player_id": who["Nagy Éva"]})
        assert again.status_code == 409 and again.json()["code"] == "already_on_list"

        # seat 5 called: Kovács, five minutes; a second call of the seat is refused
        call = api.post(f"/cash-tables/{table['id']}/seats/5/call").json()
        assert call["called_player_id"] == who["Kovács Péter"]
        assert call["expires_at_ms"] - call["called_at_ms"] == 5 * 60_000
        twice = api.post(f"/cash-tables/{table['id']}/seats/5/call")
        assert twice.status_code == 409 and twice.json()["code"] == "seat_called"
        # seat 6 goes to the next one not under a call
        call6 = api.post(f"/cash-tables/{table['id']}/seats/6/call").json()
        assert call6["called_player_id"] == who["Nagy Éva"]
        # Kovács sits down at the last second; Nagy's time runs out: to the list's end
        clock.shift(5 * 60)
        taken = api.post(f"/cash-calls/{call['id']}/take")
        assert taken.status_code == 200, taken.json()
        assert taken.json()["seats"][4]["player_name"] == "Kovács Péter"
        clock.shift(1)
        assert api.post(f"/cash-calls/{call6['id']}/take").json()["code"] == "call_expired"
        assert cash_calls_expire() == 1
        listed = api.get(f"/cash-lists/{nlh['id']}").json()
        assert _names(listed) == ["Szabó Zoltán", "Nagy Éva"]  # Kovács seated, off the list
        assert CashCall.objects.get(pk=call6["id"]).status == "passed"
        # Szabó says no: to the end behind Nagy
        call6 = api.post(f"/cash-tables/{table['id']}/seats/6/call").json()
        assert call6["called_player_id"] == who["Szabó Zoltán"]
        assert api.post(f"/cash-calls/{call6['id']}/pass").status_code == 200
        assert _names(api.get(f"/cash-lists/{nlh['id']}").json()) == ["Nagy Éva", "Szabó Zoltán"]
        # Tóth, banned, is refused on the list
        player_ban(
            actor=None,
            player_id=who["Tóth Ödön"],
            reason="Rude",
            ends_at=T0 + datetime.timedelta(days=1),
        )
        banned = api.post(f"/cash-lists/{nlh['id']}/players", {"player_id": who["Tóth Ödön"]})
        assert banned.status_code == 409 and banned.json()["code"] == "player_banned"
        # the table cannot close while Kovács sits there
        closed = api.post(f"/cash-tables/{table['id']}/close")
        assert closed.status_code == 409 and closed.json()["code"] == "table_not_empty"


def test_a_table_change_and_a_must_move_table(api, room):
    with time_machine.travel(T0, tick=False) as clock:
        main = _table(api, room, 1)
        feeder = _table(api, room, 2, must_move_for=main["id"])
        who = _players(api, ["A", "B", "C", "D"])
        api.post(f"/cash-tables/{feeder['id']}/seats/3", {"player_id": who["A"]})
        clock.shift(60)
        api.post(f"/cash-tables/{feeder['id']}/seats/1", {"player_id": who["B"]})
        # seat 4 of the main game: A, longest at the must-move table, moves
        call = api.post(f"/cash-tables/{main['id']}/seats/4/call").json()
        assert call["called_player_id"] == who["A"] and call["from_table_id"] == feeder["id"]
        api.post(f"/cash-calls/{call['id']}/take")
        assert CashSeat.objects.get(player_id=who["A"]).cash_table_id == main["id"]
        assert not CashSeat.objects.filter(cash_table_id=feeder["id"], seat=3).exists()
        # C on the list; B (at the feeder) asks for a change: both to the list, B served first
        nlh = _list_of(api, room)
        api.post(f"/cash-lists/{nlh['id']}/players", {"player_id": who["C"]})
        clock.shift(60)
        api.post(f"/cash-lists/{nlh['id']}/players", {"player_id": who["B"], "via": "floor"})
        listed = api.get(f"/cash-lists/{nlh['id']}").json()
        assert listed["players"][1]["table_change_from"] == feeder["id"]
        # the feeder's seat 3 goes to C (B sits at that table already); seat 5 of the main
        # game to B, the feeder's last player, before the list
        call3 = api.post(f"/cash-tables/{feeder['id']}/seats/3/call").json()
        assert call3["called_player_id"] == who["C"]
        call5 = api.post(f"/cash-tables/{main['id']}/seats/5/call").json()
        assert call5["called_player_id"] == who["B"]


def test_a_new_table_from_an_interest_list(api, room):
    plo = api.post(
        "/cash-lists",
        {
            "room_id": room.pk,
            "game": {"kind": "omaha", "limit": "pot_limit"},
            "small_blind": 500,
            "big_blind": 1000,
        },
    ).json()
    assert plo["tables"] == 0
    who = _players(api, [f"Omaha {i}" for i in range(7)])
    for pid in list(who.values())[:5]:
        api.post(f"/cash-lists/{plo['id']}/players", {"player_id": pid})
    body = {"table": 3, "min_buy_in": 50_000, "max_buy_in": 200_000}
    early = api.post(f"/cash-lists/{plo['id']}/table", body)
    assert early.status_code == 409 and early.json()["code"] == "not_enough_waiting"
    for pid in list(who.values())[5:]:
        api.post(f"/cash-lists/{plo['id']}/players", {"player_id": pid})
    table = api.post(f"/cash-lists/{plo['id']}/table", body)
    assert table.status_code == 201, table.json()
    seated = [s["player_id"] for s in table.json()["seats"] if s["player_id"]]
    assert sorted(seated) == sorted(who.values())
    assert api.get(f"/cash-lists/{plo['id']}").json()["players"] == []
    assert CashListPlayer.objects.filter(status="seated").count() == 7


def test_away_and_back(api, room):
    table = _table(api, room, 1)
    who = _players(api, ["Away Andor"])
    api.post(f"/cash-tables/{table['id']}/seats/2", {"player_id": who["Away Andor"]})
    away = api.post(f"/cash-tables/{table['id']}/seats/2/away", {"away": True}).json()
    assert away["seats"][1]["away_since_ms"] is not None
    back = api.post(f"/cash-tables/{table['id']}/seats/2/away", {"away": False}).json()
    assert back["seats"][1]["away_since_ms"] is None
    left = api.post(f"/cash-tables/{table['id']}/seats/2/leave").json()
    assert left["seats"][1]["player_id"] is None


@pytest.mark.parametrize(
    "body",
    [
        [],
        "x",
        {
            "room_id": "one",
            "table": 1,
            "small_blind": 1,
            "big_blind": 2,
            "min_buy_in": 1,
            "max_buy_in": 2,
        },
        {
            "room_id": 1,
            "table": 1,
            "small_blind": 400,
            "big_blind": 200,
            "min_buy_in": 1,
            "max_buy_in": 2,
        },
        {
            "room_id": 1,
            "table": 99,
            "small_blind": 1,
            "big_blind": 2,
            "min_buy_in": 1,
            "max_buy_in": 2,
        },
        {
            "room_id": 1,
            "table": 1,
            "small_blind": 1,
            "big_blind": 2,
            "min_buy_in": 5,
            "max_buy_in": 2,
        },
        {
            "room_id": 1,
            "table": 1,
            "small_blind": 1,
            "big_blind": 2,
            "min_buy_in": 1,
            "max_buy_in": 2,
            "x": "\x00",
        },
    ],
)
def test_bad_tables_are_refused_and_change_nothing(api, room, body):
    if isinstance(body, dict) and body.get("room_id") == 1:
        body = {**body, "room_id": room.pk}
    r = api.post("/cash-tables", body)
    assert 400 <= r.status_code < 500 and {"code", "detail"} <= set(r.json())
    assert api.get("/cash-tables").json() == []


def test_roles(api_as, room):
    desk = api_as("desk")
    r = desk.post(
        "/cash-tables",
        {
            "room_id": room.pk,
            "table": 1,
            "small_blind": 1,
            "big_blind": 2,
            "min_buy_in": 1,
            "max_buy_in": 2,
        },
    )
    assert r.status_code == 403


def test_the_rooms_cash_rules(api, api_as, room):
    got = api.get(f"/rooms/{room.pk}/cash-rules").json()
    assert got["house_rules"] == "tda2024" and got["rules"]["call_minutes"] == 5
    body = {"house_rules": "mirage", "rules": {"passed_to": "off", "call_minutes": 3}}
    assert api_as("floor").put(f"/rooms/{room.pk}/cash-rules", body).status_code == 403
    saved = api.put(f"/rooms/{room.pk}/cash-rules", body).json()
    assert saved["rules"]["passed_to"] == "off" and saved["rules"]["call_minutes"] == 3
    assert saved["rules"]["clock_after_seconds"] == 180
    for bad in (
        {"house_rules": "mirage", "rules": {"call_minutes": 0}},
        {"house_rules": "mirage", "rules": {"passed_to": "sideways"}},
        {"house_rules": "mirage", "rules": {"call_minuets": 3}},
        {"house_rules": "nowhere"},
        {"house_rules": "mirage", "rules": {"seated_leaves_lists": 1}},
    ):
        r = api.put(f"/rooms/{room.pk}/cash-rules", bad)
        assert r.status_code == 422 and {"code", "detail"} <= set(r.json()), (bad, r.json())
    assert api.get(f"/rooms/{room.pk}/cash-rules").json() == saved  # nothing changed
    # the house's rule in play: a player passed over is off the list
    with time_machine.travel(T0, tick=False):
        table = _table(api, room, 1)
        nlh = _list_of(api, room)
        who = _players(api, ["Ki Kelemen", "Be Béla"])
        for pid in who.values():
            api.post(f"/cash-lists/{nlh['id']}/players", {"player_id": pid})
        call = api.post(f"/cash-tables/{table['id']}/seats/1/call").json()
        assert call["expires_at_ms"] - call["called_at_ms"] == 3 * 60_000
        api.post(f"/cash-calls/{call['id']}/pass")
        assert _names(api.get(f"/cash-lists/{nlh['id']}").json()) == ["Be Béla"]
