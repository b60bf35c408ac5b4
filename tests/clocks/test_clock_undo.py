"""Undo of the last clock change and jump to a level: the pure transition, random sequences,
and the service through the API (time moved by time-machine, never slept)."""

import pytest
import time_machine
from hypothesis import HealthCheck, settings
from hypothesis.stateful import rule

from clocks.domain.clock import (
    ClockError,
    ClockState,
    UndoRecord,
    adjust,
    advance,
    jump_to,
    next_period,
    pause,
    previous_period,
    resume,
    undo,
    view,
)
from tests.clocks.clock_machine import ClockMachine
from tests.clocks.rimoc_evening import BREAK_1, MIN, RIMOC, SEC, T0, started
from tests.conftest import numbered_players, seat_players
from tourney.models import AuditEntry, TournamentEvent

# --- the pure transition -------------------------------------------------------------------


def record_of(fn, state: ClockState, now: int, *args) -> tuple[ClockState, UndoRecord]:
    """Apply a manual change the way the service does and keep what undo needs."""
    before = advance(state, RIMOC, now).state
    after = fn(before, RIMOC, now, *args)
    return after, UndoRecord(before, after.version)


def test_an_undone_pause_resumes_as_if_the_time_had_kept_running() -> None:
    running = started()
    paused, record = record_of(pause, running, T0 + 5 * MIN)
    restored = undo(paused, RIMOC, T0 + 7 * MIN, record)
    assert restored == ClockState("running", 0, running.period_ends_at_ms, None, paused.version + 1)
    assert view(restored, RIMOC, T0 + 7 * MIN).remaining_ms == 8 * MIN


def test_an_undone_next_returns_to_the_level_with_its_original_end() -> None:
    running = started()
    skipped, record = record_of(next_period, running, T0 + 2 * MIN)
    assert view(skipped, RIMOC, T0 + 2 * MIN).period.small_blind == 200
    restored = undo(skipped, RIMOC, T0 + 3 * MIN, record)
    shown = view(restored, RIMOC, T0 + 3 * MIN)
    assert (shown.period_index, shown.ends_at_ms) == (0, T0 + 15 * MIN)
    assert shown.remaining_ms == 12 * MIN


def test_an_undone_resume_gives_back_the_frozen_time() -> None:
    paused = pause(started(), RIMOC, T0 + 5 * MIN)
    resumed, record = record_of(resume, paused, T0 + 9 * MIN)
    restored = undo(resumed, RIMOC, T0 + 12 * MIN, record)
    assert restored.status == "paused" and restored.paused_remaining_ms == 10 * MIN


@pytest.mark.parametrize(
    ("fn", "args"), [(adjust, (-60,)), (adjust, (90,)), (previous_period, ()), (jump_to, (7,))]
)
def test_undo_restores_the_clock_before_the_change(fn, args) -> None:
    state = next_period(started(), RIMOC, T0 + MIN)  # L2 from 19:01, ends 19:16
    changed, record = record_of(fn, state, T0 + 4 * MIN, *args)
    restored = undo(changed, RIMOC, T0 + 4 * MIN, record)
    assert view(restored, RIMOC, T0 + 4 * MIN).as_dict() == {
        **view(state, RIMOC, T0 + 4 * MIN).as_dict(),
        "version": changed.version + 1,
    }


def test_an_undone_mistake_whose_period_would_have_ended_is_simply_late() -> None:
    running = started()
    paused, record = record_of(pause, running, T0 + 14 * MIN)
    restored = undo(paused, RIMOC, T0 + 16 * MIN, record)
    stepped = advance(restored, RIMOC, T0 + 16 * MIN)
    assert [c.scheduled_at_ms for c in stepped.changes] == [T0 + 15 * MIN]
    assert view(restored, RIMOC, T0 + 16 * MIN).period_index == 1


def test_nothing_to_undo_without_a_record() -> None:
    with pytest.raises(ClockError) as info:
        undo(started(), RIMOC, T0, None)
    assert info.value.code == "nothing_to_undo"


