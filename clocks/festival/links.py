"""Signed room board links: the room and its board-link generation (revoking bumps it)."""

from django.conf import settings
from django.core import signing

from tables.models import Room


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.DISPLAY_LINK_SALT + ".board")


def board_token(room: Room) -> str:
    return _signer().sign_object({"r": room.pk, "g": room.board_link_generation})


def board_room_id(token: str) -> int | None:
    """The room a board token shows, or None (forged, malformed or revoked)."""
    try:
        data = _signer().unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    room_id, generation = data.get("r"), data.get("g")
    if not isinstance(room_id, int) or not isinstance(generation, int):
        return None
    current = Room.objects.filter(pk=room_id, board_link_generation=generation)
    return room_id if current.exists() else None
