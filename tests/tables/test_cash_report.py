"""The cash evening's report (issue 33 item 9): tables open hour by hour, the players who sat
down, the waits from a list to a seat (median, longest) and the calls passed over; the API, the
page and its CSV agree."""

import datetime

import pytest
import time_machine
from django.test import Client

from tables.cash.usecases import cash_list_join, cash_table_close, cash_table_open
from tables.cash_seats.usecases import (
    cash_call_pass,
    cash_call_take,
    cash_seat_call,
    cash_seat_direct,
    cash_seat_leave,
)
from tables.models import CashList
from tourney.players.usecases import player_create

pytestmark = pytest.mark.django_db

T0 = datetime.datetime(2026, 12, 7, 18, 0, tzinfo=datetime.UTC)  # 19:00 in Budapest


def test_an_evening_in_figures(director, room, api):
    with time_machine.travel(T0, tick=False) as clock:
        t1 = cash_table_open(
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
        nlh = CashList.objects.get(room=room)
        players = [player_create(actor=director, name=f"Este {i}") for i in range(4)]
        cash_seat_direct(actor=director, cash_table_id=t1.pk, seat=1, player_id=players[0].pk)
        for p in players[1:]:
            cash_list_join(actor=director, cash_list_id=nlh.pk, player_id=p.pk)
        clock.shift(datetime.timedelta(minutes=20))  # 19:20: seat 2 to the first (20 min wait)
        cash_call_take(
            actor=director, call_id=cash_seat_call(actor=director, cash_table_id=t1.pk, seat=2).pk
        )
        clock.shift(datetime.timedelta(minutes=50))  # 20:10: the second says no
        cash_call_pass(
            actor=director, call_id=cash_seat_call(actor=director, cash_table_id=t1.pk, seat=3).pk
        )
        t2 = cash_table_open(
            actor=director,
            room_id=room.pk,
            table_number=2,
            game="holdem",
            game_limit="no_limit",
            small_blind=200,
            big_blind=400,
            min_buy_in=20_000,
            max_buy_in=80_000,
        )
        clock.shift(datetime.timedelta(minutes=30))  # 20:40: table 2 seats the third (100 min)
        cash_call_take(
            actor=director, call_id=cash_seat_call(actor=director, cash_table_id=t2.pk, seat=1).pk
        )
        clock.shift(datetime.timedelta(minutes=30))  # 21:10: table 2 closes
        cash_seat_leave(actor=director, cash_table_id=t2.pk, seat=1)
        cash_table_close(actor=director, cash_table_id=t2.pk)
        clock.shift(datetime.timedelta(minutes=20))  # 21:30
        report = api.get(f"/rooms/{room.pk}/cash-report?date=2026-12-07").json()
        assert report["players_seated"] == 3 and report["seatings"] == 3
        assert report["wait_median_minutes"] == 60 and report["wait_longest_minutes"] == 100
        assert report["calls_passed"] == 1
        assert report["hours"] == [
            {"hour": "19:00", "tables_open": 1, "players_seated": 2},
            {"hour": "20:00", "tables_open": 2, "players_seated": 1},
            {"hour": "21:00", "tables_open": 2, "players_seated": 0},
        ]
        page = Client()
        page.force_login(director)
        csv = page.get(f"/rooms/{room.pk}/cash/report/?date=2026-12-07&format=csv").content.decode()
        assert csv.splitlines()[1:4] == ["19:00,1,2", "20:00,2,1", "21:00,2,0"]
        html = page.get(f"/rooms/{room.pk}/cash/report/?date=2026-12-07").content.decode()
        assert 'id="cash-report-hours"' in html
        bad = api.get(f"/rooms/{room.pk}/cash-report?date=yesterday")
        assert bad.status_code == 422 and bad.json()["code"] == "invalid_date"
