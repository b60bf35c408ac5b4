"""Signed read-only links for lobby screens: no login on a TV, no write access either.

A link signs the tournament and its display-link generation; revoking the links
(`display_links_revoke`) bumps the generation, so every link given out before stops working:
its pages answer 404 and its event stream 403 (an open stream is closed by the revocation's
event). Links made before generations existed carry none and count as generation 0.
"""

from django.conf import settings
from django.core import signing

from tourney.models import Tournament

REVOKED_EVENT = "display_revoked"


def display_token(tournament_id: int, generation: int | None = None) -> str:
    """The token of the tournament's current display link (`generation` when known)."""
    if generation is None:
        current = Tournament.objects.filter(pk=tournament_id)
        generation = current.values_list("display_link_generation", flat=True).first() or 0
    return signing.dumps(
        {"t": tournament_id, "g": generation}, salt=settings.DISPLAY_LINK_SALT, compress=True
    )


def display_token_tournament_id(token: str) -> int | None:
    """The tournament id a display token grants, or None when it is forged, malformed or
    revoked (reads the database)."""
    try:
        data = signing.loads(token, salt=settings.DISPLAY_LINK_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    tournament_id, generation = data.get("t"), data.get("g", 0)
    if not isinstance(tournament_id, int) or not isinstance(generation, int):
        return None
    current = Tournament.objects.filter(pk=tournament_id, display_link_generation=generation)
    return tournament_id if current.exists() else None
