"""Signed player links: the token names one entry of one tournament and grants reading that
entry's page and the tournament's redacted event stream, nothing else.

Revocable and expiring, by the mechanism every revocable link uses
(tourney/core/link_generations.py): the token signs the entry's link generation (`g`, one
player's link revoked) and the tournament's (`a`, all its players' links revoked); a token
made before generations existed carries neither and counts as generation 0 of both, so the
seat cards printed before still work. A link also ends `PLAYER_LINK_DAYS_AFTER_FINISH` days
after its tournament finished.
"""

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.utils import timezone
from django.utils.translation import gettext as _

from tourney.models import Entry

REVOKED_EVENT = "player_link_revoked"
OK, REVOKED, EXPIRED = "ok", "revoked", "expired"


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.PLAYER_LINK_SALT)


def player_token(
    tournament_id: int, entry_id: int, generations: tuple[int, int] | None = None
) -> str:
    """The same token every time for an entry until its link is revoked (no timestamp): the
    seat card and the receipt print one link. `generations` (the entry's, the tournament's)
    when known, else read from the database."""
    if generations is None:
        generations = (
            Entry.objects.filter(pk=entry_id)
            .values_list("player_link_generation", "tournament__player_link_generation")
            .first()
        ) or (0, 0)
    data = {"t": tournament_id, "e": entry_id}
    if generations[0]:
        data["g"] = generations[0]
    if generations[1]:
        data["a"] = generations[1]
    return _signer().sign_object(data)


def _signed(token: str) -> tuple[int, int, int, int] | None:
    try:
        data = _signer().unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    values = (data.get("t"), data.get("e"), data.get("g", 0), data.get("a", 0))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    return values


def player_token_signed_ids(token: str) -> tuple[int, int] | None:
    """(tournament id, entry id) the token is signed for, without reading the database (for
    a caller that checked it with `player_link` already)."""
    signed = _signed(token)
    return None if signed is None else (signed[0], signed[1])


def player_link_expires_at(finished_at: datetime | None) -> datetime | None:
    if finished_at is None:
        return None
    return finished_at + timedelta(days=settings.PLAYER_LINK_DAYS_AFTER_FINISH)


@dataclass(frozen=True)
class PlayerLink:
    tournament_id: int
    entry_id: int
    status: str  # OK, REVOKED or EXPIRED
    expires_at: datetime | None

    @property
    def ok(self) -> bool:
        return self.status == OK


def player_link(token: str, now: datetime | None = None) -> PlayerLink | None:
    """What a token grants: None when it is forged or malformed or names no entry of that
    tournament, else its status (reads the database)."""
    signed = _signed(token)
    if signed is None:
        return None
    tournament_id, entry_id, generation, all_generation = signed
    row = (
        Entry.objects.filter(pk=entry_id, tournament_id=tournament_id)
        .values_list(
            "player_link_generation",
            "tournament__player_link_generation",
            "tournament__finished_at",
        )
        .first()
    )
    if row is None:
        return None
    expires_at = player_link_expires_at(row[2])
    if (generation, all_generation) != (row[0], row[1]):
        status = REVOKED
    elif expires_at is not None and (now or timezone.now()) >= expires_at:
        status = EXPIRED
    else:
        status = OK
    return PlayerLink(tournament_id, entry_id, status, expires_at)


def player_token_ids(token: str) -> tuple[int, int] | None:
    """(tournament id, entry id) of a working token (not revoked, not expired) whose entry
    exists, else None (reads the database)."""
    link = player_link(token)
    return (link.tournament_id, link.entry_id) if link is not None and link.ok else None


def link_ended_detail(status: str) -> tuple[str, str]:
    """`(code, detail)` of a link that no longer works (its page, its state, its stream)."""
    if status == EXPIRED:
        return "player_link_expired", _(
            "This tournament is over and its player pages are closed. Thank you for playing."
        )
    return "player_link_revoked", _(
        "This player link no longer works. Ask the registration desk for your new seat card."
    )
