"""A cash table's dealer (docs/rules.md §20.5-§20.6): the button set, the next hand moving the
button and the blinds among the players present, the blinds an away player missed, a new
player dealt in when the big blind reaches him, a player's blinds posted."""

import pytest
from django.test import Client
from django.urls import reverse

from tables.cash.usecases import cash_table_close, cash_table_open
from tables.cash_dealer.selectors import dealer_token
from tables.cash_dealer.usecases import cash_button_set, cash_hand_next, cash_seat_posted
from tables.cash_seats.usecases import cash_seat_away, cash_seat_direct
from tables.models import CashSeat
from tourney.core.errors import Conflict
from tourney.players.usecases import player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(director, room):
    table = cash_table_open(
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
    for seat in (1, 3, 5, 8):
        player = player_create(actor=director, name=f"Osztó {seat}")
        cash_seat_direct(actor=director, cash_table_id=table.pk, seat=seat, player_id=player.pk)
    return table


def _seat(table, n) -> CashSeat:
    return CashSeat.objects.get(cash_table=table, seat=n)


def test_the_button_and_the_blinds_and_what_an_away_player_owes(director, table):
    with pytest.raises(Conflict) as early:
        cash_hand_next(actor=director, cash_table_id=table.pk)
    assert early.value.code == "no_button"
    t = cash_button_set(actor=director, cash_table_id=table.pk, seat=1)
    assert (t.button_seat, t.small_blind_seat, t.big_blind_seat) == (1, 3, 5)
    assert not any(s.new_player for s in CashSeat.objects.filter(cash_table=table))
    cash_seat_away(actor=director, cash_table_id=table.pk, seat=8, away=True)
    t = cash_hand_next(actor=director, cash_table_id=table.pk)  # 3 players present: 1, 3, 5
    assert (t.button_seat, t.small_blind_seat, t.big_blind_seat) == (3, 5, 1)
    assert _seat(table, 8).owes == ["big"]  # the big blind went from 5 over 8 to 1
    t = cash_hand_next(actor=director, cash_table_id=table.pk)
    assert (t.button_seat, t.small_blind_seat, t.big_blind_seat) == (5, 1, 3)
    assert _seat(table, 8).owes == ["big", "small"]  # and then the small blind
    cash_seat_away(actor=director, cash_table_id=table.pk, seat=8, away=False)
    cash_seat_posted(actor=director, cash_table_id=table.pk, seat=8)
    assert _seat(table, 8).owes == []


def test_a_new_player_is_dealt_in_when_the_big_blind_reaches_him(director, table):
    cash_button_set(actor=director, cash_table_id=table.pk, seat=1)  # D 1, SB 3, BB 5
    late = player_create(actor=director, name="Új Ubul")
    cash_seat_direct(actor=director, cash_table_id=table.pk, seat=6, player_id=late.pk)
    assert _seat(table, 6).new_player
    page = Client()
    page.force_login(director)
    html = page.get(reverse("tables:cash_dealer", args=[table.room_id, table.pk])).content.decode()
    assert "data-waits" in html  # seat 6 after the big blind: posts a big blind or waits
    t = cash_hand_next(actor=director, cash_table_id=table.pk)  # D 3, SB 5, BB 6
    assert t.big_blind_seat == 6 and not _seat(table, 6).new_player


def test_the_dealer_link_needs_no_login_while_the_table_is_open(director, table):
    url = reverse("tables:cash_dealer_link", args=[dealer_token(table)])
    tablet = Client()
    assert tablet.get(url).status_code == 200
    assert tablet.post(url, {"action": "button", "seat": "3"}).status_code == 302
    table.refresh_from_db()
    assert table.button_seat == 3
    assert tablet.get(url + "version/").json()["version"] > 0
    assert Client().get(url[:-5] + "x/").status_code == 404  # forged
    for seat in (1, 3, 5, 8):
        CashSeat.objects.filter(cash_table=table, seat=seat).delete()
    cash_table_close(actor=director, cash_table_id=table.pk)
    assert tablet.get(url).status_code == 404  # closed: the link ends with it
