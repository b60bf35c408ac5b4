"""Absent players (docs/rules.md §2.3): marking a seated entry absent or arrived, the deadline that
eliminates entries still absent where the house rules say so, and the elimination write.

[INF] Entries eliminated together (at the deadline) share the place range: with n players
left and m eliminated they finish n-m+1 .. n, each stored with `place` = n-m+1 (the tie
notation "T-(n-m+1)"), as docs/rules.md §11.4 ties equal starting stacks in one hand: none of
them has played a hand, so their stacks are equal. Their stacks (the starting stack each) are
removed from play. [INF] The deadline applies once, to entries absent when it passes; a player
marked absent later is the floor's call (Rimóc's per-absence wait is not timed here). Manual
clock changes (next, jump) do not eliminate anyone, because they can be undone; the next
automatic period change applies a deadline a manual change skipped over.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.domain.clock import ClockState
from clocks.domain.structures import Period
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict
from tourney.core.locks import tournament_lock
from tourney.domain.registration import level_end_passed
from tourney.events.log import event_append
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import entry_of, entry_snapshot, tournament_rules


def _seated_entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = entry_of(tournament, entry_id)
    if entry.status != Entry.Status.ACTIVE or entry.tournament_table_id is None:
        raise Conflict("entry_not_seated", _("Only a seated player can be marked absent."))
    return entry


def _absent_snapshot(entry: Entry) -> dict:
    return {
        **entry_snapshot(entry),
        "player_name": entry.player.name,
        "absent": entry.absent_since is not None,
        "absent_since_ms": (
            int(entry.absent_since.timestamp() * 1000) if entry.absent_since else None
        ),
    }


@transaction.atomic
def entry_mark_absent(*, actor, tournament_id: int, entry_id: int, absent: bool = True) -> Entry:
    """Mark a seated entry absent (`absent=True`) or arrived; each undoes the other."""
    tournament = tournament_lock(tournament_id)
    entry = _seated_entry(tournament, entry_id)
    if (entry.absent_since is not None) == absent:
        raise Conflict(
            "already_absent" if absent else "not_absent",
            _("%(name)s is already marked absent.") % {"name": entry.player.name}
            if absent
            else _("%(name)s is not marked absent.") % {"name": entry.player.name},
        )
    before = _absent_snapshot(entry)
    entry.absent_since = timezone.now() if absent else None
    entry.save(update_fields=["absent_since"])
    after = _absent_snapshot(entry)
    audit_record(
        actor=actor,
        action="entry.absent" if absent else "entry.arrived",
        summary=audit_text(
            gettext_noop("%(name)s marked absent") if absent else gettext_noop("%(name)s arrived"),
            {"name": entry.player.name},
        ),
        tournament=tournament,
        target=entry,
        before=before,
        after=after,
    )
    event_append(tournament, "entry", {"action": "absent" if absent else "arrived", **after})
    return entry


@dataclass(frozen=True, slots=True)
class AbsentDeadline:
    """The absent-player deadline has just passed: who is out, with how many still in."""

    absent: list[Entry]
    remaining: int
    now: datetime


def absent_deadline_apply(
    *, tournament: Tournament, state: ClockState, periods: Sequence[Period]
) -> AbsentDeadline | None:
    """Inside an automatic clock advance: once the end of the
    `absent_eliminate_after_levels`-th level has passed, the deadline applies (once per
    tournament, only with absent_policy "eliminate"): recorded and audited here; returns the
    entries still marked absent, for the use case to eliminate
    (`tourney.eliminations.usecases.eliminations_at_deadline`), or None."""
    if tournament.absent_deadline_applied_at is not None:
        return None
    rules = tournament_rules(tournament)
    if rules.absent_policy != "eliminate":
        return None
    if not level_end_passed(state, periods, rules.absent_eliminate_after_levels):
        return None
    now = timezone.now()
    tournament.absent_deadline_applied_at = now
    tournament.save(update_fields=["absent_deadline_applied_at"])
    absent = list(
        Entry.objects.select_related("player", "tournament_table")
        .filter(tournament=tournament, status=Entry.Status.ACTIVE, absent_since__isnull=False)
        .order_by("number")
    )
    audit_record(
        actor=None,
        action="tournament.absent_deadline",
        summary=audit_text(
            gettext_noop("Absent-player deadline (end of level %(level)s): %(count)s eliminated"),
            {"level": rules.absent_eliminate_after_levels, "count": len(absent)},
        ),
        tournament=tournament,
        target=tournament,
        after={"eliminated": [e.pk for e in absent]},
    )
    remaining = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if not absent or len(absent) >= remaining:
        return None  # [INF] nobody would be left to win: the floor decides
    return AbsentDeadline(absent, remaining, now)
