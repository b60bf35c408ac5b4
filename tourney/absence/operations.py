"""The absent-player deadline inside the clock's use case (the tournament locked): recorded
once, and who is still absent when it passes."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext_noop

from clocks.domain.clock import ClockState
from clocks.domain.structures import Period
from tourney.audit.log import audit_record, audit_text
from tourney.domain.registration import level_end_passed
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import tournament_rules


def absent_deadline_apply(
    *, tournament: Tournament, state: ClockState, periods: Sequence[Period]
) -> "AbsentDeadline | None":
    """Inside an automatic clock advance: once the end of the
    `absent_eliminate_after_levels`-th level has passed, the deadline applies (once per
    tournament, only with absent_policy "eliminate"): recorded and audited here; returns the
    entries still marked absent, for the use case to eliminate
    (`tourney.eliminations.follow.eliminations_at_deadline`), or None."""
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


@dataclass(frozen=True, slots=True)
class AbsentDeadline:
    """The absent-player deadline has just passed: who is out, with how many still in."""

    absent: list[Entry]
    remaining: int
    now: datetime
