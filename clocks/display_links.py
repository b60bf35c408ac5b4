"""Signed read-only links for lobby screens: no login on a TV, no write access either."""

from django.conf import settings
from django.core import signing


def display_token(tournament_id: int) -> str:
    return signing.dumps({"t": tournament_id}, salt=settings.DISPLAY_LINK_SALT, compress=True)


def display_token_tournament_id(token: str) -> int | None:
    """The tournament id a display token grants, or None when it is forged or malformed."""
    try:
        data = signing.loads(token, salt=settings.DISPLAY_LINK_SALT)
    except signing.BadSignature:
        return None
    value = data.get("t") if isinstance(data, dict) else None
    return value if isinstance(value, int) else None
