"""Operating the blind clock: the use cases, one transaction each, compare-and-set on the
clock's version (the changes themselves: `clocks.clock.operations`).

What follows from the clock moving on is followed here, in one bounded sequence, never by
calling back into a use case: the period changes that are due, late registration closing or
reopening, and on the automatic advance the absent-player deadline (docs/rules.md §2.3), whose
eliminations replan the floor, which may form the final table and so end hand-for-hand, which
resumes the clock (a change, not another advance).
"""

import logging
from collections.abc import Iterable

from django.db import connection, transaction
from django.utils.translation import gettext as _

from clocks.clock.operations import clock_apply, clock_catch_up, clock_change, clock_ensure
from clocks.clock.selectors import (
    clock_view,
    now_ms,
    structure_periods,
    structures_periods,
)
from clocks.domain.clock import ClockState
from clocks.domain.colorup import chips_in_play
from clocks.domain.continuation import levels_continued
from clocks.domain.structures import (
    Period,
    StructureData,
    period_rows,
)
from clocks.models import Clock, Structure, StructureLevel
from clocks.structures.operations import structure_copy
from infra import bus
from infra.db.write_batch import WriteBatch
from tourney.absence.operations import absent_deadline_apply
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput
from tourney.core.locks import tournament_lock, tournaments_lock
from tourney.eliminations.follow import eliminations_at_deadline
from tourney.events.log import event_append
from tourney.models import Tournament
from tourney.tournaments.selectors import tournament_not_over

logger = logging.getLogger(__name__)

__all__ = [
    "clock_advance_and_next",
    "clock_advance_one",
    "clock_operate",
    "clocks_advance_at",
    "clocks_advance_due",
    "clocks_advance_together",
    "clocks_ending_soon",
    "tournament_start",
]


def _catch_up(
    tournament, clock: Clock, periods: list[Period], now: int, writes: WriteBatch | None = None
) -> ClockState:
    """Store the period changes that are due, with what follows from them, the absent-player
    deadline included (`writes`, held: the clock's row and events go there)."""
    result = clock_catch_up(tournament, clock, periods, now, writes)
    if result.changed:
        due = absent_deadline_apply(tournament=tournament, state=result.state, periods=periods)
        if due is not None:
            eliminations_at_deadline(tournament, due.absent, due.remaining, due.now)
            clock.refresh_from_db()  # a bust-out at the deadline may have finished the clock
    return result.state


def clock_operate(
    *,
    actor,
    tournament_id: int,
    operation: str,
    seconds: int | None = None,
    period_index: int | None = None,
    expected_version: int | None = None,
) -> dict:
    """Apply start/pause/resume/next/previous/adjust/jump/undo and return the clock as the API
    shows it. `expected_version` (undo): refuse unless the clock is still at that version, so
    an Undo offered after one change cannot take back someone else's later change."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        # Finished (the winner is known, the clock stopped with it) or cancelled: no clock
        # change any more, 409 `tournament_over` (undoing the last bust-out reopens it).
        tournament_not_over(tournament)
        clock = clock_ensure(tournament)
        periods = structure_periods(tournament.structure_id)
        now = now_ms()
        before = _catch_up(tournament, clock, periods, now)
        return clock_apply(
            actor=actor,
            tournament=tournament,
            clock=clock,
            periods=periods,
            now=now,
            before=before,
            operation=operation,
            seconds=seconds,
            period_index=period_index,
            expected_version=expected_version,
        )


def tournament_start(*, actor, tournament_id: int) -> Tournament:
    """Start play: the clock starts and entries from now on are late registrations."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is not None and tournament.status != Tournament.Status.REGISTERING:
        raise Conflict("already_started", _("The tournament has started already."))
    clock_operate(actor=actor, tournament_id=tournament_id, operation="start")
    return Tournament.objects.get(pk=tournament_id)


def clock_advance_one(
    tournament_id: int, expected_version: int | None = None, now: int | None = None
) -> int:
    """Advance one clock if due (and still at `expected_version`); returns the steps made."""
    return _advance_one(tournament_id, expected_version, now)[0]


def clock_advance_and_next(
    tournament_id: int, expected_version: int, within_ms: int
) -> tuple[int, list[tuple[int, int, int]]]:
    """Advance one clock if due and still at `expected_version`: the steps made and, when it
    changed, its next period end as `clocks_ending_soon(within_ms)` would list it (read from
    the change just stored rather than from the database again)."""
    steps, clock = _advance_one(tournament_id, expected_version, None)
    if not steps:
        return 0, []
    now = now_ms()
    ends = clock.period_ends_at_ms
    if clock.status != "running" or ends is None or not now < ends <= now + within_ms:
        return steps, []
    return steps, [(tournament_id, clock.version, ends)]


