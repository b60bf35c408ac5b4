import cProfile
import pstats
import statistics

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tests.benchmarks.bench_registration import *  # noqa


@pytest.mark.benchmark
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_profile(api, director, structure):
    room = room_create(
        actor=director,
        name="Bench room",
        tables=[{"number": n, "seats": TABLE_SEATS} for n in range(1, TABLES + 1)],
    )
    t = tournament_create(
        actor=director,
        name="B",
        structure_id=structure.pk,
        starting_stack=40_000,
        buy_in=10_000,
        fee=2_000,
        room_id=room.pk,
    )
    ids = make_players(1400)
    s = register_timed(api, t.pk, ids[:100])
    print("first100", statistics.median(s))
    prof = cProfile.Profile()
    prof.enable()
    s = register_timed(api, t.pk, ids[100:400])
    prof.disable()
    print("100-400", statistics.median(s))
    st = pstats.Stats(prof)
    st.sort_stats("cumulative").print_stats(45)
    st.sort_stats("tottime").print_stats(25)
    with CaptureQueriesContext(connection) as q:
        api.post(f"/tournaments/{t.pk}/entries", {"player_id": ids[400]})
    for x in q.captured_queries:
        print(x["time"], x["sql"][:300])
    s = register_timed(api, t.pk, ids[401:1000])
    print("401-1000", statistics.median(s), statistics.median(s[-100:]))
