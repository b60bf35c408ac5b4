"""Seats pending moves hold, and calling a pending move off to seat a newcomer in its place
(docs/rules.md §3.4). Operations: the caller holds the tournament lock."""

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.domain.seating import PendingMove, held_by_moves
from tables.floor.selectors import floor_actions_out
from tables.models import FloorAction
from tourney.models import Entry, Tournament
from tourney.services.audit import audit_record, audit_text
from tourney.services.events import event_append


def pending_moves(tournament: Tournament) -> list[PendingMove]:
    """The tournament's moves the floor has not confirmed: one statement, whatever their
    number."""
    return [
        PendingMove(entry_id, from_table, from_seat, to_table, to_seat, pk, parent_id is None)
        for pk, parent_id, entry_id, from_table, from_seat, to_table, to_seat in (
            FloorAction.objects.filter(
                tournament=tournament,
                kind=FloorAction.Kind.MOVE,
                status=FloorAction.Status.PENDING,
            )
            .order_by("pk")
            .values_list(
                "pk", "parent_id", "entry_id", "from_table", "from_seat", "to_table", "to_seat"
            )
        )
    ]


def held_seats(tournament: Tournament) -> dict[int, set[int]]:
    """Seats nobody else may be given, per table number, though the chart shows nobody in
    them (`held_by_moves`)."""
    return held_by_moves(pending_moves(tournament))


def move_call_off(tournament: Tournament, action_id: int, newcomer: Entry) -> None:
    """Call off the pending move `action_id` so that `newcomer` takes the seat it promised:
    its mover, who has not got up yet, stays in his seat (the chart puts him back there);
    audited and announced to the floor's pages."""
    action = FloorAction.objects.get(pk=action_id, tournament=tournament)
    before = floor_actions_out([action])[0]
    if action.entry_id is not None:
        table_pk, seat, waits = action.payload["before"][str(action.entry_id)]
        Entry.objects.filter(pk=action.entry_id).update(
            tournament_table_id=table_pk, seat=seat, waits_for_button=waits
        )
    action.status = FloorAction.Status.SUPERSEDED
    action.save(update_fields=["status"])
    row = floor_actions_out([action])[0]
    audit_record(
        actor=None,
        action="floor.call_off",
        summary=audit_text(
            gettext_noop(
                "Move of %(name)s called off: %(newcomer)s takes table %(table)s seat %(seat)s"
            ),
            {
                "name": row["player_name"] or _("the player who is big blind next"),
                "newcomer": newcomer.player.name,
                "table": action.to_table,
                "seat": action.to_seat,
            },
        ),
        tournament=tournament,
        target=action,
        before=before,
        after=row,
    )
    event_append(tournament, "actions", {"reason": "called_off", "actions": [row]})
