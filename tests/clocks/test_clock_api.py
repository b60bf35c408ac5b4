"""The running clock through the API, with time passed by time-machine (never slept)."""

import pytest
import time_machine

from clocks.clock.selectors import now_ms
from clocks.clock.usecases import clocks_advance_due
from tests.conftest import numbered_players, seat_players
from tourney.models import TournamentEvent

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 19:00:00 +01:00"


def test_clock_cannot_start_before_the_draw(api, tournament):
    response = api.post(f"/tournaments/{tournament.pk}/clock/start")
    assert response.status_code == 409 and response.json()["code"] == "draw_not_done"
    assert api.get(f"/tournaments/{tournament.pk}/clock").json()["status"] == "pending"


def test_start_pause_resume_and_the_derived_remaining_time(api, tournament):
    seat_players(api, tournament, numbered_players(4))
    with time_machine.travel(T0, tick=False) as traveller:
        clock = api.post(f"/tournaments/{tournament.pk}/clock/start").json()
        assert clock["status"] == "running" and clock["period"]["small_blind"] == 100
        assert clock["remaining_ms"] == 15 * 60 * 1000
        assert api.get(f"/tournaments/{tournament.pk}").json()["status"] == "running"
        traveller.shift(60)
        paused = api.post(f"/tournaments/{tournament.pk}/clock/pause").json()
        assert paused["status"] == "paused" and paused["remaining_ms"] == 14 * 60 * 1000
        traveller.shift(600)
        assert api.get(f"/tournaments/{tournament.pk}/clock").json()["remaining_ms"] == 840_000
        again = api.post(f"/tournaments/{tournament.pk}/clock/pause")
        assert again.status_code == 409 and again.json()["code"] == "clock_not_running"
        resumed = api.post(f"/tournaments/{tournament.pk}/clock/resume").json()
        assert resumed["ends_at_ms"] == now_ms() + 840_000
        added = api.post(f"/tournaments/{tournament.pk}/clock/adjust", {"seconds": 30}).json()
        assert added["remaining_ms"] == 870_000


def test_level_changes_on_time_without_drift(api, tournament):
    seat_players(api, tournament, numbered_players(4))
    with time_machine.travel(T0, tick=False) as traveller:
        started = api.post(f"/tournaments/{tournament.pk}/clock/start").json()
        first_end = started["ends_at_ms"]
        traveller.shift(15 * 60 + 0.3)  # the ticker runs 300 ms late
        assert clocks_advance_due() == 1
        assert clocks_advance_due() == 0  # idempotent
        clock = api.get(f"/tournaments/{tournament.pk}/clock").json()
        assert clock["period"]["small_blind"] == 200
        assert clock["ends_at_ms"] == first_end + 15 * 60 * 1000
        event = TournamentEvent.objects.filter(kind="clock").last()
        assert event.payload["scheduled_at_ms"] == first_end


def test_an_outage_steps_every_missed_level(api, tournament):
    seat_players(api, tournament, numbered_players(4))
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        traveller.shift(61 * 60)  # L1-L4 done: the first break has started
        assert clocks_advance_due() == 4
        clock = api.get(f"/tournaments/{tournament.pk}/clock").json()
        assert clock["period"]["kind"] == "break"
        assert clock["next_period"]["small_blind"] == 500


def test_floor_may_pause_but_not_skip_levels(api, api_as, tournament):
    seat_players(api, tournament, numbered_players(4))
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    floor = api_as("floor")
    assert floor.post(f"/tournaments/{tournament.pk}/clock/pause").status_code == 200
    response = floor.post(f"/tournaments/{tournament.pk}/clock/next")
    assert response.status_code == 403


def test_on_time_task_is_ignored_when_stale_and_advances_when_current(api, tournament):
    from clocks.clock.usecases import clocks_ending_soon
    from clocks.models import Clock
    from clocks.tasks import clock_advance_on_time

    seat_players(api, tournament, numbered_players(4))
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        clock = Clock.objects.get(tournament=tournament)
        traveller.shift(15 * 60 - 30)
        # The ticker would schedule an on-time task for this period end now.
        assert clocks_ending_soon(60_000) == [
            (tournament.pk, clock.version, clock.period_ends_at_ms)
        ]
        traveller.shift(30)
        stale_version = clock.version - 1
        assert clock_advance_on_time(tournament.pk, stale_version) == 0
        assert clock_advance_on_time(tournament.pk, clock.version) == 1
        assert clock_advance_on_time(tournament.pk, clock.version) == 0
        assert api.get(f"/tournaments/{tournament.pk}/clock").json()["period_index"] == 1
