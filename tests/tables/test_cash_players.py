"""A cash player's code and his own page (docs/rules.md §20.2): one live code a player and
room, typed in any case; his page joins and leaves lists, refuses a banned player, cancels his
call when he leaves; a revoked code's page is gone."""

import datetime

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clocks.festival.selectors import board_token
from tables.cash.usecases import cash_list_create, cash_list_join, cash_table_open
from tables.cash_players.selectors import pass_of_code, pass_token
from tables.cash_players.usecases import (
    cash_pass_give,
    cash_pass_revoke,
    cash_self_join,
    cash_self_leave,
)
from tables.cash_seats.usecases import cash_seat_call
from tables.models import CashCall, CashListPlayer
from tables.rooms.usecases import room_create
from tourney.core.errors import Conflict
from tourney.players.usecases import player_ban, player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def nlh(director, room):
    cash_table_open(
        actor=director,
        room_id=room.pk,
        table_number=1,
        game="holdem",
        game_limit="no_limit",
        small_blind=200,
        big_blind=400,
        min_buy_in=20_000,
        max_buy_in=80_000,
    )
    return cash_list_create(
        actor=director,
        room_id=room.pk,
        game="holdem",
        game_limit="no_limit",
        small_blind=200,
        big_blind=400,
    )


def test_one_live_code_a_player_typed_in_any_case(director, room):
    player = player_create(actor=director, name="Kód Kornél")
    given = cash_pass_give(actor=director, room_id=room.pk, player_id=player.pk)
    assert cash_pass_give(actor=director, room_id=room.pk, player_id=player.pk) == given
    assert pass_of_code(room.pk, f" {given.code.lower()[:3]}-{given.code.lower()[3:]} ") == given
    assert pass_of_code(room.pk, "0OIL10") is None
    page = Client().post(
        reverse("tables:cash_entrance", args=[board_token(room)]), {"code": given.code}
    )
    assert page.status_code == 302 and page["Location"].endswith(f"/cash/me/{pass_token(given)}/")
    cash_pass_revoke(actor=director, room_id=room.pk, player_id=player.pk)
    gone = Client().get(reverse("tables:cash_me", args=[pass_token(given)]))
    assert gone.status_code == 404
    assert cash_pass_give(actor=director, room_id=room.pk, player_id=player.pk) != given


def test_his_page_joins_and_leaves_and_refuses_a_ban(director, room, nlh):
    player = player_create(actor=director, name="Telefon Tamás")
    given = cash_pass_give(actor=director, room_id=room.pk, player_id=player.pk)
    url = reverse("tables:cash_me", args=[pass_token(given)])
    client = Client()
    assert client.post(url, {"action": "join", "cash_list": nlh.pk}).status_code == 302
    place = CashListPlayer.objects.get(player=player, status="waiting")
    assert place.via == "self"
    html = client.get(url).content.decode()
    assert "data-position" in html and "Telefon Tamás" in html
    with pytest.raises(Conflict) as twice:
        cash_self_join(cash_pass_id=given.pk, cash_list_id=nlh.pk)
    assert twice.value.code == "already_on_list"
    # called, then he leaves from his phone: the call is cancelled
    call = cash_seat_call(actor=director, cash_table_id=nlh.room.cash_tables.get().pk, seat=1)
    assert "cp-call" in client.get(url).content.decode()
    cash_self_leave(cash_pass_id=given.pk, cash_list_id=nlh.pk)
    assert CashCall.objects.get(pk=call.pk).status == "cancelled"
    player_ban(
        actor=director,
        player_id=player.pk,
        reason="Rude",
        ends_at=timezone.now() + datetime.timedelta(days=1),
    )
    with pytest.raises(Conflict) as banned:
        cash_self_join(cash_pass_id=given.pk, cash_list_id=nlh.pk)
    assert banned.value.code == "player_banned"


def test_a_list_of_another_room_is_not_his(director, room, nlh):
    other = room_create(actor=director, name="Másik terem", tables=[{"number": 1, "seats": 9}])
    player = player_create(actor=director, name="Vendég Vilma")
    cash_list_join(actor=director, cash_list_id=nlh.pk, player_id=player.pk)
    given = cash_pass_give(actor=director, room_id=other.pk, player_id=player.pk)
    with pytest.raises(Exception) as refused:
        cash_self_join(cash_pass_id=given.pk, cash_list_id=nlh.pk)
    assert getattr(refused.value, "code", "") == "cash_list_not_found"
