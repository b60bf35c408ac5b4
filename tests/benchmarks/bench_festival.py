"""A festival's costs, each a ratio measured side by side in one run (A B A B), issue 26; as
every benchmark here they report and do not fail on timing (docs/benchmarks.md has the
figures against the targets):

1. the Day-2 draw of 5,000 survivors (random, and with the big stacks spread) against the
   ordinary draw of 5,000 new entries (target: no more than 1.5 times); the flights' ends of
   day registered the Day-2 entries from the bags (docs/festivals.md), whose cost for 5,000
   bags is reported beside, against the same ordinary draw;
2. the public page read 10,000 times through nginx (the repository's own configuration, its
   cache on) against 100 times: the web processes' CPU (target: no more than 2 times);
3. entering the counts of a 9-seat table against a single bust-out request (the API, in
   process).

Run: .venv/bin/pytest -m benchmark tests/benchmarks/bench_festival.py -s
(with DATABASE_URL and REDIS_URL for PostgreSQL and the proxy's part; the proxy's part needs
nginx and Redis and is skipped without them.)
"""

import http.client
import os
import random
import ssl
import time

import pytest
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

from tables.rooms.usecases import room_create
from tables.seating.usecases import seats_draw
from tests.benchmarks.report import report
from tests.benchmarks.sides import cpu_seconds, median_ratio, registered_tournament
from tests.conftest import ApiClient, service_missing
from tests.factories import bulk_entries, make_players
from tests.nginx_proxy import NginxProxy, nginx_missing
from tests.processes import UvicornProcess, redis_or_missing
from tourney.flights.operations import day2_entries_kept
from tourney.flights.usecases import day2_draw, flight_create
from tourney.models import Entry, Tournament
from tourney.public_page.selectors import public_token
from tourney.staff.usecases import api_token_create
from tourney.tournaments.usecases import tournament_create