def _advance_one(
    tournament_id: int, expected_version: int | None, now: int | None
) -> tuple[int, Clock]:
    now = now if now is not None else now_ms()
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        clock = clock_ensure(tournament)
        if expected_version is not None and clock.version != expected_version:
            return 0, clock
        before = clock.version
        _catch_up(tournament, clock, structure_periods(tournament.structure_id), now)
        return clock.version - before, clock


def clocks_ending_soon(
    within_ms: int, now: int | None = None, tournament_id: int | None = None
) -> list[tuple[int, int, int]]:
    """(tournament_id, version, ends_at_ms) of running clocks whose period ends soon (of one
    tournament's clock only, with `tournament_id`).

    The ticker schedules an on-time task for each; scheduling one twice is harmless because a
    task only acts while the version it carries is current.
    """
    now = now if now is not None else now_ms()
    clocks = Clock.objects.filter(
        status="running", period_ends_at_ms__gt=now, period_ends_at_ms__lte=now + within_ms
    )
    if tournament_id is not None:
        clocks = clocks.filter(tournament_id=tournament_id)
    return list(clocks.values_list("tournament_id", "version", "period_ends_at_ms"))


def clocks_advance_due(now: int | None = None) -> int:
    """Advance every running clock whose period has ended; idempotent. Returns changes made."""
    now = now if now is not None else now_ms()
    due = Clock.objects.filter(status="running", period_ends_at_ms__lte=now).values_list(
        "tournament_id", flat=True
    )
    return clocks_advance_at([(tournament_id, None) for tournament_id in due], None, now)[0]


Due = tuple[int, int | None]  # (tournament id, the clock's expected version or None: any)


def clocks_advance_together(due: Iterable[Due], now: int | None = None) -> list[tuple[Clock, int]]:
    """Advance every clock of `due` that is due and still at its expected version, all in one
    transaction: the clocks due at one instant (20 tournaments started together) cost one lock
    statement, one read of their clocks and one of their structures, one commit and one round
    trip to Redis for their events, instead of all that for each. Each tournament's change is
    the one `clock_advance_one` makes (its events, late registration, the absent-player
    deadline); the tournaments are locked in id order, as `tournaments_lock` always takes them.
    Returns each changed clock (as stored) with its steps."""
    expected = dict(due)
    now = now if now is not None else now_ms()
    with bus.published_together(), transaction.atomic(durable=True):
        _commit_without_waiting_for_the_disk()
        tournaments = tournaments_lock(expected)
        clocks = {c.tournament_id: c for c in Clock.objects.filter(tournament__in=tournaments)}
        periods = structures_periods({t.structure_id for t in tournaments if t.structure_id})
        with WriteBatch().held() as writes:
            changed = _advance_locked(tournaments, clocks, periods, expected, now, writes)
    return changed


def _commit_without_waiting_for_the_disk() -> None:
    """The on-time level changes' commit returns before PostgreSQL has flushed it to the disk
    (`synchronous_commit` off for this transaction only; docs/architecture.md, "A clock change").

    Why: on the benchmark's VM a commit's flush now and then stalls 120-830 ms, and every
    screen of the instant waited for it (20 simultaneous changes: p99 33-48 ms in most runs,
    152, 437 and 840 ms in the others, the COMMIT's own duration in PostgreSQL's log). What
    it risks: a crash of the database server itself within ~0.6 s (3 x wal_writer_delay) loses
    these changes, and the clock's catch-up makes them again from the schedule when the worker
    next looks (at most a second). Writes of money and entries keep the flush; a later
    synchronous commit flushes this one first, so their order holds."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL synchronous_commit TO OFF")


def _advance_locked(  # type: ignore[no-untyped-def]
    tournaments, clocks, periods, expected, now, writes
) -> list[tuple[Clock, int]]:
    """`clocks_advance_together`'s changes, the tournaments locked."""
    changed: list[tuple[Clock, int]] = []
    for tournament in tournaments:
        clock = clocks.get(tournament.pk)
        version = expected[tournament.pk]
        if clock is None or version not in (None, clock.version):
            continue
        before = clock.version
        _catch_up(tournament, clock, periods.get(tournament.structure_id, []), now, writes)
        if clock.version != before:
            changed.append((clock, clock.version - before))
    return changed


def _clock_id(tournament_id: int) -> int | None:
    """The id of the tournament's clock, for a log line; None when it cannot be read."""
    try:
        return Clock.objects.filter(tournament_id=tournament_id).values_list("pk", flat=True)[0]
    except Exception:  # the database may be what failed
        return None


