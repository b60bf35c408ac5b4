"""Sit-and-gos with the real timers (docs/rules.md §19): a Celery worker and beat against the
test database (PostgreSQL in CI's second run) and Redis. Three desks register 27 players at
once into one 9-seat series under Mirage's rules: three events fill side by side, each on its
own table, and each starts itself once its countdown is over, not before; the next one opens
with the next registration. A player at a running event is flagged at a second desk; the clock
call asks for 90 s of thinking and gives 30 s at a sit-and-go's table; one event is played to
its winner and paid; the gaming day's report equals the ledger."""

import datetime
import threading

from django.db import connection
from django.test import Client
from django.utils import timezone

from tests.clocks.level_changes import real_worker, start_ticking
from tests.clocks.worker_harness import (
    CeleryHarness,
    database_url_for_tests,
    redis_url_for_tests,
    wait_until,
)
from tests.conftest import ApiClient, make_staff
from tourney.models import Entry, LedgerEntry, SitAndGoSeries, Tournament
from tourney.staff.usecases import api_token_create

COUNTDOWN_S = 2
DESKS = 3
SEATS = 9


def _client(role: str, name: str) -> ApiClient:
    user = make_staff(name, role)
    raw, _token = api_token_create(actor=user, user=user)
    return ApiClient(raw)


def _desk(api: ApiClient, series_id: int, names: list[str], out: list, errors: list) -> None:
    try:
        for name in names:
            player_id = api.post("/players", {"name": name}).json()["id"]
            r = api.post(f"/sng-series/{series_id}/entries", {"player_id": player_id})
            assert r.status_code == 201, r.json()
            out.append(r.json())
    except Exception as exc:  # reported by the test, not lost in the thread
        errors.append(exc)
    finally:
        connection.close()  # the thread's own: the test database is dropped at the end


@real_worker
def test_three_sit_and_gos_fill_at_once_and_start_themselves(structure, room, payout_templates):
    celery = CeleryHarness(broker_url=redis_url_for_tests(), database_url=database_url_for_tests())
    try:
        _play(celery, structure, room)
    finally:
        celery.stop()


def _play(celery: CeleryHarness, structure, room) -> None:
    director = _client("director", "sng-director")
    series = director.post(
        "/sng-series",
        {
            "name": "Genius SNG",
            "room_id": room.pk,
            "structure_id": structure.pk,
            "starting_stack": 5_000,
            "buy_in": 9_000,
            "fee": 1_000,
            "seats": SEATS,
            "house_rules": "mirage",
            "countdown_seconds": COUNTDOWN_S,
        },
    ).json()
    start_ticking(celery)
    desks = [_client("desk", f"desk-{n}") for n in range(DESKS)]
    seated: list[dict] = []
    errors: list[Exception] = []
    threads = [
        threading.Thread(
            target=_desk,
            args=(desk, series["id"], [f"Játékos {d}-{i}" for i in range(SEATS)], seated, errors),
        )
        for d, desk in enumerate(desks)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors
    events = sorted({s["tournament_id"] for s in seated})
    assert len(events) == DESKS and len(seated) == DESKS * SEATS
    for event in events:
        seats = sorted(s["seat"] for s in seated if s["tournament_id"] == event)
        assert seats == list(range(1, SEATS + 1)), (event, seats)
    tables = {s["table"] for s in seated}
    assert len(tables) == DESKS  # each on its own table

    wait_until(
        lambda: Tournament.objects.filter(pk__in=events, status="running").count() == DESKS,
        COUNTDOWN_S + 20,
        "the three sit-and-gos to start themselves",
        celery.logs,
    )
    for event in Tournament.objects.filter(pk__in=events):
        assert event.started_at >= event.auto_start_at  # never before the countdown's end
        assert event.started_at - event.auto_start_at < datetime.timedelta(seconds=5)
    state = director.get(f"/sng-series/{series['id']}").json()
    assert sorted(state["running"]) == events and state["filling"] is None

    late = desks[0].post("/players", {"name": "Késő Kálmán"}).json()["id"]
    fourth = desks[0].post(f"/sng-series/{series['id']}/entries", {"player_id": late}).json()
    assert fourth["tournament_id"] not in events and fourth["starts_at_ms"] is None

    # A second desk finds a player already playing: flagged, one table at a time.
    page = Client()
    page.force_login(make_staff("desk-page", "desk"))
    html = page.get(f"/sng/{series['id']}/?q=Játékos 1-4").content.decode()
    assert "data-plays-elsewhere" in html

    first = events[0]
    entry = Entry.objects.filter(tournament_id=first).order_by("seat").first()
    table = entry.tournament_table.number
    call = f"/tournaments/{first}/tables/{table}/clock-calls"
    early = director.post(call, {"seat": entry.seat, "elapsed_seconds": 60})
    assert early.status_code == 409 and early.json()["code"] == "clock_call_too_early"
    called = director.post(call, {"seat": entry.seat, "elapsed_seconds": 95})
    assert called.status_code == 201 and called.json()["seconds"] == 30

    while (left := list(_left(first))) and len(left) > 1:
        r = director.post(
            f"/tournaments/{first}/eliminations", {"eliminations": [{"entry_id": left[0]}]}
        )
        assert r.status_code == 200, r.json()
    results = director.get(f"/tournaments/{first}/results").json()
    for row in results if isinstance(results, list) else results["rows"]:
        if row["prize"] > 0:
            assert (
                director.post(f"/tournaments/{first}/results/{row['entry_id']}/pay").status_code
                == 201
            )
    day = _gaming_day(SitAndGoSeries.objects.get(pk=series["id"]))
    report = director.get(f"/sng-series/{series['id']}/report?date={day}").json()
    ledger = LedgerEntry.objects.filter(tournament_id__in=events)
    assert report["events"] == DESKS and report["entries"] == DESKS * SEATS
    assert report["buy_ins"] == sum(ledger.filter(kind="buy_in").values_list("amount", flat=True))
    assert report["fees"] == sum(ledger.filter(kind="fee").values_list("amount", flat=True))
    assert report["prizes"] == -sum(ledger.filter(kind="payout").values_list("amount", flat=True))
    assert report["prizes"] == SEATS * 9_000  # the first event's pool, paid to the unit


def _left(tournament_id: int):
    return (
        Entry.objects.filter(tournament_id=tournament_id, status=Entry.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", flat=True)
    )


def _gaming_day(series: SitAndGoSeries) -> str:
    now = timezone.localtime()
    if now.time() < series.room.gaming_day_starts:
        now -= datetime.timedelta(days=1)
    return now.date().isoformat()
