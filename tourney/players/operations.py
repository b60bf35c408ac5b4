"""Writes of players inside a use case's transaction (the caller locks and commits)."""

from datetime import datetime

from django.utils import timezone
from django.utils.translation import gettext as _

from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import InvalidInput, NotFound
from tourney.models import Player, PlayerBan, Season


def player_ban_record(
    *,
    actor,
    player_id: int,
    reason: str,
    ends_at: datetime | None,
    now: datetime | None = None,
    season_id: int | None = None,
    penalty=None,
) -> PlayerBan:
    """Ban a player from registering until `ends_at` (None = until lifted); with `season_id`,
    from that season's tournaments only (a championship ban, docs/rules.md §10.5). `penalty`: the
    disqualification that caused it."""
    now = now or timezone.now()
    season = None
    if season_id is not None:
        season = Season.objects.filter(pk=season_id).first()
        if season is None:
            raise NotFound(
                "season_not_found", _("There is no season with id %(id)s.") % {"id": season_id}
            )
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound(
            "player_not_found", _("There is no player with id %(id)s.") % {"id": player_id}
        )
    reason = (reason or "").strip()
    if not reason:
        raise InvalidInput("invalid_reason", _("A ban needs a reason."))
    if ends_at is not None and ends_at <= now:
        raise InvalidInput("invalid_ban_end", _("The ban must end in the future."))
    ban = PlayerBan.objects.create(
        player=player,
        reason=reason[:300],
        starts_at=now,
        ends_at=ends_at,
        created_by=actor if actor is not None and actor.is_authenticated else None,
        season=season,
        penalty=penalty,
    )
    audit_record(
        actor=actor,
        action="player.ban",
        summary=audit_text("Banned %(name)s: %(reason)s", {"name": player.name, "reason": reason}),
        target=player,
        after={
            "reason": reason,
            "ends_at": ends_at.isoformat() if ends_at else None,
            "season_id": season_id,
            "penalty_id": penalty.pk if penalty is not None else None,
        },
    )
    return ban
