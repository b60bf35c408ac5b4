"""A cash evening with the real timers (issue 33): a Celery worker and beat against the test
database (PostgreSQL in CI's second run) and Redis. A room deals 6 tables of 3 games (one a
must-move table feeding its main game); 40 players go on 5 lists (some on two), from two desks
at once; seats open and are called by two floors at once; the no-shows are passed over by the
worker when their time is up (time passed by moving the calls' start back, never slept); the
must-move table feeds its main game; a new table opens from an interest list; an away player
is warned and his seat picked up. Throughout: every list's order kept, no seat given twice, no
player at two tables."""

import datetime
import threading

from django.db import connection
from django.utils import timezone

from tables.cash.selectors import away_overdue
from tables.models import CashCall, CashListPlayer, CashSeat, Room
from tables.rooms.usecases import room_create
from tests.clocks.level_changes import real_worker, start_ticking
from tests.clocks.worker_harness import (
    CeleryHarness,
    database_url_for_tests,
    redis_url_for_tests,
    wait_until,
)
from tests.conftest import ApiClient, make_staff
from tourney.staff.usecases import api_token_create

GAMES = [  # (kind, limit, small blind, big blind, tables)
    ("holdem", "no_limit", 200, 400, (1, 2, 3)),
    ("omaha", "pot_limit", 500, 1000, (4, 5)),
    ("holdem", "no_limit", 500, 1000, (6,)),
]


def _client(role: str, name: str) -> ApiClient:
    user = make_staff(name, role)
    raw, _token = api_token_create(actor=user, user=user)
    return ApiClient(raw)


def _in_threads(jobs) -> None:
    errors: list[BaseException] = []

    def run(job):
        try:
            job()
        except BaseException as exc:  # reported by the test, not lost in the thread
            errors.append(exc)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(job,)) for job in jobs]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors


def _invariants(room) -> None:
    """No seat given twice, no player at two tables or under two calls, every list in order."""
    seats = list(CashSeat.objects.filter(cash_table__room=room).values_list("cash_table", "seat"))
    assert len(seats) == len(set(seats))
    players = list(CashSeat.objects.filter(cash_table__room=room).values_list("player", flat=True))
    assert len(players) == len(set(players))
    called = list(CashCall.objects.filter(status="open").values_list("player", flat=True))
    assert len(called) == len(set(called))


def _time_passes(call_ids, minutes: int) -> None:
    """The calls were made `minutes` ago (the worker's clock is the real one)."""
    back = datetime.timedelta(minutes=minutes)
    for call in CashCall.objects.filter(pk__in=call_ids):
        CashCall.objects.filter(pk=call.pk).update(
            called_at=call.called_at - back, expires_at=call.expires_at - back
        )


@real_worker
def test_a_cash_evening_with_the_worker(director):
    room = room_create(
        actor=director, name="Hero terem", tables=[{"number": n, "seats": 9} for n in range(1, 9)]
    )
    celery = CeleryHarness(broker_url=redis_url_for_tests(), database_url=database_url_for_tests())
    try:
        _evening(celery, room)
    finally:
        celery.stop()


