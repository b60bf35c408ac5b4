"""The cash floor's costs, each a ratio measured side by side in one run (A B A B), issue 33;
as every benchmark here they report and do not fail on timing (docs/benchmarks.md):

1. a seat call with 300 players on the room's lists (the API, in process) against a single
   bust-out request of a running tournament;
2. the lists' TV page read by 100 screens (each a whole page, 300 names on the lists) against
   100 reads of a tournament's lobby TV state: in process, and through uvicorn with the
   production settings (the web process's CPU).

Run: .venv/bin/pytest -m benchmark tests/benchmarks/bench_cash.py -s
(with DATABASE_URL for PostgreSQL.)
"""

import http.client
import os
import time

import pytest
from django.test import Client
from django.urls import reverse

from clocks.display.selectors import display_token
from clocks.festival.selectors import board_token
from tables.cash.usecases import cash_list_join, cash_table_open
from tables.models import CashCall, CashList
from tables.rooms.usecases import room_create
from tests.benchmarks.report import report
from tests.benchmarks.sides import cpu_seconds, median_ratio, registered_tournament
from tests.conftest import ApiClient
from tests.factories import make_players
from tests.processes import UvicornProcess
from tourney.models import Entry
from tourney.staff.usecases import api_token_create

ON_LISTS = 300
ROUNDS = 20
SCREENS = 100


def cash_room(director):
    """A room of 40 tables: 8 dealing three games, 300 players on their three lists."""
    room = room_create(
        actor=director,
        name="Bench cash room",
        tables=[{"number": n, "seats": 9} for n in range(1, 41)],
    )
    games = [
        ("holdem", "no_limit", 200, 400),
        ("omaha", "pot_limit", 500, 1000),
        ("holdem", "no_limit", 500, 1000),
    ]
    tables = []
    for i in range(8):
        game, limit, sb, bb = games[i % 3]
        tables.append(
            cash_table_open(
                actor=director,
                room_id=room.pk,
                table_number=i + 1,
                game=game,
                game_limit=limit,
                small_blind=sb,
                big_blind=bb,
                min_buy_in=bb * 50,
                max_buy_in=bb * 200,
            )
        )
    lists = list(CashList.objects.filter(room=room))
    for i, player_id in enumerate(make_players(ON_LISTS)):
        cash_list_join(actor=director, cash_list_id=lists[i % 3].pk, player_id=player_id)
    return room, tables


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_seat_call_against_a_bust_out(director, structure) -> None:
    _room, tables = cash_room(director)
    hall = room_create(
        actor=director, name="Bench hall", tables=[{"number": n, "seats": 9} for n in range(1, 21)]
    )
    tournament = registered_tournament(director, structure.pk, hall.pk, make_players(90))
    raw, _token = api_token_create(actor=director, user=director)
    api = ApiClient(raw)
    drawn = api.post(f"/tournaments/{tournament.pk}/draw")
    assert drawn.status_code == 200, drawn.json()
    assert api.post(f"/tournaments/{tournament.pk}/start").status_code == 200
    calls, busts = [], []
    for i in range(ROUNDS):
        table, seat = tables[i % len(tables)], 1 + i // len(tables)
        start = time.perf_counter_ns()
        response = api.post(f"/cash-tables/{table.pk}/seats/{seat}/call")
        calls.append((time.perf_counter_ns() - start) / 1e6)
        assert response.status_code == 201, response.json()
        out = Entry.objects.filter(tournament=tournament, status="active").order_by("?").first()
        start = time.perf_counter_ns()
        response = api.post(
            f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": out.pk}]}
        )
        busts.append((time.perf_counter_ns() - start) / 1e6)
        assert response.status_code == 200, response.json()
    assert CashCall.objects.filter(status="open").count() == ROUNDS
    report("bust_out_one", busts, None)
    report(
        "cash_seat_call_300_listed",
        calls,
        None,
        ratio_to_bust_out=round(median_ratio(busts, calls), 3),
    )


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_the_lists_tv_read_by_100_screens(director, structure) -> None:
    room, _tables = cash_room(director)
    tournament = registered_tournament(director, structure.pk, room.pk, make_players(90))
    cash_tv = reverse("tables:cash_tv", args=[board_token(room)])
    lobby = reverse("clocks:display_state", args=[display_token(tournament.pk)])
    client = Client()
    assert client.get(cash_tv).status_code == 200 and client.get(lobby).status_code == 200
    tv, peer = [], []
    for _ in range(5):
        for path, out in ((lobby, peer), (cash_tv, tv)):
            start = time.perf_counter_ns()
            for _screen in range(SCREENS):
                assert client.get(path).status_code == 200
            out.append((time.perf_counter_ns() - start) / 1e6)
    report("lobby_tv_state_100_reads", peer, None)
    report("cash_tv_100_reads", tv, None, ratio_to_lobby_tv=round(median_ratio(peer, tv), 3))


def _read(port: int, path: str, times: int) -> None:
    conn = http.client.HTTPConnection("127.0.0.1", port)
    for _ in range(times):
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        assert response.status == 200
    conn.close()


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_the_lists_tv_over_http(director, structure) -> None:
    """The same through uvicorn with the production settings: the web process's CPU for 100
    screens reading the cash TV page against 100 reading a tournament's lobby TV state."""
    room, _tables = cash_room(director)
    tournament = registered_tournament(director, structure.pk, room.pk, make_players(90))
    web = UvicornProcess(os.environ.get("REDIS_URL", ""))
    try:
        web.wait_serving()
        cash_tv = reverse("tables:cash_tv", args=[board_token(room)])
        lobby = reverse("clocks:display_state", args=[display_token(tournament.pk)])
        tv, peer = [], []
        for _ in range(5):
            for path, out in ((lobby, peer), (cash_tv, tv)):
                before = cpu_seconds(web.process.pid)
                _read(web.port, path, SCREENS)
                out.append((cpu_seconds(web.process.pid) - before) * 1e3)
    finally:
        web.stop()
    report("lobby_tv_state_100_reads_http_cpu", peer, None)
    report(
        "cash_tv_100_reads_http_cpu", tv, None, ratio_to_lobby_tv=round(median_ratio(peer, tv), 3)
    )
