"""`/api/v1/health` says when the clock's timers are late (issue 12, defence in depth).

A running clock whose stored period ended more than 2 s ago and was not advanced means the
worker and beat (or the embedded loop) are dead or stuck: the room's clock is still right,
but level events, late registration and absent-player deadlines wait. Health names it.
"""

import pytest
import time_machine

from clocks.clock.usecases import clock_operate, clocks_advance_due

pytestmark = pytest.mark.django_db

PERIOD_S = 15 * 60  # the shared structure's first level


def health(client) -> dict:
    response = client.get("/api/v1/health")
    assert response.status_code == 200
    return response.json()


def test_timers_are_late_once_a_stored_period_has_been_over_for_more_than_two_seconds(
    client, director, seated_tournament
):
    with time_machine.travel("2026-11-29 19:00:00 +01:00", tick=False) as traveller:
        clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
        body = health(client)
        assert (body["status"], body["database"], body["timers"]) == ("ok", "ok", "ok")
        assert body["late_timers"] == []

        traveller.shift(PERIOD_S + 2)  # the level ended 2 s ago: a timer may still be on it
        assert health(client)["timers"] == "ok"

        traveller.shift(0.5)
        body = health(client)
        assert body["timers"] == "late"
        assert body["late_timers"] == [{"tournament_id": seated_tournament.pk, "late_ms": 2_500}]
        assert body["status"] == "ok"  # the contract's fields keep their meaning

        assert clocks_advance_due() == 1  # a timer catches up: nothing is late any more
        assert health(client) | {"broker": None} == {
            "status": "ok",
            "database": "ok",
            "broker": None,
            "timers": "ok",
            "late_timers": [],
        }


def test_a_paused_clock_is_never_late(client, director, seated_tournament):
    with time_machine.travel("2026-11-29 19:00:00 +01:00", tick=False) as traveller:
        clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
        clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="pause")
        traveller.shift(3 * PERIOD_S)
        assert health(client)["timers"] == "ok"