def _advance_each(due: Iterable[Due], now: int | None) -> list[tuple[Clock, int]]:
    """`clocks_advance_together`'s changes, one transaction per clock (when one of them failed
    together: the others still change). A clock that fails alone too is logged at ERROR with
    its id and left as it was: the next tick tries again, and /api/v1/health lists it among
    the late timers meanwhile (`clocks_late`)."""
    changed = []
    for tournament_id, version in due:
        try:
            steps, clock = _advance_one(tournament_id, version, now)
        except Conflict:
            continue  # another ticker got there first: nothing lost, nothing doubled
        except Exception:
            logger.exception(
                "advancing clock %s (tournament %s) failed alone too; the others go on",
                _clock_id(tournament_id),
                tournament_id,
            )
            continue
        if steps:
            changed.append((clock, steps))
    return changed


def clocks_advance_at(
    due: Iterable[Due], within_ms: int | None, now: int | None = None
) -> tuple[int, list[tuple[int, int, int]]]:
    """Advance the clocks of `due` together (`clocks_advance_together`; should that fail, each
    on its own). Returns the steps made and, with `within_ms`, the changed clocks' next period
    ends as `clocks_ending_soon(within_ms)` would list them (read from the changes just stored
    rather than from the database again)."""
    due = list(due)
    if not due:
        return 0, []
    try:
        changed = clocks_advance_together(due, now)
    except Exception:  # e.g. one tournament's consequences failed: the others go on alone
        logger.warning("advancing %s clocks together failed; one by one", len(due), exc_info=True)
        changed = _advance_each(due, now)
    ending = []
    if within_ms is not None:
        now = now_ms()
        for clock, _steps in changed:
            ends = clock.period_ends_at_ms
            if clock.status == "running" and ends is not None and now < ends <= now + within_ms:
                ending.append((clock.tournament_id, clock.version, ends))
    return sum(steps for _clock, steps in changed), ending


LEVELS_ADDED_MAX = 20


OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _shared(tournament: Tournament, structure: Structure) -> bool:
    """A template, or a structure another tournament still plays on: not to be changed."""
    others = Tournament.objects.filter(structure=structure).exclude(pk=tournament.pk)
    return bool(structure.template_key) or others.exclude(status__in=OVER).exists()


def structure_levels_add(*, actor, tournament_id: int, count: int = 3) -> dict:
    """Append `count` levels to the tournament's structure; returns the clock as the API shows
    it and the number of periods now."""
    if not 1 <= count <= LEVELS_ADDED_MAX:
        raise InvalidInput(
            "invalid_input",
            _("Add from 1 to %(most)s levels at a time.") % {"most": LEVELS_ADDED_MAX},
        )
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        tournament_not_over(tournament)
        before = Structure.objects.select_for_update(no_key=True).get(pk=tournament.structure_id)
        periods = structure_periods(before.pk)
        chips = chips_in_play([c["value"] for c in before.chips], periods, len(periods))
        added = levels_continued(periods, min(chips, default=1), count)
        if _shared(tournament, before):
            # the same rows up to the end, so the clock stays where it is
            structure = structure_copy(before, f"{before.name} · {tournament.name}", added)
            Tournament.objects.filter(pk=tournament.pk).update(structure=structure)
            tournament.structure_id = structure.pk
        else:
            structure = before
            rows = period_rows(StructureData(before.name, (), (*periods, *added)))
            StructureLevel.objects.bulk_create(
                StructureLevel(structure=structure, **row) for row in rows[len(periods) :]
            )
        blinds = [[p.small_blind, p.big_blind, p.ante] for p in added]
        audit_record(
            actor=actor,
            action="structure.levels_add",
            summary=audit_text(
                "%(count)s levels added to the structure, up to %(sb)s / %(bb)s",
                {"count": count, "sb": added[-1].small_blind, "bb": added[-1].big_blind},
            ),
            tournament=tournament,
            target=structure,
            before={"structure_id": before.pk, "periods": len(periods)},
            after={"structure_id": structure.pk, "periods": len(periods) + count, "levels": blinds},
        )
        # Screens hold the structure to flip periods on their own: tell them to refetch.
        event_append(
            tournament,
            "structure",
            {"structure_id": structure.pk, "reason": "levels_added", "name": structure.name},
        )
        if Clock.objects.filter(tournament=tournament, status="overtime").exists():
            clock_change(actor, tournament, "next")  # on into the first level added, now
    return {**clock_view(tournament), "periods_count": len(periods) + count}
