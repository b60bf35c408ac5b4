"""The lobby screen's signed link, for scripts and the console (the public API's "Screens")."""

from django.shortcuts import get_object_or_404
from django.urls import reverse
from ninja import Router, Schema

from clocks.display.selectors import display_token
from clocks.display.usecases import display_links_revoke
from infra.web.schema_types import Id
from tourney.core import roles
from tourney.models import Tournament
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["screens"])
BASE = "/tournaments/{tournament_id}/display-link"


class LinkOut(Schema):
    url: str


def _link(request, tournament: Tournament) -> dict:
    token = display_token(tournament.pk, tournament.display_link_generation)
    return {"url": request.build_absolute_uri(reverse("clocks:display", args=[token]))}


@router.get(BASE, response={200: LinkOut, **ERROR_RESPONSES})
def display_link(request, tournament_id: Id):
    """The signed read-only lobby screen of the tournament (director)."""
    roles.require(request.auth, "director")
    return _link(request, get_object_or_404(Tournament, pk=tournament_id))


@router.post(f"{BASE}/revoke", response={200: LinkOut, **ERROR_RESPONSES})
def revoke_display_links(request, tournament_id: Id):
    """Every display link given out so far stops working (open screens' streams close);
    answers the new link (director)."""
    roles.require(request.auth, "director")
    tournament = display_links_revoke(actor=request.auth, tournament_id=tournament_id)
    return _link(request, tournament)
