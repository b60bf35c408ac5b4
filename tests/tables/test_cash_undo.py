"""Undo on the cash floor (issue 33; every listed action can be undone): the audit log offers
each cash action's Undo; a call, a pass, a seating, a player standing up, a list joined or
left, away and back, a table closed are taken back once, and refused when play has moved on."""

import pytest
from django.test import Client

from tables.models import CashCall, CashListPlayer, CashSeat
from tests.tables.cash_floor import list_of as _list_of
from tests.tables.cash_floor import names as _names
from tests.tables.cash_floor import open_table as _table
from tests.tables.cash_floor import players as _players
from tourney.models import AuditEntry

pytestmark = pytest.mark.django_db


def _undo(api, action):
    entry = AuditEntry.objects.filter(action=action).order_by("-pk").first()
    return api.post(f"/cash-undo/{entry.pk}")


def test_each_cash_action_is_taken_back_once(api, room, director):
    table = _table(api, room, 1)
    nlh = _list_of(api, room)
    who = _players(api, ["Vissza Vilma", "Mégse Márton"])
    for pid in who.values():
        api.post(f"/cash-lists/{nlh['id']}/players", {"player_id": pid})
    # a pass taken back: Vilma first again
    call = api.post(f"/cash-tables/{table['id']}/seats/1/call").json()
    api.post(f"/cash-calls/{call['id']}/pass")
    assert _names(api.get(f"/cash-lists/{nlh['id']}").json()) == ["Mégse Márton", "Vissza Vilma"]
    assert _undo(api, "cash.pass").status_code == 200
    assert _names(api.get(f"/cash-lists/{nlh['id']}").json()) == ["Vissza Vilma", "Mégse Márton"]
    again = _undo(api, "cash.pass")
    assert again.status_code == 409 and again.json()["code"] == "undone_already"
    # a call taken back: the seat open again
    call = api.post(f"/cash-tables/{table['id']}/seats/2/call").json()
    assert _undo(api, "cash.call").status_code == 200
    assert CashCall.objects.get(pk=call["id"]).status == "cancelled"
    # a seating taken back: the seat open, Vilma back on the list at her place
    call = api.post(f"/cash-tables/{table['id']}/seats/2/call").json()
    api.post(f"/cash-calls/{call['id']}/take")
    assert _undo(api, "cash.seat").status_code == 200
    assert not CashSeat.objects.filter(cash_table_id=table["id"]).exists()
    assert _names(api.get(f"/cash-lists/{nlh['id']}").json()) == ["Vissza Vilma", "Mégse Márton"]
    # standing up taken back: in the same seat again
    api.post(f"/cash-tables/{table['id']}/seats/4", {"player_id": who["Vissza Vilma"]})
    api.post(f"/cash-tables/{table['id']}/seats/4/leave")
    assert _undo(api, "cash.leave").status_code == 200
    assert CashSeat.objects.get(player_id=who["Vissza Vilma"]).seat == 4
    # away taken back
    api.post(f"/cash-tables/{table['id']}/seats/4/away", {"away": True})
    assert _undo(api, "cash.away").status_code == 200
    assert CashSeat.objects.get(seat=4).away_since is None
    # leaving a list taken back; joining one taken back
    api.delete(f"/cash-lists/{nlh['id']}/players/{who['Mégse Márton']}")
    assert _undo(api, "cash.list_leave").status_code == 200
    assert _names(api.get(f"/cash-lists/{nlh['id']}").json()) == ["Mégse Márton"]
    assert _undo(api, "cash.list_join").status_code == 200  # his joining taken back: off it
    waiting = CashListPlayer.objects.filter(player_id=who["Mégse Márton"], status="waiting")
    assert not waiting.exists()
    # a seat taken since: standing up cannot come back
    api.post(f"/cash-tables/{table['id']}/seats/4/leave")
    api.post(f"/cash-tables/{table['id']}/seats/4", {"player_id": who["Mégse Márton"]})
    late = _undo(api, "cash.leave")
    assert late.status_code == 409 and late.json()["code"] == "undo_too_late"


def test_the_audit_log_offers_the_undo(api, room, director):
    table = _table(api, room, 1)
    api.post(f"/cash-tables/{table['id']}/close")
    page = Client()
    page.force_login(director)
    html = page.get("/audit/").content.decode()
    entry = AuditEntry.objects.get(action="cash.table_close")
    assert f"/api/v1/cash-undo/{entry.pk}" in html
    assert _undo(api, "cash.table_close").status_code == 200
    assert api.get(f"/cash-tables/{table['id']}").json()["status"] == "open"
    assert "Undone" in page.get("/audit/").content.decode()