SURVIVORS = 5_000
SEATS = 9
TABLES = -(-SURVIVORS // SEATS) + 5
ROUNDS = 3


def bagged_main_event(
    director, structure_id: int, room_id: int, player_ids: list[int], draw: str = "random"
):
    """A main event whose one flight ended its day with every player bagged (not timed)."""
    main = tournament_create(
        actor=director,
        name="Bench main event",
        structure_id=structure_id,
        starting_stack=50_000,
        buy_in=10_000,
        fee=1_000,
        room_id=room_id,
        rules_overrides={"seats_per_table": SEATS, "day2_draw": draw},
    )
    day1 = flight_create(actor=director, main_id=main.pk, name="Day 1A")
    bulk_entries(director, day1, player_ids)
    rng = random.Random(1)
    rows = list(Entry.objects.filter(tournament=day1))
    for e in rows:
        e.status, e.chips = Entry.Status.BAGGED, rng.randrange(5_000, 400_000)
    Entry.objects.bulk_update(rows, ["status", "chips"], batch_size=2_000)
    Tournament.objects.filter(pk=day1.pk).update(status=Tournament.Status.FINISHED)
    return main


def day2_registered(main, out: list[float] | None = None) -> None:
    """The flight's end of day's share: its 5,000 bags registered in Day 2 (timed into `out`)."""
    with transaction.atomic():
        start = time.perf_counter_ns()
        day2_entries_kept(main, None, timezone.now())
    if out is not None:
        out.append((time.perf_counter_ns() - start) / 1e6)


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_day2_draw_against_the_ordinary_draw(director, structure) -> None:
    room = room_create(
        actor=director,
        name="Bench hall",
        tables=[{"number": n, "seats": SEATS} for n in range(1, TABLES + 1)],
    )
    player_ids = make_players(SURVIVORS)
    ordinary, day2, spread, registered = [], [], [], []
    for _ in range(ROUNDS):
        for rule, out in (
            (None, ordinary),
            ("random", day2),
            (None, ordinary),
            ("spread_stacks", spread),
        ):
            if rule is None:
                tournament = registered_tournament(director, structure.pk, room.pk, player_ids)
                start = time.perf_counter_ns()
                seats_draw(actor=director, tournament_id=tournament.pk)
            else:
                main = bagged_main_event(director, structure.pk, room.pk, player_ids, rule)
                day2_registered(main, registered)
                start = time.perf_counter_ns()
                day2_draw(actor=director, main_id=main.pk)
            out.append((time.perf_counter_ns() - start) / 1e6)
    ratio = median_ratio(ordinary, day2)
    report("draw_5000_ordinary", ordinary, None, survivors=SURVIVORS)
    report("draw_5000_day2", day2, None, survivors=SURVIVORS, ratio_to_ordinary=round(ratio, 3))
    report(
        "day2_entries_5000_registered",
        registered,
        None,
        survivors=SURVIVORS,
        ratio_to_ordinary=round(median_ratio(ordinary, registered), 3),
    )
    report(
        "draw_5000_day2_spread",
        spread,
        None,
        survivors=SURVIVORS,
        ratio_to_ordinary=round(median_ratio(ordinary, spread), 3),
    )


def _read(proxy: NginxProxy, path: str, times: int) -> None:
    context = ssl.create_default_context()
    context.check_hostname, context.verify_mode = False, ssl.CERT_NONE
    conn = http.client.HTTPSConnection("127.0.0.1", proxy.https_port, context=context)
    for _ in range(times):
        conn.request("GET", path)
        response = conn.getresponse()
        response.read()
        assert response.status == 200
    conn.close()


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_public_page_through_the_proxy(director, tournament) -> None:
    if reason := nginx_missing():
        service_missing(reason)
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis_url:
        service_missing("REDIS_URL is not set")
    redis_or_missing(redis_url)
    webs = [UvicornProcess(redis_url) for _ in range(2)]
    proxy = None
    try:
        for web in webs:
            web.wait_serving()
        proxy = NginxProxy([web.address for web in webs])
        proxy.start()
        base = f"/public/{public_token(tournament)}/?lang=en"
        few, many = [], []
        with override_settings(REDIS_URL=redis_url):
            for i in range(ROUNDS):
                for reads, out in ((100, few), (10_000, many)):
                    before = sum(cpu_seconds(w.process.pid) for w in webs)
                    # a new address each time: the first read finds no copy in the cache
                    _read(proxy, f"{base}&sample={i}-{reads}", reads)
                    out.append((sum(cpu_seconds(w.process.pid) for w in webs) - before) * 1e3)
    finally:
        if proxy is not None:
            proxy.close()
        for web in webs:
            web.stop()
    ratio = median_ratio(few, many)
    report("public_page_100_reads_web_cpu", few, None)
    report("public_page_10000_reads_web_cpu", many, None, ratio_to_100=round(ratio, 3))


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_bench_table_counts_against_a_bust_out(director, structure) -> None:
    room = room_create(
        actor=director,
        name="Bench room",
        tables=[{"number": n, "seats": SEATS} for n in range(1, 61)],
    )
    tournament = registered_tournament(director, structure.pk, room.pk, make_players(540))
    raw, _token = api_token_create(actor=director, user=director)
    api = ApiClient(raw)
    assert api.post(f"/tournaments/{tournament.pk}/draw").status_code == 200
    assert api.post(f"/tournaments/{tournament.pk}/start").status_code == 200
    path = f"/tournaments/{tournament.pk}"
    counts, busts = [], []
    for i in range(30):
        table = 1 + i % 60
        seated = list(
            Entry.objects.filter(
                tournament=tournament, status="active", tournament_table__number=table
            ).values_list("pk", flat=True)
        )
        body = {"counts": [{"entry_id": e, "chips": 50_000 + i} for e in seated]}
        start = time.perf_counter_ns()
        assert api.put(f"{path}/chip-counts", body).status_code == 200
        counts.append((time.perf_counter_ns() - start) / 1e6)
        out = Entry.objects.filter(tournament=tournament, status="active").order_by("?").first()
        start = time.perf_counter_ns()
        response = api.post(f"{path}/eliminations", {"eliminations": [{"entry_id": out.pk}]})
        busts.append((time.perf_counter_ns() - start) / 1e6)
        assert response.status_code == 200, response.json()
    ratio = median_ratio(busts, counts)
    report("bust_out_one", busts, None)
    report("chip_counts_9_seats", counts, None, ratio_to_bust_out=round(ratio, 3))
