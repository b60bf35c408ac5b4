"""Penalties and bans (docs/rules.md §10): give, list, undo and end penalties; a player's history
across tournaments; list and lift bans."""

from django.shortcuts import get_object_or_404
from ninja import Query, Router, Schema, Status

from infra.web.schema_types import Id, Line
from tables.dealer_links.selectors import require_penalty_at
from tourney.core import roles
from tourney.models import Player, Tournament
from tourney.penalties.schemas import BanOut, PenaltyIn, PenaltyOut, PenaltyResultOut
from tourney.penalties.selectors import ban_out, penalties_list, player_penalties
from tourney.penalties.usecases import penalty_end, penalty_give, penalty_undo
from tourney.players.usecases import player_ban_lift
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["penalties"])
ERRORS = ERROR_RESPONSES
BASE = "/tournaments/{tournament_id}/penalties"


@router.post(BASE, response={201: PenaltyResultOut, **ERRORS}, url_name="penalty_give")
def give(request, tournament_id: Id, payload: PenaltyIn):
    """A warning, missed hands or rounds, or a disqualification (with `chips`, optional ban).
    A dealer link gives a warning or rounds at its table where the house allows it."""
    require_penalty_at(request.auth, tournament_id, payload.entry_id, payload.kind)
    result = penalty_give(
        actor=request.auth,
        tournament_id=tournament_id,
        entry_id=payload.entry_id,
        kind=payload.kind,
        reason=payload.reason,
        rounds=payload.rounds,
        hands=payload.hands,
        chips=payload.chips,
        ban=payload.ban,
        ban_days=payload.ban_days,
    )
    return Status(201, result)


class PenaltiesQuery(Schema):
    status: Line | None = None


@router.get(BASE, response={200: list[PenaltyOut], **ERRORS}, url_name="penalties")
def penalties(request, tournament_id: Id, filters: Query[PenaltiesQuery]):
    """Every penalty of the tournament, newest first; `?status=serving` for who sits out now."""
    roles.require(request.auth, "read")
    return penalties_list(get_object_or_404(Tournament, pk=tournament_id), filters.status)


@router.post(
    f"{BASE}/{{penalty_id}}/undo",
    response={200: PenaltyResultOut, **ERRORS},
    url_name="penalty_undo",
)
def undo(request, tournament_id: Id, penalty_id: Id):
    """A mistaken penalty; a disqualified player is back in play with the chips."""
    roles.require(request.auth, "floor")
    return penalty_undo(actor=request.auth, tournament_id=tournament_id, penalty_id=penalty_id)


@router.post(
    f"{BASE}/{{penalty_id}}/end", response={200: PenaltyResultOut, **ERRORS}, url_name="penalty_end"
)
def end(request, tournament_id: Id, penalty_id: Id):
    """The floor ends a sit-out (a table that reports no hands)."""
    roles.require(request.auth, "floor")
    return penalty_end(actor=request.auth, tournament_id=tournament_id, penalty_id=penalty_id)


@router.get(
    "/players/{player_id}/penalties",
    response={200: list[PenaltyOut], **ERRORS},
    url_name="player_penalties",
)
def history(request, player_id: Id):
    """A player's penalties in every tournament, newest first."""
    roles.require(request.auth, "read")
    return player_penalties(get_object_or_404(Player, pk=player_id))


@router.post(
    "/players/{player_id}/bans/{ban_id}/lift",
    response={200: BanOut, **ERRORS},
    url_name="player_ban_lift",
)
def lift(request, player_id: Id, ban_id: Id):
    roles.require(request.auth, "director")
    get_object_or_404(Player, pk=player_id)
    return ban_out(player_ban_lift(actor=request.auth, ban_id=ban_id, player_id=player_id))
