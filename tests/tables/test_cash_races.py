"""Races on the cash floor (issue 33), on PostgreSQL where writers run in parallel: two floors
offering the same seat (one call stands), two seats offered at once (two players called, never
one twice), a player leaving his list as he is called (one of the two happens first, and the
call never seats a player who left).

Skipped on SQLite (its IMMEDIATE transactions serialize every writer anyway); CI's PostgreSQL
run executes them."""

import pytest
from django.db import connection

from tables.cash.usecases import cash_list_join, cash_list_leave, cash_table_open
from tables.cash_seats.usecases import cash_call_take, cash_seat_call
from tables.models import CashCall, CashList, CashListPlayer, CashSeat
from tests.factories import run_at_once
from tourney.core.errors import Conflict
from tourney.players.usecases import player_create

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip(f"concurrent writers run on PostgreSQL (this run uses {connection.vendor})")


@pytest.fixture
def floor_with_list(director, room):
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
    cash_list = CashList.objects.get(room=room)
    players = [player_create(actor=director, name=f"Waiting {i}") for i in range(4)]
    for p in players:
        cash_list_join(actor=director, cash_list_id=cash_list.pk, player_id=p.pk)
    return table, cash_list, players


def _conflicts(errors) -> list[str]:
    assert all(isinstance(e, Conflict) for e in errors), errors
    return [e.code for e in errors]


def test_two_floors_offering_the_same_seat(postgresql, director, floor_with_list):
    table, _list, players = floor_with_list
    for _ in range(3):
        CashCall.objects.all().delete()
        errors = run_at_once(
            [lambda: cash_seat_call(actor=director, cash_table_id=table.pk, seat=5)] * 2
        )
        assert _conflicts(errors) == ["seat_called"]
        assert list(CashCall.objects.values_list("player_id", flat=True)) == [players[0].pk]


def test_two_seats_offered_at_once_call_two_players(postgresql, director, floor_with_list):
    table, _list, players = floor_with_list
    errors = run_at_once(
        [lambda s=s: cash_seat_call(actor=director, cash_table_id=table.pk, seat=s) for s in (2, 7)]
    )
    assert errors == []
    called = sorted(CashCall.objects.values_list("player_id", flat=True))
    assert called == sorted(p.pk for p in players[:2])


def test_a_player_leaving_his_list_as_he_is_called(postgresql, director, floor_with_list):
    table, cash_list, players = floor_with_list
    first = players[0]
    call = cash_seat_call(actor=director, cash_table_id=table.pk, seat=3)
    errors = run_at_once(
        [
            lambda: cash_list_leave(actor=director, cash_list_id=cash_list.pk, player_id=first.pk),
            lambda: cash_call_take(actor=director, call_id=call.pk),
        ]
    )
    place = CashListPlayer.objects.get(player=first)
    seated = CashSeat.objects.filter(player=first).exists()
    codes = _conflicts(errors)
    assert len(codes) == 1  # one of the two happened first, the other was refused
    if codes == ["call_not_open"]:  # he left first: the call was cancelled, nobody sat down
        assert place.status == "left" and not seated
        assert CashCall.objects.get(pk=call.pk).status == "cancelled"
    else:  # he sat down first: leaving found him off the list
        assert codes == ["not_on_list"]
        assert place.status == "seated" and seated


def test_a_player_sits_down_before_he_could_leave(postgresql, director, floor_with_list):
    table, cash_list, players = floor_with_list
    first = players[0]
    call = cash_seat_call(actor=director, cash_table_id=table.pk, seat=3)
    cash_call_take(actor=director, call_id=call.pk)
    with pytest.raises(Conflict) as refused:
        cash_list_leave(actor=director, cash_list_id=cash_list.pk, player_id=first.pk)
    assert refused.value.code == "not_on_list"
    assert CashSeat.objects.filter(player=first, seat=3).exists()
