"""The embedded default (no Redis): the server process itself changes levels on time."""

import time

import pytest

from clocks.clock.tasks import MAX_WAIT_S, MIN_WAIT_S, _seconds_to_wait, start_clock_thread
from clocks.clock.usecases import clock_operate
from clocks.domain.structures import Chip, Period, StructureData
from clocks.structures.usecases import structure_create
from tourney.models import Tournament, TournamentEvent

LEVEL_S = 1
DEADLINE_S = 10


def test_the_loop_wakes_at_the_next_period_end_and_never_spins():
    assert _seconds_to_wait(None, 1_000) == MAX_WAIT_S
    assert _seconds_to_wait(1_120, 1_000) == pytest.approx(0.12)
    assert _seconds_to_wait(90_000, 1_000) == MAX_WAIT_S
    assert _seconds_to_wait(900, 1_000) == MIN_WAIT_S  # already due: retry soon, not in a spin


@pytest.mark.django_db(transaction=True)
def test_embedded_loop_changes_short_levels_on_schedule(director, seated_tournament):
    short = structure_create(
        actor=director,
        data=StructureData(
            name="One-second levels",
            chips=(Chip(25, "green"), Chip(100, "black")),
            periods=tuple(
                Period("level", LEVEL_S, small_blind=25 * n, big_blind=50 * n) for n in (1, 2, 3)
            ),
        ),
    )
    Tournament.objects.filter(pk=seated_tournament.pk).update(structure=short)
    started = clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    stop = start_clock_thread()
    try:
        deadline = time.monotonic() + DEADLINE_S
        while time.monotonic() < deadline:  # the loop acts on real time: poll with a deadline
            changes = list(
                TournamentEvent.objects.filter(
                    tournament=seated_tournament, kind="clock", payload__reason="advance"
                ).order_by("pk")
            )
            if len(changes) >= 3:
                break
            time.sleep(0.05)
    finally:
        stop.set()
    assert len(changes) == 3
    scheduled = [c.payload["scheduled_at_ms"] for c in changes]
    first_end = started["ends_at_ms"]
    # No drift: each period ends exactly its duration after the previous scheduled end.
    assert scheduled == [first_end + i * LEVEL_S * 1000 for i in range(3)]
    assert [c.payload["status"] for c in changes] == ["running", "running", "overtime"]
    late_ms = [c.at.timestamp() * 1000 - s for c, s in zip(changes, scheduled, strict=True)]
    assert all(0 <= late < 250 for late in late_ms), late_ms
