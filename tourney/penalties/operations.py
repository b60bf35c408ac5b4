"""Penalties inside another write's transaction (the tournament locked): after the dealer's hand
report, the penalties whose players were moved follow them (or end) and those whose count the
hand completes end (docs/rules.md §10)."""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext_noop

from tables.models import TournamentTable
from tourney.audit.log import audit_record, audit_text
from tourney.domain.penalties import (
    penalty_remaining,
)
from tourney.events.log import event_append
from tourney.models import Entry, Tournament
from tourney.penalties.selectors import (
    penalties_serving_in,
    penalty_follow,
    penalty_out,
    reports_since,
)
from tourney.tournaments.selectors import tournament_rules


def penalty_served_record(actor, tournament, penalty, row, before, by_floor: bool) -> None:
    audit_record(
        actor=actor,
        action="penalty.served",
        summary=audit_text(
            gettext_noop("%(name)s back in play: penalty ended by the floor")
            if by_floor
            else gettext_noop("%(name)s back in play: %(hands)s hands sat out"),
            {"name": penalty.player.name, "hands": penalty.hands},
        ),
        tournament=tournament,
        target=penalty,
        before=before,
        after=row,
    )
    event_append(tournament, "penalty", {"action": "served", "penalty": row})


def penalties_follow_seats(actor, tournament: Tournament, now: datetime) -> None:
    """Before a hand is counted: penalties whose players were moved follow them (or end, by
    the house rules). Inside the hand report's transaction; hands are only counted here, so
    the tables' counts have not changed since the move."""
    rules = tournament_rules(tournament)
    for penalty in penalties_serving_in(tournament).filter(entry__status=Entry.Status.ACTIVE):
        before = {"table": penalty.table_number, "seat": penalty.seat}
        change = penalty_follow(penalty, penalty.entry, rules, now)
        if change is None:
            continue
        penalty.save()
        after = {
            "table": penalty.table_number,
            "seat": penalty.seat,
            "hands_served_before": penalty.hands_served_before,
        }
        audit_record(
            actor=actor,
            action="penalty.follow" if change == "moved" else "penalty.served",
            summary=audit_text(
                gettext_noop("Penalty of %(name)s goes on at table %(t)s seat %(s)s")
                if change == "moved"
                else gettext_noop("Penalty of %(name)s ended: moved to another table"),
                {"name": penalty.player.name, "t": penalty.table_number, "s": penalty.seat},
            ),
            tournament=tournament,
            target=penalty,
            before=before,
            after=after,
        )
        if change == "ended" or penalty.hands_served_before >= penalty.hands:
            if penalty.served_at is None:
                penalty.served_at = now
                penalty.save(update_fields=["served_at"])
            event_append(
                tournament,
                "penalty",
                {"action": "served", "penalty": penalty_out(penalty, rules, now)},
            )


def penalties_after_hand(actor, tournament: Tournament, table: TournamentTable, now) -> None:
    """After a hand report at `table`: penalties whose count it completes end there."""
    rules = tournament_rules(tournament)
    for penalty in penalties_serving_in(tournament).filter(
        tournament_table=table, entry__status=Entry.Status.ACTIVE
    ):
        reports, misdeals = reports_since(table.pk, penalty.table_hands_at_start)
        left = penalty_remaining(penalty.hands, penalty.hands_served_before + reports, misdeals)
        if left:
            continue
        before = penalty_out(penalty, rules, now)
        penalty.served_at = now
        penalty.save(update_fields=["served_at"])
        penalty_served_record(
            actor, tournament, penalty, penalty_out(penalty, rules, now), before, by_floor=False
        )
