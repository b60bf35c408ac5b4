"""The floor: bust-outs and places, the to-do list of moves and breaks, hand-for-hand and
calling the clock (docs/rules.md §5 to §7, §9 and §11)."""

import functools

from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema, Status

from infra.web.schema_types import Id, Line, TableNumber
from tables.clock_calls.selectors import clock_calls_active
from tables.clock_calls.usecases import clock_call_begin, clock_call_finish
from tables.dealer_links.selectors import (
    require_action_at,
    require_busts_at,
    require_clock_call_at,
    require_floor_at,
)
from tables.floor.selectors import floor_actions_list
from tables.floor.usecases import floor_action_done, floor_action_undo
from tables.hand_for_hand.operations import hand_for_hand_state
from tables.hand_for_hand.usecases import hand_for_hand_set
from tables.seating.schemas import (
    ActionDoneIn,
    ActionOut,
    ActionResultOut,
    ClockCallEndIn,
    ClockCallIn,
    ClockCallOut,
    EliminationsIn,
    EliminationsOut,
    EliminationUndoOut,
    HandForHandIn,
    HandForHandOut,
)
from tourney.core import roles
from tourney.eliminations.usecases import elimination_undo, eliminations_record
from tourney.models import Tournament
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["floor"])
ERRORS = ERROR_RESPONSES
BASE = "/tournaments/{tournament_id}"


@router.post(f"{BASE}/eliminations", response={200: EliminationsOut, **ERRORS})
def eliminate(request, tournament_id: Id, payload: EliminationsIn):
    """Players busted in the same hand; their places and the moves the field now needs.
    A table's dealer link: players seated at its table only."""
    ids = [e.entry_id for e in payload.eliminations]
    require_busts_at(request.auth, tournament_id, ids)
    return eliminations_record(
        actor=request.auth,
        tournament_id=tournament_id,
        eliminations=[(e.entry_id, e.hand_start_stack) for e in payload.eliminations],
        busted_by={e.entry_id: e.busted_by for e in payload.eliminations if e.busted_by},
        # Again under the tournament's lock: a move confirmed between the first check and the
        # lock could have taken a player to another table.
        authorize=functools.partial(require_busts_at, request.auth, tournament_id, ids),
    )


@router.post(f"{BASE}/eliminations/{{entry_id}}/undo", response={200: EliminationUndoOut, **ERRORS})
def undo_elimination(request, tournament_id: Id, entry_id: Id):
    roles.require(request.auth, "floor")
    return elimination_undo(actor=request.auth, tournament_id=tournament_id, entry_id=entry_id)


class ActionsQuery(Schema):
    status: Line | None = None


@router.get(f"{BASE}/actions", response={200: list[ActionOut], **ERRORS})
def actions(request, tournament_id: Id, filters: Query[ActionsQuery]):
    """The floor's to-do list (newest first); `?status=pending` for what is still to do."""
    roles.require(request.auth, "read")
    return floor_actions_list(get_object_or_404(Tournament, pk=tournament_id), filters.status)


@router.post(f"{BASE}/actions/{{action_id}}/done", response={200: ActionResultOut, **ERRORS})
def action_done(request, tournament_id: Id, action_id: Id, payload: ActionDoneIn | None = None):
    """The floor confirms an action; a table's dealer link, a move into or out of its table."""
    require_action_at(request.auth, tournament_id, action_id)
    return floor_action_done(
        actor=request.auth,
        tournament_id=tournament_id,
        action_id=action_id,
        entry_id=payload.entry_id if payload else None,
    )


@router.post(f"{BASE}/actions/{{action_id}}/undo", response={200: ActionResultOut, **ERRORS})
def action_undo(request, tournament_id: Id, action_id: Id):
    roles.require(request.auth, "floor")
    return floor_action_undo(actor=request.auth, tournament_id=tournament_id, action_id=action_id)


@router.get(f"{BASE}/hand-for-hand", response={200: HandForHandOut, **ERRORS})
def hand_for_hand(request, tournament_id: Id):
    roles.require(request.auth, "read")
    return hand_for_hand_state(get_object_or_404(Tournament, pk=tournament_id))


@router.put(f"{BASE}/hand-for-hand", response={200: HandForHandOut, **ERRORS})
def set_hand_for_hand(request, tournament_id: Id, payload: HandForHandIn):
    roles.require(request.auth, "director")
    return hand_for_hand_set(actor=request.auth, tournament_id=tournament_id, active=payload.active)


@router.get(f"{BASE}/clock-calls", response={200: list[ClockCallOut], **ERRORS})
def clock_calls(request, tournament_id: Id):
    """Clocks called on players that are still running."""
    roles.require(request.auth, "read")
    return clock_calls_active(get_object_or_404(Tournament, pk=tournament_id))


@router.post(f"{BASE}/tables/{{number}}/clock-calls", response={201: ClockCallOut, **ERRORS})
def call_clock(request, tournament_id: Id, number: TableNumber, payload: ClockCallIn):
    require_floor_at(request.auth, tournament_id, number)
    row = clock_call_begin(
        actor=request.auth,
        tournament_id=tournament_id,
        table_number=number,
        seat=payload.seat,
        elapsed_seconds=payload.elapsed_seconds,
        caller_seat=payload.caller_seat,
    )
    return Status(201, row)


@router.post(f"{BASE}/clock-calls/{{call_id}}/end", response={200: ClockCallOut, **ERRORS})
def end_clock_call(request, tournament_id: Id, call_id: Id, payload: ClockCallEndIn):
    require_clock_call_at(request.auth, tournament_id, call_id)
    return clock_call_finish(
        actor=request.auth, tournament_id=tournament_id, call_id=call_id, outcome=payload.outcome
    )