def _evening(celery, room) -> None:  # one evening, told in order
    floors = [_client("floor", "floor-1"), _client("floor", "floor-2")]
    desks = [_client("desk", "desk-1"), _client("desk", "desk-2")]
    Room.objects.filter(pk=room.pk).update(cash_rules={"open_table_at": 5})
    tables = {}
    for kind, limit, sb, bb, numbers in GAMES:
        for n in numbers:
            body = {
                "room_id": room.pk,
                "table": n,
                "game": {"kind": kind, "limit": limit},
                "small_blind": sb,
                "big_blind": bb,
                "min_buy_in": bb * 50,
                "max_buy_in": bb * 200,
            }
            if n == 3:
                body["must_move_for"] = tables[1]["id"]
            r = floors[0].post("/cash-tables", body)
            assert r.status_code == 201, r.json()
            tables[n] = r.json()
    lists = {
        x["big_blind"] * 10 + (x["game"]["kind"] == "omaha"): x
        for x in floors[0].get(f"/cash-lists?room_id={room.pk}").json()
    }
    nlh400, plo1000, nlh1000 = lists[4000], lists[10001], lists[10000]
    interest = (
        desks[0]
        .post(
            "/cash-lists",
            {
                "room_id": room.pk,
                "game": {"kind": "omaha5", "limit": "pot_limit"},
                "small_blind": 1000,
                "big_blind": 2000,
            },
        )
        .json()
    )
    stud = (
        desks[0]
        .post(
            "/cash-lists",
            {
                "room_id": room.pk,
                "game": {"kind": "stud", "limit": "limit"},
                "small_blind": 100,
                "big_blind": 200,
            },
        )
        .json()
    )
    ids = [
        desks[0].post("/players", {"name": f"Cash Játékos {i:02d}"}).json()["id"] for i in range(40)
    ]
    start_ticking(celery)

    # 40 players on 5 lists from two desks at once; every fifth on the interest list as well
    plan = {
        nlh400["id"]: ids[0:14],
        plo1000["id"]: ids[14:24],
        nlh1000["id"]: ids[24:32],
        stud["id"]: ids[32:36],
        interest["id"]: ids[36:40] + ids[32:34] + ids[0:10:5],
    }

    def join(desk, pairs):
        for list_id, pid in pairs:
            r = desk.post(f"/cash-lists/{list_id}/players", {"player_id": pid})
            assert r.status_code == 201, r.json()

    pairs = [(lid, pid) for lid, pids in plan.items() for pid in pids]
    _in_threads([lambda d=d, k=k: join(d, pairs[k::2]) for k, d in enumerate(desks)])
    for list_id, pids in plan.items():
        listed = [p["player_id"] for p in floors[0].get(f"/cash-lists/{list_id}").json()["players"]]
        assert sorted(listed) == sorted(pids)
    _invariants(room)

    # every seat of every table called by the two floors at once, taken but for the no-shows
    def call_all(floor, numbers, out):
        for n in numbers:
            for seat in range(1, 10):
                r = floor.post(f"/cash-tables/{tables[n]['id']}/seats/{seat}/call")
                if r.status_code == 201:
                    out.append(r.json())
                else:
                    assert r.json()["code"] in ("seat_called", "nobody_waiting"), r.json()

    calls: list[dict] = []
    _in_threads([lambda f=f: call_all(f, [1, 2, 4, 5, 6], calls) for f in floors])
    assert len({(c["cash_table_id"], c["seat"]) for c in calls}) == len(calls)  # one call a seat
    assert len({c["called_player_id"] for c in calls}) == len(calls)
    no_shows = [c for c in calls if c["called_player_id"] in ids[0:40:7]]
    for c in calls:
        if c not in no_shows:
            assert floors[0].post(f"/cash-calls/{c['id']}/take").status_code == 200
    _invariants(room)
    order_before = [
        p["player_id"] for p in floors[0].get(f"/cash-lists/{nlh400['id']}").json()["players"]
    ]

    # the no-shows' time runs out: the worker passes them over, to their list's end
    _time_passes([c["id"] for c in no_shows], minutes=6)
    wait_until(
        lambda: (
            not CashCall.objects.filter(pk__in=[c["id"] for c in no_shows], status="open").exists()
        ),
        30,
        "the worker to pass the no-shows over",
        celery.logs,
    )
    after = [p["player_id"] for p in floors[0].get(f"/cash-lists/{nlh400['id']}").json()["players"]]
    passed = [c["called_player_id"] for c in no_shows if c["called_player_id"] in after]
    assert passed  # some of the no-shows waited on this list
    others = [p for p in order_before if p not in passed]
    assert [p for p in after if p not in passed] == others  # the others keep their order
    assert sorted(after[len(others) :]) == sorted(passed)  # the passed over at its end

    # the must-move table 3 feeds its main game (table 1): seated first, the longest moves
    for seat in range(1, 3):  # the two passed over, called again, come this time
        call = floors[0].post(f"/cash-tables/{tables[3]['id']}/seats/{seat}/call").json()
        assert "id" in call, call
        assert floors[0].post(f"/cash-calls/{call['id']}/take").status_code == 200
    longest = (
        CashSeat.objects.filter(cash_table_id=tables[3]["id"]).order_by("seated_at", "seat").first()
    )
    main_seat = CashSeat.objects.filter(cash_table_id=tables[1]["id"]).order_by("seat").first()
    floors[1].post(f"/cash-tables/{tables[1]['id']}/seats/{main_seat.seat}/leave")
    moved = floors[1].post(f"/cash-tables/{tables[1]['id']}/seats/{main_seat.seat}/call").json()
    assert (
        moved["called_player_id"] == longest.player_id and moved["from_table_id"] == tables[3]["id"]
    )
    floors[1].post(f"/cash-calls/{moved['id']}/take")
    assert CashSeat.objects.get(player_id=longest.player_id).cash_table_id == tables[1]["id"]
    _invariants(room)

    # the interest list (6 still waiting: two of its players sat down in another game and
    # left it; the house's number is 5) opens table 7 at drawn seats
    opened = floors[0].post(
        f"/cash-lists/{interest['id']}/table",
        {"table": 7, "min_buy_in": 100_000, "max_buy_in": 400_000},
    )
    assert opened.status_code == 201, opened.json()
    assert len([s for s in opened.json()["seats"] if s["player_id"]]) == 6
    _invariants(room)

    # an away player warned when his hold is up, and his seat picked up
    away = CashSeat.objects.filter(cash_table_id=tables[2]["id"]).first()
    floors[0].post(f"/cash-tables/{tables[2]['id']}/seats/{away.seat}/away", {"away": True})
    CashSeat.objects.filter(pk=away.pk).update(
        away_since=timezone.now() - datetime.timedelta(minutes=16)
    )
    assert [s.player_id for s in away_overdue(room, timezone.now())] == [away.player_id]
    floors[0].post(f"/cash-tables/{tables[2]['id']}/seats/{away.seat}/leave")
    assert away_overdue(room, timezone.now()) == []
    _invariants(room)
    assert CashListPlayer.objects.filter(status="seated").count() >= 40 - len(no_shows) - 4
