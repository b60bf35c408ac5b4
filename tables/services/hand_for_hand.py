"""Hand-for-hand play near the money (docs/rules.md §11.5, TDA RP-8).

While it is on, every table plays one hand and waits; the hand-for-hand hand ends when every
table in play has reported it finished. The clock is paused when it starts and, per hand,
the house's `h4h_seconds_per_hand` are taken off the level. Bust-outs in one hand-for-hand
hand share places by the house's `h4h_mode` (tourney.services.eliminations).
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.services.clock_changes import clock_change
from clocks.services.clock_state import clock_view
from tables.models import TournamentTable
from tourney.errors import Conflict
from tourney.models import Tournament
from tourney.selectors import tournament_rules
from tourney.services.audit import audit_record, audit_text
from tourney.services.events import event_append
from tourney.services.locks import tournament_lock


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


def _clock(actor, tournament: Tournament, operation: str, seconds: int | None = None) -> None:
    """A clock change as part of hand-for-hand; a clock that cannot (finished, not running)
    is left as it is."""
    try:
        clock_change(actor, tournament, operation, seconds)
    except Conflict:
        return


def _announce(actor, tournament: Tournament, summary, reason: str) -> dict:
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


def hand_for_hand_set(*, actor, tournament_id: int, active: bool) -> dict:
    """Start (`active`) or end hand-for-hand. Starting pauses the clock and opens hand 1;
    ending resumes a paused clock."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if tournament.hand_for_hand == active:
            raise Conflict(
                "h4h_already_on" if active else "h4h_not_on",
                _("Hand-for-hand is already on.") if active else _("Hand-for-hand is not on."),
            )
        if active:
            if tournament.status != Tournament.Status.RUNNING:
                raise Conflict(
                    "tournament_not_running", _("Hand-for-hand needs a running tournament.")
                )
            open_tables = TournamentTable.objects.filter(
                tournament=tournament, status=TournamentTable.Status.OPEN
            )
            if open_tables.count() < 2:
                raise Conflict(
                    "single_table", _("Hand-for-hand is for two or more tables in play.")
                )
            open_tables.update(h4h_hand_done=0)
            tournament.hand_for_hand = True
            tournament.h4h_hand = 1
            tournament.h4h_started_at = timezone.now()
        else:
            tournament.hand_for_hand = False
        tournament.save(update_fields=["hand_for_hand", "h4h_hand", "h4h_started_at"])
        _clock(actor, tournament, "pause" if active else "resume")
        return _announce(
            actor,
            tournament,
            audit_text(
                gettext_noop("Hand-for-hand started")
                if active
                else gettext_noop("Hand-for-hand ended")
            ),
            "start" if active else "stop",
        )


def hand_for_hand_table_done(actor, tournament: Tournament, table: TournamentTable) -> None:
    """Inside a hand report (tournament locked): this table finished the current hand-for-hand
    hand; when it was the last one, the next hand starts and its time comes off the clock."""
    if not tournament.hand_for_hand:
        return
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
        return
    finished = tournament.h4h_hand
    tournament.h4h_hand += 1
    tournament.save(update_fields=["h4h_hand"])
    seconds = tournament_rules(tournament).h4h_seconds_per_hand
    if seconds:
        _take_time(actor, tournament, seconds)
    _announce(
        actor,
        tournament,
        audit_text(
            gettext_noop("Hand-for-hand hand %(h)s finished at every table"), {"h": finished}
        ),
        "hand",
    )


def _take_time(actor, tournament: Tournament, seconds: int) -> None:
    left = clock_view(tournament)["remaining_ms"] // 1000
    if min(seconds, left) > 0:
        _clock(actor, tournament, "adjust", -min(seconds, left))


def hand_for_hand_end_at_final_table(actor, tournament: Tournament) -> None:
    """Inside a floor change: hand-for-hand ends by itself once one table is left."""
    if not tournament.hand_for_hand:
        return
    if (
        TournamentTable.objects.filter(
            tournament=tournament, status=TournamentTable.Status.OPEN
        ).count()
        > 1
    ):
        return
    tournament.hand_for_hand = False
    tournament.save(update_fields=["hand_for_hand"])
    _clock(actor, tournament, "resume")
    _announce(
        actor,
        tournament,
        audit_text(gettext_noop("Hand-for-hand ended: one table left")),
        "stop",
    )
