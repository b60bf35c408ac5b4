"""The clocks due at one instant change together (clocks.clock.usecases `clocks_advance_at`):
one transaction, the reads made once for all of them, each change as it is alone."""

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clocks.clock.usecases import clock_operate, clocks_advance_at, clocks_advance_due
from clocks.models import Clock
from tests.conftest import make_staff
from tests.factories import turbo_tournament
from tourney.models import AuditEntry, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db(transaction=True)

T0 = "2026-12-02 03:00:00 +00:00"
LEVEL_S = 60


def started_together(count: int) -> tuple[list[Tournament], int]:
    """`count` tournaments whose clocks started at one instant; the first level's end."""
    director = make_staff("director", "director")
    tournaments = [turbo_tournament([LEVEL_S] * 4, director, f"T{n}")[1] for n in range(count)]
    ends = [
        clock_operate(actor=director, tournament_id=t.pk, operation="start")["ends_at_ms"]
        for t in tournaments
    ]
    assert len(set(ends)) == 1
    return tournaments, ends[0]


def versions(tournaments) -> dict[int, int]:
    return dict(
        Clock.objects.filter(tournament__in=tournaments).values_list("tournament_id", "version")
    )


def test_the_clocks_due_at_one_instant_change_once_each_in_one_go():
    with time_machine.travel(T0, tick=False) as traveller:
        tournaments, first_end = started_together(4)
        *due, stale = tournaments
        # Late registration closes at the end of level 1 for one of them: its event follows
        # the clock's, as when it changes alone.
        Tournament.objects.filter(pk=due[0].pk).update(late_registration_level=1)
        before = versions(tournaments)
        traveller.shift(LEVEL_S + 0.2)

        with CaptureQueriesContext(connection) as queries:
            steps, ending = clocks_advance_at(
                [(t.pk, before[t.pk]) for t in due] + [(stale.pk, before[stale.pk] - 1)],
                within_ms=120_000,
            )

    assert steps == 3
    after = versions(tournaments)
    assert after[stale.pk] == before[stale.pk]  # its task was stale: left for the tick
    assert sorted(ending) == sorted(
        (t.pk, before[t.pk] + 1, first_end + LEVEL_S * 1000) for t in due
    )
    reads = [q["sql"] for q in queries if q["sql"].lstrip().upper().startswith("SELECT")]
    assert len(reads) == 3, reads  # the tournaments locked, their clocks, their structures
    relaxed = [q["sql"] for q in queries if "synchronous_commit" in q["sql"]]
    # On PostgreSQL the instant's commit does not wait for the disk (docs/architecture.md)
    assert relaxed == (
        ["SET LOCAL synchronous_commit TO OFF"] if connection.vendor == "postgresql" else []
    )
    for tournament in due:
        events = list(TournamentEvent.objects.filter(tournament=tournament).order_by("id"))
        assert [e.version for e in events] == sorted(e.version for e in events)
        changes = [e for e in events if e.payload.get("reason") == "advance"]
        assert [(c.payload["period_index"], c.payload["scheduled_at_ms"]) for c in changes] == [
            (1, first_end)
        ]
        tournament.refresh_from_db()
        assert tournament.version == events[-1].version
    closing = TournamentEvent.objects.filter(tournament=due[0], kind="registration").get()
    assert closing.payload["status"] == "closed" and closing.payload["at_ms"] == first_end
    assert closing.pk > changes_of(due[0])[0].pk
    assert AuditEntry.objects.filter(tournament=due[0], action="registration.closed").exists()
    assert changes_of(stale) == []


def changes_of(tournament) -> list[TournamentEvent]:
    return list(
        TournamentEvent.objects.filter(
            tournament=tournament, kind="clock", payload__reason="advance"
        ).order_by("id")
    )


def test_a_tick_changes_every_due_clock_together_and_again_nothing():
    with time_machine.travel(T0, tick=False) as traveller:
        tournaments, first_end = started_together(3)
        traveller.shift(2 * LEVEL_S + 0.5)  # two ends passed unticked

        assert clocks_advance_due() == 6
        assert clocks_advance_due() == 0

    for tournament in tournaments:
        changes = changes_of(tournament)
        assert [c.payload["scheduled_at_ms"] for c in changes] == [
            first_end,
            first_end + LEVEL_S * 1000,
        ]


def test_a_clock_failing_alone_too_stops_none_of_the_others_and_is_reported(client, caplog):
    """One tournament's change fails (here: its catch-up raises), so the instant's transaction
    fails and each clock is changed alone: the failing one, first in the order, fails again;
    the others still change. The failure is logged at ERROR with the clock's id and its
    traceback, and /api/v1/health names the clock's tournament among the late timers once its
    period has been over for 2 s, until a later tick catches it up."""
    import logging
    from unittest import mock

    from clocks.clock import usecases as clock_service

    with time_machine.travel(T0, tick=False) as traveller:
        tournaments, _end = started_together(3)
        failing, *others = tournaments
        before = versions(tournaments)
        traveller.shift(LEVEL_S + 0.2)
        catch_up = clock_service._catch_up

        def broken(tournament, *args, **kwargs):
            if tournament.pk == failing.pk:
                raise RuntimeError("a consequence failed")
            return catch_up(tournament, *args, **kwargs)

        with (
            mock.patch.object(clock_service, "_catch_up", broken),
            caplog.at_level(logging.WARNING, logger="clocks.clock.usecases"),
        ):
            steps, _ending = clocks_advance_at([(t.pk, before[t.pk]) for t in tournaments], None)

        assert steps == 2
        after = versions(tournaments)
        assert after[failing.pk] == before[failing.pk]
        assert all(after[t.pk] == before[t.pk] + 1 for t in others)
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        clock_id = Clock.objects.get(tournament=failing).pk
        assert len(errors) == 1 and errors[0].exc_info is not None
        assert f"clock {clock_id} " in errors[0].getMessage()
        assert f"tournament {failing.pk}" in errors[0].getMessage()

        traveller.shift(2.5)
        body = client.get("/api/v1/health").json()
        assert body["timers"] == "late"
        assert [t["tournament_id"] for t in body["late_timers"]] == [failing.pk]

        assert clocks_advance_due() == 1  # the next tick, the fault gone
        assert client.get("/api/v1/health").json()["timers"] == "ok"