def test_undo_is_refused_after_another_change() -> None:
    paused, record = record_of(pause, started(), T0 + MIN)
    changed = adjust(paused, RIMOC, T0 + 2 * MIN, 60)
    with pytest.raises(ClockError) as info:
        undo(changed, RIMOC, T0 + 2 * MIN, record)
    assert info.value.code == "undo_stale"


def test_undo_is_refused_once_a_period_change_is_due_even_before_it_is_stored() -> None:
    changed, record = record_of(adjust, started(), T0 + MIN, -60)
    with pytest.raises(ClockError) as info:
        undo(changed, RIMOC, T0 + 14 * MIN, record)  # L1 now ends at 19:14
    assert info.value.code == "undo_stale"


def test_undo_gives_back_the_last_period_ended_by_a_mistake() -> None:
    last = jump_to(started(), RIMOC, T0, len(RIMOC) - 1)
    over, record = record_of(next_period, last, T0 + MIN)
    assert over.status == "overtime"
    restored = undo(over, RIMOC, T0 + 2 * MIN, record)
    assert restored.status == "running" and restored.period_index == len(RIMOC) - 1


def test_jump_to_the_first_break() -> None:
    jumped = jump_to(started(), RIMOC, T0 + MIN, BREAK_1)
    shown = view(jumped, RIMOC, T0 + MIN)
    assert (
        shown.period.kind == "break" and shown.remaining_ms == RIMOC[BREAK_1].duration_seconds * SEC
    )


# --- random sequences with undo ------------------------------------------------------------

MANUAL = (pause, resume, next_period, previous_period, jump_to, adjust)


class ClockUndoMachine(ClockMachine):
    """The clock machine (tests/clocks/clock_machine.py) plus undo: every invariant there
    (remaining time consistent with elapsed time, no drift, a late timer never wrong) must
    survive undo."""

    record: tuple[UndoRecord, int, int] | None = None

    def _apply(self, fn, expected_code, *args):
        before = advance(self.state, self.periods, self.now).state
        saved = (self.added_ms, self.seen_index)
        new = super()._apply(fn, expected_code, *args)
        if new is not None and fn in MANUAL:
            self.record = (UndoRecord(before, new.version), *saved)
        elif new is not None:
            self.record = None  # start (and undo itself) cannot be undone
        return new

    @rule()
    def do_undo(self) -> None:
        caught_up = advance(self.state, self.periods, self.now).state
        if self.record is None:
            code = "nothing_to_undo"
        elif caught_up.version != self.record[0].after_version:
            code = "undo_stale"
        else:
            code = None
        record = None if self.record is None else self.record[0]
        if code is not None:
            with pytest.raises(ClockError) as info:
                undo(self.state, self.periods, self.now, record)
            assert info.value.code == code
            return
        restored = undo(self.state, self.periods, self.now, record)
        b = record.before
        assert restored.version == caught_up.version + 1
        assert (restored.status, restored.period_index) == (b.status, b.period_index)
        assert restored.period_ends_at_ms == b.period_ends_at_ms
        assert restored.paused_remaining_ms == b.paused_remaining_ms
        self.state = restored
        _record, self.added_ms, self.seen_index = self.record
        self.record = None


TestClockUndoMachine = ClockUndoMachine.TestCase
TestClockUndoMachine.settings = settings(
    max_examples=150,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)


# --- through the API -----------------------------------------------------------------------

T_EVENING = "2026-11-29 19:00:00 +01:00"


