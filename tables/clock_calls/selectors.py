"""Reads of clock calls: the active ones of a tournament, each as the API and the pages
show it, and the house's timings."""

from django.utils.translation import gettext as _

from clocks.clock.selectors import now_ms
from tables.domain.clock_call import (
    ClockCallRules,
    ClockCallTimes,
    clock_call_status,
    expiry_outcome,
)
from tables.models import ClockCall
from tourney.domain.house_rules_params import HouseRules
from tourney.models import Tournament
from tourney.tournaments.selectors import tournament_rules


def clock_calls_active(tournament: Tournament) -> list[dict]:
    rules = tournament_rules(tournament)
    calls = ClockCall.objects.select_related("tournament_table", "entry__player").filter(
        tournament=tournament, outcome=""
    )
    return [clock_call_out(c, rules) for c in calls]


def clock_call_out(call: ClockCall, rules: HouseRules, now: int | None = None) -> dict:
    """API row: the times, the phase now, and the outcome at expiry spelled out."""
    status = clock_call_status(clock_call_times(call), now if now is not None else now_ms())
    call_rules = clock_call_rules(rules)
    on_bet = expiry_outcome(call_rules, facing_bet=True)
    no_bet = expiry_outcome(call_rules, facing_bet=False)
    return {
        "id": call.pk,
        "table": call.tournament_table.number,
        "seat": call.seat,
        "caller_seat": call.caller_seat,
        "entry_id": call.entry_id,
        "player_name": call.entry.player.name if call.entry_id else None,
        "seconds": call.seconds,
        "countdown_seconds": call.countdown_seconds,
        "called_at_ms": call.called_at_ms,
        "countdown_from_ms": call.ends_at_ms - call.countdown_seconds * 1000,
        "ends_at_ms": call.ends_at_ms,
        "final_table": call.final_table,
        "phase": status.phase if not call.outcome else "ended",
        "remaining_ms": status.remaining_ms if not call.outcome else 0,
        "outcome": call.outcome or None,
        "at_expiry": {"facing_bet": on_bet, "no_bet": no_bet},
        "at_expiry_text": _("At zero: facing a bet, the hand is dead; otherwise %(no_bet)s.")
        % {"no_bet": _("check") if no_bet == "check" else _("fold")},
    }


def clock_call_rules(rules: HouseRules) -> ClockCallRules:
    return ClockCallRules(
        min_elapsed_seconds=rules.clock_min_elapsed_seconds,
        seconds=rules.clock_seconds,
        final_table_seconds=rules.ft_clock_seconds,
        countdown_seconds=rules.countdown_seconds,
        expiry_no_bet=rules.expiry_no_bet,
    )


def clock_call_times(call: ClockCall) -> ClockCallTimes:
    return ClockCallTimes(
        seconds=call.seconds,
        countdown_seconds=call.countdown_seconds,
        ends_at_ms=call.ends_at_ms,
        countdown_from_ms=call.ends_at_ms - call.countdown_seconds * 1000,
    )
