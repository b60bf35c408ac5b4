"""`GET /api/v1/tournaments/{id}/tables/{n}/dealer-link` (director, floor) -> {"url"}, and
`POST .../dealer-link/revoke` -> the new {"url"}."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import Router, Schema

from infra.web.schema_types import Id, TableNumber
from tables.dealer_links.selectors import dealer_token
from tables.dealer_links.usecases import dealer_link_revoke
from tables.models import TournamentTable
from tourney.core import roles
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["screens"])
BASE = "/tournaments/{tournament_id}/tables/{number}/dealer-link"


class DealerLinkOut(Schema):
    url: str


def dealer_link_url(request, table: TournamentTable) -> str:
    token = dealer_token(table.tournament_id, table.number, table.dealer_link_generation)
    return request.build_absolute_uri(reverse("dealer_links:page", args=[token]))


@router.get(BASE, response={200: DealerLinkOut, **ERROR_RESPONSES})
def dealer_link(request, tournament_id: Id, number: TableNumber):
    """The table's dealer page: that table's dealer actions only, no login (director, floor)."""
    roles.require(request.auth, "floor")
    table = get_object_or_404(TournamentTable, tournament_id=tournament_id, number=number)
    return {"url": dealer_link_url(request, table)}


@router.post(f"{BASE}/revoke", response={200: DealerLinkOut, **ERROR_RESPONSES})
def revoke_dealer_link(request, tournament_id: Id, number: TableNumber):
    """The table's dealer link given out so far stops working at once; answers the new link
    (director, floor)."""
    roles.require(request.auth, "floor")
    table = dealer_link_revoke(actor=request.auth, tournament_id=tournament_id, number=number)
    return {"url": dealer_link_url(request, table)}
