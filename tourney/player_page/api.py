"""`GET /api/v1/tournaments/{id}/entries/{entry_id}/player-link` (desk, director): the link the
seat card's and the receipt's QR code carry; revoking it (one player's, or all of a
tournament's) and undoing a revocation (director)."""

from django.shortcuts import get_object_or_404
from ninja import Router, Schema

from infra.web.schema_types import Id
from tourney.core import roles
from tourney.models import Entry
from tourney.player_page.selectors import player_token, player_url
from tourney.player_page.usecases import (
    player_link_revoke,
    player_link_revoke_undo,
    player_links_revoke,
    player_links_revoke_undo,
)
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["screens"])
ONE = "/tournaments/{tournament_id}/entries/{entry_id}/player-link"
ALL = "/tournaments/{tournament_id}/player-links"


class PlayerLinkOut(Schema):
    url: str


class PlayerLinksOut(Schema):
    generation: int


def _url(request, entry: Entry) -> dict[str, str]:
    token = player_token(
        entry.tournament_id,
        entry.pk,
        (entry.player_link_generation, entry.tournament.player_link_generation),
    )
    return {"url": player_url(request, token)}


@router.get(ONE, response={200: PlayerLinkOut, **ERROR_RESPONSES})
def player_link(request, tournament_id: Id, entry_id: Id):
    """The player's own read-only page: his seat, the clock, the payouts, his result and
    receipts (desk, director)."""
    roles.require(request.auth, "desk")
    entry = get_object_or_404(Entry, pk=entry_id, tournament_id=tournament_id)
    return {"url": player_url(request, player_token(tournament_id, entry.pk))}


@router.post(f"{ONE}/revoke", response={200: PlayerLinkOut, **ERROR_RESPONSES})
def revoke_player_link(request, tournament_id: Id, entry_id: Id):
    """The player's link given out so far stops working at once (his page says so, his stream
    closes); answers the new link, which a reprinted seat card or receipt carries (director)."""
    roles.require(request.auth, "director")
    entry = player_link_revoke(actor=request.auth, tournament_id=tournament_id, entry_id=entry_id)
    return _url(request, Entry.objects.select_related("tournament").get(pk=entry.pk))


@router.post(f"{ONE}/revoke/undo", response={200: PlayerLinkOut, **ERROR_RESPONSES})
def undo_revoke_player_link(request, tournament_id: Id, entry_id: Id):
    """The link revoked last works again; answers it. 409 `nothing_to_undo` once it was
    revoked again or restored (director)."""
    roles.require(request.auth, "director")
    entry = player_link_revoke_undo(
        actor=request.auth, tournament_id=tournament_id, entry_id=entry_id
    )
    return _url(request, Entry.objects.select_related("tournament").get(pk=entry.pk))


@router.post(f"{ALL}/revoke", response={200: PlayerLinksOut, **ERROR_RESPONSES})
def revoke_player_links(request, tournament_id: Id):
    """Every player's link of the tournament given out so far stops working at once; seat
    cards and receipts printed from now on carry the new links (director)."""
    roles.require(request.auth, "director")
    tournament = player_links_revoke(actor=request.auth, tournament_id=tournament_id)
    return {"generation": tournament.player_link_generation}


@router.post(f"{ALL}/revoke/undo", response={200: PlayerLinksOut, **ERROR_RESPONSES})
def undo_revoke_player_links(request, tournament_id: Id):
    """The links revoked last work again (director)."""
    roles.require(request.auth, "director")
    tournament = player_links_revoke_undo(actor=request.auth, tournament_id=tournament_id)
    return {"generation": tournament.player_link_generation}
