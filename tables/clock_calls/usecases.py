"""Calling the clock on a player (docs/rules.md §9): the house's time to act, the closing
countdown, and what happens when it runs out, shown on the dealer page and the console."""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.selectors import now_ms
from tables.clock_calls.selectors import clock_call_out, clock_call_rules, clock_call_times
from tables.domain.clock_call import (
    ClockCallError,
    clock_call_start,
    clock_call_status,
)
from tables.models import ClockCall, TournamentTable
from tables.seating.selectors import table_in_play
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.core.locks import tournament_lock
from tourney.events.log import event_append
from tourney.models import Entry
from tourney.tournaments.selectors import tournament_not_over, tournament_rules

OUTCOMES = {c.value for c in ClockCall.Outcome}


def _caller_checked(table, seat: int, caller_seat: int) -> None:
    """Only a player present at the table may call the clock (Veszprém 002:240): a seat of this
    table where someone plays, not away, and not the player the clock is called on."""
    if caller_seat == seat:
        raise InvalidInput(
            "clock_caller_is_the_player", _("A player cannot call the clock on himself.")
        )
    caller = Entry.objects.filter(
        seat_row__tournament_table=table, seat=caller_seat, status=Entry.Status.ACTIVE
    ).first()
    if caller is None or caller.absent_since is not None:
        raise InvalidInput(
            "clock_caller_not_at_table",
            _("Only a player present at this table may call the clock: nobody sits in seat %(s)s.")
            % {"s": caller_seat}
            if caller is None
            else _("Only a player present at this table may call the clock: seat %(s)s is away.")
            % {"s": caller_seat},
        )


def clock_call_begin(
    *,
    actor,
    tournament_id: int,
    table_number: int,
    seat: int,
    elapsed_seconds: int | None = None,
    caller_seat: int | None = None,
) -> dict:
    """Call the clock on the player in `seat`: the final table's time when one table is left.
    `caller_seat`: the player who asked, present at this table (docs/rules.md §9.1)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        # A finished (or cancelled) tournament: its winner still "plays" in his seat, but no
        # clock is called any more (the production run's dealer link called one after the end).
        tournament_not_over(tournament)
        table = table_in_play(tournament, table_number)
        entry = (
            Entry.objects.select_related("player")
            .filter(seat_row__tournament_table=table, seat=seat, status=Entry.Status.ACTIVE)
            .first()
        )
        if entry is None:
            raise InvalidInput(
                "seat_empty", _("Nobody plays in seat %(s)s of this table.") % {"s": seat}
            )
        if caller_seat is not None:
            _caller_checked(table, seat, caller_seat)
        if ClockCall.objects.filter(tournament_table=table, outcome="").exists():
            raise Conflict("clock_call_running", _("A clock is already running at this table."))
        rules = tournament_rules(tournament)
        # The final table of a multi-table event: its field needed more than one table (a
        # sit-and-go's one table is not a final table, docs/rules.md §9).
        final_table = (
            TournamentTable.objects.filter(
                tournament=tournament, status=TournamentTable.Status.OPEN
            ).count()
            == 1
            and tournament.sng_series_id is None
        )
        now = now_ms()
        try:
            times = clock_call_start(
                clock_call_rules(rules),
                called_at_ms=now,
                final_table=final_table,
                elapsed_seconds=elapsed_seconds,
            )
        except ClockCallError as exc:
            raise refusal(exc) from exc
        call = ClockCall.objects.create(
            tournament=tournament,
            tournament_table=table,
            seat=seat,
            entry=entry,
            called_at_ms=now,
            seconds=times.seconds,
            countdown_seconds=times.countdown_seconds,
            ends_at_ms=times.ends_at_ms,
            final_table=final_table,
            called_by=actor if actor is not None and actor.is_authenticated else None,
            caller_seat=caller_seat,
        )
        row = clock_call_out(call, rules, now)
        audit_record(
            actor=actor,
            action="clock_call.start",
            summary=audit_text(
                gettext_noop("Clock called on %(name)s at table %(t)s: %(s)s s"),
                {"name": entry.player.name, "t": table.number, "s": times.seconds},
            ),
            tournament=tournament,
            target=call,
            after=row,
        )
        event_append(tournament, "clock_call", row)
        return row


def clock_call_finish(*, actor, tournament_id: int, call_id: int, outcome: str) -> dict:
    """End a called clock: the player acted in time, the time expired, or the floor
    cancelled it. "acted" after the time ran out is refused (TDA 29: exactly at zero counts)."""
    if outcome not in OUTCOMES:
        raise InvalidInput(
            "invalid_outcome", _("The outcome must be one of: acted, expired, cancelled.")
        )
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        call = (
            ClockCall.objects.select_related("tournament_table", "entry__player")
            .filter(tournament=tournament, pk=call_id)
            .first()
        )
        if call is None:
            raise NotFound("clock_call_not_found", _("There is no such clock call."))
        if call.outcome:
            raise Conflict("clock_call_ended", _("This clock call has ended already."))
        now = now_ms()
        rules = tournament_rules(tournament)
        phase = clock_call_status(clock_call_times(call), now).phase
        if outcome == "acted" and phase == "expired":
            raise Conflict(
                "clock_call_expired",
                _("The time had run out before the player acted: record it as expired."),
            )
        if outcome == "expired" and phase != "expired":
            raise Conflict("clock_call_not_expired", _("There is still time left on this clock."))
        before = clock_call_out(call, rules, now)
        call.outcome = outcome
        call.ended_at_ms = now
        call.save(update_fields=["outcome", "ended_at_ms"])
        row = clock_call_out(call, rules, now)
        audit_record(
            actor=actor,
            action="clock_call.end",
            summary=audit_text(
                gettext_noop("Clock call on %(name)s ended: %(outcome)s"),
                {"name": row["player_name"] or "?", "outcome": outcome},
            ),
            tournament=tournament,
            target=call,
            before=before,
            after=row,
        )
        event_append(tournament, "clock_call", row)
        return row
