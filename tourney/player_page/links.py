"""Signed player links: the token names one entry of one tournament and grants reading that
entry's page and the tournament's redacted event stream, nothing else."""

from django.conf import settings
from django.core import signing

from tourney.models import Entry


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.PLAYER_LINK_SALT)


def player_token(tournament_id: int, entry_id: int) -> str:
    """The same token every time for an entry (no timestamp): the seat card and the receipt
    print one link."""
    return _signer().sign_object({"t": tournament_id, "e": entry_id})


def player_token_signed_ids(token: str) -> tuple[int, int] | None:
    """(tournament id, entry id) the token is signed for, without reading the database (for
    a caller that checked it with `player_token_ids` already)."""
    try:
        data = _signer().unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    tournament_id, entry_id = data.get("t"), data.get("e")
    if not isinstance(tournament_id, int) or not isinstance(entry_id, int):
        return None
    return tournament_id, entry_id


def player_token_ids(token: str) -> tuple[int, int] | None:
    """(tournament id, entry id) of a valid token whose entry exists, else None (reads the
    database)."""
    ids = player_token_signed_ids(token)
    if ids is None:
        return None
    tournament_id, entry_id = ids
    if not Entry.objects.filter(pk=entry_id, tournament_id=tournament_id).exists():
        return None
    return tournament_id, entry_id
