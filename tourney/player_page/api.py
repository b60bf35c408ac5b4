"""`GET /api/v1/tournaments/{id}/entries/{entry_id}/player-link` (desk, director): the link the
seat card's and the receipt's QR code carry."""

from django.shortcuts import get_object_or_404
from ninja import Router, Schema

from tourney import roles
from tourney.models import Entry
from tourney.player_page.links import player_token
from tourney.player_page.urls_support import player_url
from tourney.schema_types import Id
from tourney.schemas import ERROR_RESPONSES

router = Router(tags=["screens"])


class PlayerLinkOut(Schema):
    url: str


@router.get(
    "/tournaments/{tournament_id}/entries/{entry_id}/player-link",
    response={200: PlayerLinkOut, **ERROR_RESPONSES},
)
def player_link(request, tournament_id: Id, entry_id: Id):
    """The player's own read-only page: his seat, the clock, the payouts, his result and
    receipts (desk, director)."""
    roles.require(request.auth, "desk")
    entry = get_object_or_404(Entry, pk=entry_id, tournament_id=tournament_id)
    return {"url": player_url(request, player_token(tournament_id, entry.pk))}
