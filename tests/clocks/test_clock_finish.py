"""The clock of a finished tournament (issue 13 item 3; docs/rules.md §1.4, §11.7): it stops
when the winner is known and comes back, in the period it would be in, when the bust-out that
ended the tournament is undone. In the domain (hypothesis) and through the API."""

from datetime import UTC, datetime

import pytest
import time_machine
from hypothesis import given
from hypothesis import strategies as st

from clocks.clock.selectors import now_ms
from clocks.clock.usecases import clocks_advance_due, clocks_ending_soon
from clocks.domain.clock import ClockState, advance, pause, restart, start, stop, view
from clocks.domain.structures import TEMPLATES
from clocks.models import Clock
from tests.conftest import numbered_players, seat_players
from tourney.models import AuditEntry, Entry, Tournament, TournamentEvent

RIMOC = TEMPLATES["rimoc-championship"].periods
T0 = int(datetime(2025, 3, 14, 19, tzinfo=UTC).timestamp() * 1000)
MIN = 60_000


# --- the domain ---------------------------------------------------------------------------------


@given(
    stopped_after=st.integers(min_value=0, max_value=5 * 60 * MIN),
    later=st.integers(min_value=0, max_value=6 * 60 * MIN),
    paused=st.booleans(),
)
def test_stop_freezes_the_period_and_restart_puts_the_clock_where_it_would_be(
    stopped_after: int, later: int, paused: bool
) -> None:
    running = start(ClockState(), RIMOC, T0)
    clock = pause(running, RIMOC, T0 + stopped_after // 2) if paused else running
    at_stop = T0 + stopped_after
    stopped = stop(clock, RIMOC, at_stop)
    before = view(clock, RIMOC, at_stop)
    assert stopped.status == "finished"
    assert stopped.period_index == before.period_index or before.status == "finished"
    # A stopped clock never moves on, however long it waits.
    assert advance(stopped, RIMOC, at_stop + later).changes == ()
    shown = view(stopped, RIMOC, at_stop + later)
    assert (shown.status, shown.remaining_ms, shown.next_period) == ("finished", 0, None)
    # Undone: the clock is back as if it had never stopped.
    back = restart(stopped, RIMOC, at_stop + later, clock, stopped.version)
    assert back is not None and back.version == stopped.version + 1
    never_stopped = view(clock, RIMOC, at_stop + later).as_dict()
    restored = view(back, RIMOC, at_stop + later).as_dict()
    for key in ("status", "period_index", "remaining_ms", "ends_at_ms", "next_period"):
        assert restored[key] == never_stopped[key], key


def test_stop_of_a_finished_clock_changes_nothing_and_restart_refuses_a_changed_clock() -> None:
    clock = start(ClockState(), RIMOC, T0)
    stopped = stop(clock, RIMOC, T0 + MIN)
    assert stop(stopped, RIMOC, T0 + 2 * MIN) == stopped
    reopened = ClockState("paused", 3, None, 15 * MIN, stopped.version + 1)
    assert restart(reopened, RIMOC, T0 + 3 * MIN, clock, stopped.version) is None
    assert restart(stopped, RIMOC, T0 + 3 * MIN, clock, stopped.version - 1) is None


def test_a_tournament_ended_early_shows_the_time_played_through_its_level() -> None:
    clock = start(ClockState(), RIMOC, T0)
    stopped = stop(clock, RIMOC, T0 + 20 * MIN)  # level 2
    shown = view(stopped, RIMOC, T0 + 5 * 60 * MIN)
    assert shown.level_number == 2 and shown.elapsed_ms == 30 * MIN


# --- through the API ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_last_bust_out_stops_the_clock_and_its_undo_runs_it_again(api, tournament):
    ids = seat_players(api, tournament, numbered_players(3))
    url = f"/tournaments/{tournament.pk}"
    with time_machine.travel("2026-11-29 19:00:00 +01:00", tick=False) as traveller:
        api.post(f"{url}/clock/start")
        traveller.shift(20 * 60)  # level 2
        for name in ("P0", "P1"):
            bust = api.post(f"{url}/eliminations", {"eliminations": [{"entry_id": ids[name]}]})
            assert bust.status_code == 200, bust.json()
        assert api.get(url).json()["status"] == "finished"
        clock = api.get(f"{url}/clock").json()
        assert clock["status"] == "finished" and clock["period"]["level"] == 2
        assert clock["remaining_ms"] == 0 and clock["ends_at_ms"] is None
        assert clock["next_period"] is None
        finished_event = TournamentEvent.objects.filter(kind="clock").last()
        assert finished_event.payload["status"] == "finished"
        audit = AuditEntry.objects.filter(action="clock.finish").get()
        assert audit.before["status"] == "running"
        # The timers have nothing to do: no level changes however long the room waits.
        version = Clock.objects.get(tournament=tournament).version
        traveller.shift(3 * 60 * 60)
        assert clocks_advance_due() == 0
        assert clocks_ending_soon(within_ms=24 * 60 * MIN) == []
        assert Clock.objects.get(tournament=tournament).version == version
        assert api.get(f"{url}/clock").json()["period"]["level"] == 2
        # A change by hand is refused: the tournament is over.
        assert api.post(f"{url}/clock/pause").json()["code"] == "tournament_over"

        # Undo of the bust-out that ended it: running again, where it would be now.
        undo = api.post(f"{url}/eliminations/{ids['P1']}/undo")
        assert undo.status_code == 200, undo.json()
        assert api.get(url).json()["status"] == "running"
        clock = api.get(f"{url}/clock").json()
        assert clock["status"] == "running"
        # Started 19:00, now 22:20 (no pauses): the period that 3h20 of Rimóc's clock reaches.
        played = 200 * 60 * 1000
        periods = list(RIMOC)
        index, spent = 0, 0
        while spent + periods[index].duration_seconds * 1000 <= played:
            spent += periods[index].duration_seconds * 1000
            index += 1
        assert clock["period_index"] == index
        assert clock["ends_at_ms"] == now_ms() - played + spent + (
            periods[index].duration_seconds * 1000
        )
        assert clocks_advance_due() >= 1  # the stored clock steps on to it
        assert Clock.objects.get(tournament=tournament).period_index == index
        assert AuditEntry.objects.filter(action="clock.finish_undo").count() == 1
        assert Entry.objects.filter(tournament=tournament, status="active").count() == 2


@pytest.mark.django_db
def test_a_paused_clock_stays_paused_with_its_time_after_the_undo(api, tournament):
    ids = seat_players(api, tournament, numbered_players(2))
    url = f"/tournaments/{tournament.pk}"
    with time_machine.travel("2026-11-29 19:00:00 +01:00", tick=False) as traveller:
        api.post(f"{url}/clock/start")
        traveller.shift(5 * 60)
        api.post(f"{url}/clock/pause")
        api.post(f"{url}/eliminations", {"eliminations": [{"entry_id": ids["P0"]}]})
        assert api.get(f"{url}/clock").json()["status"] == "finished"
        traveller.shift(60 * 60)
        api.post(f"{url}/eliminations/{ids['P0']}/undo")
        clock = api.get(f"{url}/clock").json()
        assert (clock["status"], clock["remaining_ms"]) == ("paused", 10 * 60 * 1000)


CLOCK_OPERATIONS = (
    ("start", None),
    ("pause", None),
    ("resume", None),
    ("next", None),
    ("previous", None),
    ("adjust", {"seconds": 60}),
    ("adjust", {"seconds": -60}),
    ("jump", {"period_index": 5}),
    ("undo", None),
)


def _clock_record(tournament) -> tuple:
    clock = Clock.objects.get(tournament=tournament)
    return (
        (clock.status, clock.period_index, clock.period_ends_at_ms, clock.version),
        AuditEntry.objects.filter(tournament=tournament).count(),
        TournamentEvent.objects.filter(tournament=tournament).count(),
    )


@pytest.mark.django_db
def test_the_clock_of_a_finished_tournament_cannot_be_changed(api, tournament):
    """The console offered Previous/Next, ±1 minute, Jump and Undo after the finish, and the
    API took them (a jump reopened the clock of a finished tournament). Every operation now
    answers 409 `tournament_over` and changes nothing; undoing the last bust-out still runs
    the clock again (docs/rules.md §1.4, §11.7)."""
    ids = seat_players(api, tournament, numbered_players(2))
    url = f"/tournaments/{tournament.pk}"
    with time_machine.travel("2026-11-29 19:00:00 +01:00", tick=False) as traveller:
        api.post(f"{url}/clock/start")
        traveller.shift(25 * 60)
        api.post(f"{url}/clock/next")  # a change undo could take back, were it allowed
        api.post(f"{url}/eliminations", {"eliminations": [{"entry_id": ids["P0"]}]})
        assert api.get(url).json()["status"] == "finished"
        before = _clock_record(tournament)
        for operation, body in CLOCK_OPERATIONS:
            answer = api.post(f"{url}/clock/{operation}", body)
            assert answer.status_code == 409, (operation, answer.status_code, answer.json())
            assert answer.json() == {
                "code": "tournament_over",
                "detail": "The tournament is over.",
            }, operation
        assert _clock_record(tournament) == before
        undo = api.post(f"{url}/eliminations/{ids['P0']}/undo")
        assert undo.status_code == 200, undo.json()
        clock = api.get(f"{url}/clock").json()
        assert (clock["status"], clock["period_index"]) == ("running", 2)
        assert api.post(f"{url}/clock/pause").status_code == 200


@pytest.mark.django_db
def test_the_clock_of_a_cancelled_tournament_cannot_be_changed(api, tournament):
    seat_players(api, tournament, numbered_players(2))
    url = f"/tournaments/{tournament.pk}"
    api.post(f"{url}/clock/start")
    Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CANCELLED)
    before = _clock_record(tournament)
    for operation, body in CLOCK_OPERATIONS:
        answer = api.post(f"{url}/clock/{operation}", body)
        assert (answer.status_code, answer.json()["code"]) == (409, "tournament_over"), operation
    assert _clock_record(tournament) == before
