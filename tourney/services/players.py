"""Players and bans."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tourney.domain.text import phone_digits, search_key
from tourney.errors import InvalidInput, NotFound
from tourney.models import Player, PlayerBan, Season
from tourney.services.audit import audit_record, audit_text


def _clean_player_fields(name: str, nickname: str, email: str, phone: str) -> dict[str, str]:
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput("invalid_name", _("A player needs a name."))
    if len(name) > 120:
        raise InvalidInput("invalid_name", _("The name is longer than 120 characters."))
    email = (email or "").strip()
    if email:
        try:
            validate_email(email)
        except ValidationError as exc:
            raise InvalidInput(
                "invalid_email", _("“%(email)s” is not an e-mail address.") % {"email": email}
            ) from exc
    phone = (phone or "").strip()
    if phone and len(phone_digits(phone)) < 6:
        raise InvalidInput("invalid_phone", _("The phone number needs at least six digits."))
    return {
        "name": name,
        "nickname": " ".join((nickname or "").split())[:60],
        "email": email,
        "phone": phone[:40],
    }


def player_search_text(player_fields: dict[str, str]) -> str:
    return search_key(
        player_fields["name"], player_fields["nickname"], phone_digits(player_fields["phone"])
    )


@transaction.atomic
def player_create(*, actor, name: str, nickname: str = "", email: str = "", phone: str = ""):
    fields = _clean_player_fields(name, nickname, email, phone)
    player = Player.objects.create(**fields, search_text=player_search_text(fields))
    audit_record(
        actor=actor,
        action="player.create",
        summary=audit_text("Created player %(name)s", {"name": player.name}),
        target=player,
        after=fields,
    )
    return player


@transaction.atomic
def player_ban(
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


@transaction.atomic
def player_ban_lift(*, actor, ban_id: int, player_id: int | None = None) -> PlayerBan:
    bans = PlayerBan.objects.select_related("player", "season").filter(pk=ban_id, lifted_at=None)
    if player_id is not None:
        bans = bans.filter(player_id=player_id)
    ban = bans.first()
    if ban is None:
        raise NotFound(
            "ban_not_found", _("There is no active ban with id %(id)s.") % {"id": ban_id}
        )
    ban.lifted_at = timezone.now()
    ban.save(update_fields=["lifted_at"])
    audit_record(
        actor=actor,
        action="player.ban_lift",
        summary=audit_text("Lifted the ban on %(name)s", {"name": ban.player.name}),
        target=ban.player,
        before={"reason": ban.reason},
    )
    return ban
