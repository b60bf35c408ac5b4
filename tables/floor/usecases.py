"""The floor's use cases: confirming and undoing an action, and the replan every other use
case follows a change of the field with (docs/rules.md §5-§7)."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.floor.follow import floor_follow
from tables.floor.selectors import floor_action_of, floor_actions_out
from tables.floor_actions.operations import (
    floor_action_confirm,
    floor_action_revert,
    floor_action_summary,
    reverted_tables,
)
from tables.models import FloorAction
from tables.seating.operations import restored_tables_positions
from tourney.audit.log import audit_record
from tourney.core.errors import Conflict
from tourney.core.locks import tournament_lock
from tourney.events.log import event_append
from tourney.registration.operations import seats_freed

__all__ = ["floor_action_done", "floor_action_undo", "floor_follow"]


def floor_action_done(
    *, actor, tournament_id: int, action_id: int, entry_id: int | None = None
) -> dict:
    """The floor confirms an action; for a move, `entry_id` names who moved when the system
    could not know (or corrects it). Confirming a break or redraw confirms all its moves. The
    seats its movers left are free now: the waiting list takes them (docs/rules.md §3.4)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        action = floor_action_of(tournament, action_id)
        row = floor_action_confirm(actor, tournament, action, entry_id)
        seats_freed(tournament, actor)  # the seats its movers held (§3.4)
        replanned = floor_follow(actor=actor, tournament=tournament)
    return {"action": row, "actions": floor_actions_out(replanned)}


def floor_action_undo(*, actor, tournament_id: int, action_id: int) -> dict:
    """Undo a move, break or redraw: players go back to the seats they left, broken tables
    reopen. Nothing is planned in its place until the next bust-out, hand or entry: the
    director who undid it decides when the floor moves again. The seats the movers were
    promised are free now: the waiting list takes them (docs/rules.md §3.4)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        action = floor_action_of(tournament, action_id)
        if action.parent_id is not None:
            raise Conflict(
                "undo_part_of_action",
                _("This move is part of a table break or redraw: undo that instead."),
            )
        if action.status == FloorAction.Status.UNDONE:
            raise Conflict("already_undone", _("This action has been undone already."))
        if action.status == FloorAction.Status.SUPERSEDED:  # called off: nobody moved
            raise Conflict(
                "action_called_off",
                _("This move was called off: its player did not move; there is nothing to undo."),
            )
        before = floor_actions_out([action])[0]
        if not floor_action_revert(action, actor, timezone.now()):
            raise Conflict(
                "undo_stale",
                _("Play has moved on since (a player busted or moved again): undo that first."),
            )
        restored_tables_positions(actor, tournament, reverted_tables([action]))
        seats_freed(tournament, actor)  # the seats its movers held (§3.4)
        row = floor_actions_out([action])[0]
        audit_record(
            actor=actor,
            action="floor.undo",
            summary=floor_action_summary(action, row, undone=True),
            tournament=tournament,
            target=action,
            before=before,
            after=row,
        )
        event_append(tournament, "actions", {"reason": "undone", "actions": [row]})
    return {"action": row, "actions": []}
