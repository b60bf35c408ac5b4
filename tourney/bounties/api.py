"""Routes of a bounty tournament (docs/rules.md §16)."""

from django.shortcuts import get_object_or_404
from ninja import Router, Schema

from infra.web.schema_types import Id
from tourney.bounties.selectors import bounties_list
from tourney.core import roles
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
