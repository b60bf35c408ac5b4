"""Routes of a bounty tournament (docs/rules.md §16)."""

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema

from infra.web.schema_types import BodyIn, Id, bounded
from tourney.bounties.selectors import bounties_list, mystery_state
from tourney.bounties.usecases import envelopes_set
from tourney.core import roles
from tourney.core.errors import Conflict
from tourney.models import Tournament
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["bounties"])


class BountyRowOut(Schema):
    entry_id: int
    player_name: str
    on_head: int
    won: int


@router.get(
    "/tournaments/{tournament_id}/bounties", response={200: list[BountyRowOut], **ERROR_RESPONSES}
)
def bounties(request, tournament_id: Id):
    """Every entry's bounty on his head (0 once busted) and the cash he has won, by name;
    empty when the tournament has no bounties."""
    roles.require(request.auth, "read")
    return bounties_list(get_object_or_404(Tournament, pk=tournament_id))


class EnvelopesIn(BodyIn):
    values: list[bounded(0, 10**12)] = Field(..., min_length=1, max_length=10_000)


@router.get(
    "/tournaments/{tournament_id}/bounties/envelopes",
    response={200: dict[str, Any], **ERROR_RESPONSES},
)
def envelopes(request, tournament_id: Id):
    """A mystery bounty's envelopes: each one's value and whether drawn, how many are left,
    the phase, the latest draws (docs/rules.md §16.5); 409 without a mystery bounty."""
    roles.require(request.auth, "read")
    state = mystery_state(get_object_or_404(Tournament, pk=tournament_id))
    if state is None:
        raise Conflict("not_a_mystery_bounty", _("This tournament has no mystery bounty."))
    return state


@router.put(
    "/tournaments/{tournament_id}/bounties/envelopes",
    response={200: dict[str, Any], **ERROR_RESPONSES},
)
def set_envelopes(request, tournament_id: Id, payload: EnvelopesIn):
    """The director's envelopes before the phase, summing to the bounty pool."""
    roles.require(request.auth, "director")
    envelopes_set(actor=request.auth, tournament_id=tournament_id, values=payload.values)
    return mystery_state(Tournament.objects.get(pk=tournament_id))
