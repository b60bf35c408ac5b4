"""Routes of duplicate players: a merge and its undo (the check before creating one,
`GET /players/duplicates`, is on the root router, before `/players/{player_id}`)."""

from datetime import UTC, datetime

from django.shortcuts import get_object_or_404
from ninja import Router, Status

from infra.web.schema_types import BodyIn, Id, Line, bounded
from tourney.core import roles
from tourney.models import Player
from tourney.penalties.schemas import BanOut
from tourney.players.selectors import player_duplicates, player_search
from tourney.players.usecases import (
    player_ban,
    player_create,
    player_membership_set,
    player_merge,
    player_merge_undo,
)
from tourney.system.schemas import (
    ERROR_RESPONSES,
    BanIn,
    MembershipIn,
    PlayerDuplicateOut,
    PlayerIn,
    PlayerOut,
    duplicates_out,
    player_out,
)

router = Router(tags=["players"])


class MergeIn(BodyIn):
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


@router.post("/players", response={201: PlayerOut, **ERROR_RESPONSES}, tags=["players"])
def create_player(request, payload: PlayerIn):
    roles.require(request.auth, "desk")
    data = payload.dict()
    duplicates = player_duplicates(data["name"], data["phone"], data["email"])
    player = player_create(actor=request.auth, **data)
    return Status(201, {**player_out(player), "possible_duplicates": duplicates_out(duplicates)})


@router.get("/players", response=list[PlayerOut], tags=["players"])
def list_players(request, search: Line = "", limit: bounded(1, 100) = 20):
    roles.require(request.auth, "read")
    contact = roles.can(request.auth, "desk")
    found = player_search(search[:200], limit=limit, by_phone=contact)
    return [player_out(p, contact) for p in found]


@router.get("/players/duplicates", response=list[PlayerDuplicateOut], tags=["players"])
def find_duplicates(request, name: str = "", phone: str = "", email: str = ""):
    """Players a new one with these details would likely duplicate: the same name (accents,
    case and word order ignored), phone number or e-mail address."""
    roles.require(request.auth, "desk")
    return duplicates_out(player_duplicates(name[:120], phone[:40], email[:254]))


@router.get("/players/{player_id}", response={200: PlayerOut, **ERROR_RESPONSES}, tags=["players"])
def get_player(request, player_id: Id):
    roles.require(request.auth, "read")
    player = get_object_or_404(Player, pk=player_id)
    return player_out(player, roles.can(request.auth, "desk"))


@router.put(
    "/players/{player_id}/membership",
    response={200: PlayerOut, **ERROR_RESPONSES},
    tags=["players"],
)
def set_membership(request, player_id: Id, payload: MembershipIn):
    """His club membership number and whether he signed that he read the house rules: what a
    members-only room (house rule `membership_required`) asks before the first buy-in."""
    roles.require(request.auth, "desk")
    player = player_membership_set(
        actor=request.auth,
        player_id=player_id,
        membership_number=payload.membership_number,
        rules_read=payload.rules_read,
    )
    return player_out(player)


@router.get(
    "/players/{player_id}/bans", response={200: list[BanOut], **ERROR_RESPONSES}, tags=["players"]
)
def player_bans_list(request, player_id: Id):
    """Every ban of the player, newest first (lifted and ended ones too)."""
    from tourney.penalties.selectors import ban_out
    from tourney.players.selectors import player_bans

    roles.require(request.auth, "read")
    return [ban_out(b) for b in player_bans(get_object_or_404(Player, pk=player_id))]


@router.post(
    "/players/{player_id}/bans", response={201: BanOut, **ERROR_RESPONSES}, tags=["players"]
)
def ban_player(request, player_id: Id, payload: BanIn):
    from tourney.penalties.selectors import ban_out

    roles.require(request.auth, "director")
    # 0 is 1970, in the past like any other instant before now: refused, never "no end".
    ends_at = (
        datetime.fromtimestamp(payload.ends_at_ms / 1000, tz=UTC)
        if payload.ends_at_ms is not None
        else None
    )
    ban = player_ban(
        actor=request.auth,
        player_id=player_id,
        reason=payload.reason,
        ends_at=ends_at,
        season_id=payload.season_id,
    )
    return Status(201, ban_out(ban))
