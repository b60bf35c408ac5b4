"""Hand-for-hand play near the money (docs/rules.md §11.5, TDA RP-8): the operations.

While it is on, every table plays one hand and waits; the hand-for-hand hand ends when every
table in play has reported it finished. The clock is paused when it starts and, per hand,
the house's `h4h_seconds_per_hand` are taken off the level. Bust-outs in one hand-for-hand
hand share places by the house's `h4h_mode` (tourney.eliminations.usecases).

These take the locked tournament and touch no clock: each returns what the clock must do,
and the use case (`tables.hand_for_hand.usecases`) does it.
"""

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.models import TournamentTable
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict
from tourney.events.log import event_append
from tourney.models import Tournament
from tourney.tournaments.selectors import tournament_rules


def hand_for_hand_state(tournament: Tournament) -> dict:
    """{active, hand, tables_done, tables_playing}: which tables finished the current hand."""
    tables = TournamentTable.objects.filter(
        tournament=tournament, status=TournamentTable.Status.OPEN
    ).values_list("number", "h4h_hand_done")
    done = sorted(n for n, h in tables if tournament.hand_for_hand and h >= tournament.h4h_hand)
    playing = sorted(n for n, _h in tables if n not in done) if tournament.hand_for_hand else []
    return {
        "active": tournament.hand_for_hand,
        "hand": tournament.h4h_hand if tournament.hand_for_hand else None,
        "tables_done": done,
        "tables_playing": playing,
        "seconds_per_hand": tournament_rules(tournament).h4h_seconds_per_hand,
    }


def hand_for_hand_announce(actor, tournament: Tournament, summary, reason: str) -> dict:
    """The audit entry and the `hand_for_hand` event of a change; returns the state."""
    state = hand_for_hand_state(tournament)
    audit_record(
        actor=actor,
        action=f"h4h.{reason}",
        summary=summary,
        tournament=tournament,
        target=tournament,
        after=state,
    )
    event_append(tournament, "hand_for_hand", {"reason": reason, **state})
    return state


def hand_for_hand_switch(tournament: Tournament, active: bool) -> None:
    """Start (`active`: hand 1 opens) or end hand-for-hand; the clock is the caller's (paused
    at the start, resumed at the end)."""
    if tournament.hand_for_hand == active:
        raise Conflict(
            "h4h_already_on" if active else "h4h_not_on",
            _("Hand-for-hand is already on.") if active else _("Hand-for-hand is not on."),
        )
    if active:
        if tournament.status != Tournament.Status.RUNNING:
            raise Conflict("tournament_not_running", _("Hand-for-hand needs a running tournament."))
        open_tables = TournamentTable.objects.filter(
            tournament=tournament, status=TournamentTable.Status.OPEN
        )
        if open_tables.count() < 2:
            raise Conflict("single_table", _("Hand-for-hand is for two or more tables in play."))
        open_tables.update(h4h_hand_done=0)
        tournament.hand_for_hand = True
        tournament.h4h_hand = 1
        tournament.h4h_started_at = timezone.now()
    else:
        tournament.hand_for_hand = False
    tournament.save(update_fields=["hand_for_hand", "h4h_hand", "h4h_started_at"])


def hand_for_hand_table_done(tournament: Tournament, table: TournamentTable) -> int | None:
    """Inside a hand report: this table finished the current hand-for-hand hand. Returns the
    hand's number when it was the last table (the next hand starts; the caller takes its time
    off the clock, then `hand_for_hand_hand_announce`), else None."""
    if not tournament.hand_for_hand:
        return None
    if table.h4h_hand_done >= tournament.h4h_hand:
        raise Conflict(
            "h4h_wait",
            _("Hand-for-hand: wait until every table has finished hand %(h)s.")
            % {"h": tournament.h4h_hand},
        )
    table.h4h_hand_done = tournament.h4h_hand
    table.save(update_fields=["h4h_hand_done"])
    waiting = (
        TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.OPEN)
        .filter(h4h_hand_done__lt=tournament.h4h_hand)
        .exists()
    )
    if waiting:
        event_append(
            tournament, "hand_for_hand", {"reason": "table", **hand_for_hand_state(tournament)}
        )
        return None
    finished = tournament.h4h_hand
    tournament.h4h_hand += 1
    tournament.save(update_fields=["h4h_hand"])
    return finished


def hand_for_hand_hand_announce(actor, tournament: Tournament, finished: int) -> None:
    hand_for_hand_announce(
        actor,
        tournament,
        audit_text(
            gettext_noop("Hand-for-hand hand %(h)s finished at every table"), {"h": finished}
        ),
        "hand",
    )


def hand_for_hand_end_at_final_table(tournament: Tournament) -> bool:
    """Hand-for-hand ends by itself once one table is left: True when it ended now (the
    caller resumes the clock, then `hand_for_hand_final_table_announce`)."""
    if not tournament.hand_for_hand:
        return False
    if (
        TournamentTable.objects.filter(
            tournament=tournament, status=TournamentTable.Status.OPEN
        ).count()
        > 1
    ):
        return False
    tournament.hand_for_hand = False
    tournament.save(update_fields=["hand_for_hand"])
    return True


def hand_for_hand_final_table_announce(actor, tournament: Tournament) -> None:
    hand_for_hand_announce(
        actor,
        tournament,
        audit_text(gettext_noop("Hand-for-hand ended: one table left")),
        "stop",
    )