@pytest.fixture
def running(api, tournament):
    """The Rimóc tournament with four players, drawn and started at 19:00 (time frozen)."""
    seat_players(api, tournament, numbered_players(4))
    with time_machine.travel(T_EVENING, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        yield tournament, traveller


def clock_url(tournament, op: str = "") -> str:
    return f"/tournaments/{tournament.pk}/clock" + (f"/{op}" if op else "")


@pytest.mark.django_db
def test_undo_a_pause_through_the_api(api, running):
    tournament, traveller = running
    started_clock = api.get(clock_url(tournament)).json()
    traveller.shift(60)
    paused = api.post(clock_url(tournament, "pause")).json()
    traveller.shift(30)
    undone = api.post(clock_url(tournament, "undo"), {"version": paused["version"]})
    assert undone.status_code == 200, undone.json()
    clock = undone.json()
    assert clock["status"] == "running" and clock["ends_at_ms"] == started_clock["ends_at_ms"]
    assert clock["remaining_ms"] == 15 * MIN - 90 * SEC
    assert clock["version"] == paused["version"] + 1
    event = TournamentEvent.objects.filter(kind="clock").last()
    assert event.payload["reason"] == "undo" and event.payload["status"] == "running"
    entry = AuditEntry.objects.filter(tournament=tournament).order_by("-id").first()
    assert entry.action == "clock.undo" and entry.before["status"] == "paused"
    again = api.post(clock_url(tournament, "undo"))
    assert again.status_code == 409 and again.json()["code"] == "nothing_to_undo"


@pytest.mark.django_db
def test_undo_a_next_returns_to_the_level_with_its_original_end(api, running):
    tournament, traveller = running
    first_end = api.get(clock_url(tournament)).json()["ends_at_ms"]
    traveller.shift(120)
    api.post(clock_url(tournament, "next"))
    clock = api.post(clock_url(tournament, "undo")).json()
    assert clock["period_index"] == 0 and clock["ends_at_ms"] == first_end


@pytest.mark.django_db
def test_nothing_to_undo_right_after_the_start(api, running):
    tournament, _traveller = running
    response = api.post(clock_url(tournament, "undo"))
    assert response.status_code == 409 and response.json()["code"] == "nothing_to_undo"
    assert response.json()["detail"]


@pytest.mark.django_db
def test_undo_refused_after_an_automatic_period_change(api, running):
    tournament, traveller = running
    api.post(clock_url(tournament, "adjust"), {"seconds": -60})
    traveller.shift(14 * 60 + 1)
    version = api.get(clock_url(tournament)).json()["version"]
    response = api.post(clock_url(tournament, "undo"))
    assert response.status_code == 409 and response.json()["code"] == "undo_stale"
    assert api.get(clock_url(tournament)).json()["version"] == version  # refused: no change


@pytest.mark.django_db
def test_undo_offered_for_one_change_does_not_take_back_a_later_one(api, running):
    tournament, _traveller = running
    paused = api.post(clock_url(tournament, "pause")).json()
    api.post(clock_url(tournament, "resume"))
    response = api.post(clock_url(tournament, "undo"), {"version": paused["version"]})
    assert response.status_code == 409 and response.json()["code"] == "undo_stale"
    assert api.get(clock_url(tournament)).json()["status"] == "running"


@pytest.mark.django_db
def test_jump_to_a_level_and_back_by_undo(api, running):
    tournament, _traveller = running
    jumped = api.post(clock_url(tournament, "jump"), {"period_index": 5}).json()
    assert jumped["period"]["level"] == 5 and jumped["remaining_ms"] == 15 * MIN
    bad = api.post(clock_url(tournament, "jump"), {"period_index": 99})
    assert bad.status_code == 409 and bad.json()["code"] == "invalid_period"
    assert api.post(clock_url(tournament, "undo")).json()["period_index"] == 0


@pytest.mark.django_db
def test_floor_may_not_jump_or_undo(api, api_as, running):
    tournament, _traveller = running
    floor = api_as("floor")
    assert floor.post(clock_url(tournament, "pause")).status_code == 200
    assert floor.post(clock_url(tournament, "undo")).status_code == 403
    assert floor.post(clock_url(tournament, "jump"), {"period_index": 2}).status_code == 403


@pytest.mark.django_db
def test_a_jump_is_audited_by_level_name(api, running):
    tournament, _traveller = running
    api.post(clock_url(tournament, "jump"), {"period_index": 4})
    entry = AuditEntry.objects.filter(tournament=tournament).order_by("-id").first()
    assert entry.display_summary() == "Clock moved to break 1"


@pytest.mark.django_db
def test_the_console_strip_offers_floor_only_pause_and_resume(running):
    from django.test import Client

    from tests.conftest import make_staff

    tournament, _traveller = running
    client = Client()
    client.force_login(make_staff("floor1", "floor"))
    page = client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="cc-toggle"' in page and 'id="cc-undo"' not in page
    assert 'data-op="next"' not in page and 'id="cc-jump"' not in page
