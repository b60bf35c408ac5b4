"""Signed dealer tokens: tournament, table number and the table's dealer-link generation."""

from django.conf import settings
from django.core import signing

from tables.dealer_links.actor import DealerLinkActor
from tables.models import TournamentTable

PREFIX = "dl."  # tells a dealer token from an API token in an Authorization header


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.DEALER_LINK_SALT)


def dealer_token(tournament_id: int, number: int, generation: int) -> str:
    return PREFIX + _signer().sign_object({"t": tournament_id, "n": number, "g": generation})


def is_dealer_token(token: str) -> bool:
    return token.startswith(PREFIX)


def dealer_actor(token: str) -> DealerLinkActor | None:
    """Who a dealer token acts as; `revoked` when its generation is no longer the table's.
    None when the token is forged or malformed, or names no table of that tournament."""
    if not is_dealer_token(token):
        return None
    try:
        data = _signer().unsign_object(token.removeprefix(PREFIX))
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    tournament_id, number, generation = data.get("t"), data.get("n"), data.get("g")
    if not all(isinstance(v, int) for v in (tournament_id, number, generation)):
        return None
    current = (
        TournamentTable.objects.filter(tournament_id=tournament_id, number=number)
        .values_list("dealer_link_generation", flat=True)
        .first()
    )
    if current is None:
        return None
    return DealerLinkActor(tournament_id, number, revoked=current != generation)
