"""The absent players' deadline inside the clock's use case (the tournament locked): who is
still absent when his wait is over."""

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext_noop

from clocks.domain.clock import ClockState
from clocks.domain.structures import Period
from tourney.absence.selectors import places_paid
from tourney.audit.log import audit_record, audit_text
from tourney.domain.registration import level_end_passed
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import tournament_rules


def absent_deadline_apply(
    *, tournament: Tournament, state: ClockState, periods: Sequence[Period]
) -> "AbsentDeadline | None":
    """Inside an automatic clock advance, with absent_policy "eliminate": the entries still
    marked absent whose wait is over (the end of the level begun when each was marked absent
    plus `absent_eliminate_after_levels`, docs/rules.md §2.3), audited here and returned for
    the use case to eliminate (`tourney.eliminations.follow.eliminations_at_deadline`);
    None when there are none."""
    rules = tournament_rules(tournament)
    if rules.absent_policy != "eliminate":
        return None
    wait = rules.absent_eliminate_after_levels
    absent = [
        entry
        for entry in Entry.objects.select_related("player", "tournament_table")
        .filter(tournament=tournament, status=Entry.Status.ACTIVE, absent_since__isnull=False)
        .order_by("number")
        if level_end_passed(state, periods, (entry.absent_level or 0) + wait)
    ]
    if not absent:
        return None
    now = timezone.now()
    if tournament.absent_deadline_applied_at is None:  # the console: the first deadline passed
        tournament.absent_deadline_applied_at = now
        tournament.save(update_fields=["absent_deadline_applied_at"])
    audit_record(
        actor=None,
        action="tournament.absent_deadline",
        summary=audit_text(
            gettext_noop("Absent players' wait over (%(levels)s level(s)): %(count)s eliminated"),
            {"levels": wait, "count": len(absent)},
        ),
        tournament=tournament,
        target=tournament,
        after={"eliminated": [e.pk for e in absent]},
    )
    remaining = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if len(absent) >= remaining:
        return None  # [INF] nobody would be left to win: the floor decides
    return AbsentDeadline(absent, remaining, now)


@dataclass(frozen=True, slots=True)
class AbsentDeadline:
    """The absent-player deadline has just passed: who is out, with how many still in."""

    absent: list[Entry]
    remaining: int
    now: datetime


def absent_at_money_mark(tournament: Tournament, busted: int) -> list[int]:
    """The money is reached by the bust-out of `busted` players (docs/rules.md §2.3, Doyle #5):
    with the house rule `absent_itm_forfeit`, the players marked absent at that moment win
    nothing (their places stand, their prizes are forfeited). Returns their entry ids."""
    if not tournament_rules(tournament).absent_itm_forfeit:
        return []
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    remaining = left.count()
    paid = places_paid(tournament)
    if not remaining <= paid < remaining + busted:
        return []
    away = list(left.filter(absent_since__isnull=False).select_related("player"))
    if not away:
        return []
    now = timezone.now()
    Entry.objects.filter(pk__in=[e.pk for e in away]).update(absent_at_money=now)
    audit_record(
        actor=None,
        action="tournament.absent_at_money",
        summary=audit_text(
            gettext_noop("In the money: %(names)s absent, no prize"),
            {"names": ", ".join(e.player.name for e in away)},
        ),
        tournament=tournament,
        target=tournament,
        after={"entries": [e.pk for e in away]},
    )
    return [e.pk for e in away]


def absent_at_money_clear(tournament: Tournament) -> None:
    """A bust-out undone takes the field back out of the money: nobody has forfeited yet."""
    if not tournament_rules(tournament).absent_itm_forfeit:
        return
    remaining = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if remaining > places_paid(tournament):
        Entry.objects.filter(tournament=tournament, absent_at_money__isnull=False).update(
            absent_at_money=None
        )
