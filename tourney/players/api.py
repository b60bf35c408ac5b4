"""Routes of duplicate players: a merge and its undo (the check before creating one,
`GET /players/duplicates`, is on the root router, before `/players/{player_id}`)."""

from ninja import Router, Schema

from infra.web.schema_types import Id
from tourney.api_common import player_out
from tourney.core import roles
from tourney.players.usecases import player_merge, player_merge_undo
from tourney.schemas import ERROR_RESPONSES, PlayerOut

router = Router(tags=["players"])


class MergeIn(Schema):
    into: Id


@router.post("/players/{player_id}/merge", response={200: PlayerOut, **ERROR_RESPONSES})
def merge_player(request, player_id: Id, payload: MergeIn):
    """Merge this duplicate into player `into`: its entries, results, penalties and bans move
    there (409 `already_merged`, `both_playing`; 422 `same_player`). Returns the kept player."""
    roles.require(request.auth, "director")
    return player_out(player_merge(actor=request.auth, keep_id=payload.into, merge_id=player_id))


@router.post("/players/{player_id}/merge/undo", response={200: PlayerOut, **ERROR_RESPONSES})
def undo_merge(request, player_id: Id):
    """Take the merge of this player back (409 `not_merged`). Returns this player."""
    roles.require(request.auth, "director")
    return player_out(player_merge_undo(actor=request.auth, player_id=player_id))
