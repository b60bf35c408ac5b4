"""Players and bans."""

from datetime import datetime

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Count
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.core.locks import tournament_lock
from tourney.domain.text import phone_digits
from tourney.events.log import event_append
from tourney.models import AuditEntry, Entry, Penalty, Player, PlayerBan, Tournament
from tourney.players.operations import player_ban_record
from tourney.players.selectors import player_search_text


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


@transaction.atomic(durable=True)
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


@transaction.atomic(durable=True)
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


FILLED = ("nickname", "phone", "email")


LIVE = (Entry.Status.ACTIVE, Entry.Status.WAITING)


def _players_locked(ids: list[int]) -> dict[int, Player]:
    """Both players, locked in id order (after the tournaments: the one lock order)."""
    found = {
        p.pk: p
        for p in Player.objects.select_for_update(no_key=True).filter(pk__in=ids).order_by("pk")
    }
    for pk in ids:
        if pk not in found:
            raise NotFound("player_not_found", _("There is no player with id %(id)s.") % {"id": pk})
    return found


def _tournaments_locked(player_ids: list[int]) -> list[Tournament]:
    """The tournaments where either player has a live entry, locked in id order: a desk
    registering one of them there waits for the merge."""
    ids = sorted(
        set(
            Entry.objects.filter(player_id__in=player_ids, status__in=LIVE).values_list(
                "tournament_id", flat=True
            )
        )
    )
    return [tournament_lock(pk) for pk in ids]


def _search_text(player: Player) -> str:
    return player_search_text(
        {"name": player.name, "nickname": player.nickname, "phone": player.phone}
    )


def player_merge(*, actor, keep_id: int, merge_id: int) -> Player:
    """Merge player `merge_id` (a duplicate) into `keep_id`. Refused: the same player
    (`same_player`), one already merged (`already_merged`), both playing or waiting in the same
    tournament (`both_playing`: refund one entry first)."""
    if keep_id == merge_id:
        raise InvalidInput("same_player", _("Choose two different players."))
    with transaction.atomic(durable=True):
        tournaments = _tournaments_locked([keep_id, merge_id])
        players = _players_locked([keep_id, merge_id])
        keep, duplicate = players[keep_id], players[merge_id]
        for p in (keep, duplicate):
            if p.merged_into_id is not None:
                raise Conflict(
                    "already_merged",
                    _("%(name)s was merged into another player already.") % {"name": p.name},
                )
        clash = (
            Entry.objects.filter(player_id__in=[keep_id, merge_id], status__in=LIVE)
            .values("tournament__name")
            .annotate(n=Count("player_id", distinct=True))
            .filter(n__gt=1)
            .order_by("tournament__name")
            .first()
        )
        if clash:
            raise Conflict(
                "both_playing",
                _("Both play in %(tournament)s: refund one of the entries first.")
                % {"tournament": clash["tournament__name"]},
            )
        moved = {
            "entries": list(Entry.objects.filter(player=duplicate).values_list("pk", flat=True)),
            "penalties": list(
                Penalty.objects.filter(player=duplicate).values_list("pk", flat=True)
            ),
            "bans": list(PlayerBan.objects.filter(player=duplicate).values_list("pk", flat=True)),
        }
        Entry.objects.filter(pk__in=moved["entries"]).update(player=keep)
        Penalty.objects.filter(pk__in=moved["penalties"]).update(player=keep)
        PlayerBan.objects.filter(pk__in=moved["bans"]).update(player=keep)
        filled = {
            f: getattr(duplicate, f)
            for f in FILLED
            if not getattr(keep, f) and getattr(duplicate, f)
        }
        for field, value in filled.items():
            setattr(keep, field, value)
        keep.search_text = _search_text(keep)
        keep.save()
        duplicate.merged_into, duplicate.merged_at = keep, timezone.now()
        duplicate.save()
        audit_record(
            actor=actor,
            action="player.merge",
            summary=audit_text(
                gettext_noop("%(duplicate)s (player %(id)s) merged into %(name)s"),
                {"duplicate": duplicate.name, "id": duplicate.pk, "name": keep.name},
            ),
            target=duplicate,
            before={"keep_id": keep.pk, **{f: "" for f in filled}},
            after={"keep_id": keep.pk, "moved": moved, "filled": filled},
        )
        for tournament in tournaments:
            event_append(tournament, "entry", {"action": "player_merge", "player_id": keep.pk})
    return keep


def player_merge_undo(*, actor, player_id: int) -> Player:
    """Take a merge back: the duplicate `player_id` is listed again and gets back the entries,
    penalties and bans the merge moved (those still with the kept player), the kept player
    loses the details filled from it (unless changed since). Refused: not merged
    (`not_merged`)."""
    with transaction.atomic(durable=True):
        merge = (
            AuditEntry.objects.filter(
                action="player.merge", target_type="player", target_id=player_id
            )
            .order_by("-at", "-id")
            .first()
        )
        keep_id = merge.after["keep_id"] if merge is not None else None
        tournaments = _tournaments_locked([pk for pk in (player_id, keep_id) if pk])
        duplicate = _players_locked([player_id])[player_id]
        if duplicate.merged_into_id is None or merge is None:
            raise Conflict(
                "not_merged",
                _("%(name)s is not merged into another player.") % {"name": duplicate.name},
            )
        keep = _players_locked([keep_id])[keep_id]
        moved = merge.after["moved"]
        back = {
            "entries": Entry.objects.filter(pk__in=moved["entries"], player=keep).update(
                player=duplicate
            ),
            "penalties": Penalty.objects.filter(pk__in=moved["penalties"], player=keep).update(
                player=duplicate
            ),
            "bans": PlayerBan.objects.filter(pk__in=moved["bans"], player=keep).update(
                player=duplicate
            ),
        }
        for field, value in merge.after["filled"].items():
            if getattr(keep, field) == value:
                setattr(keep, field, "")
        keep.search_text = _search_text(keep)
        keep.save()
        duplicate.merged_into, duplicate.merged_at = None, None
        duplicate.save()
        audit_record(
            actor=actor,
            action="player.merge_undo",
            summary=audit_text(
                gettext_noop("Merge of %(duplicate)s into %(name)s undone"),
                {"duplicate": duplicate.name, "name": keep.name},
            ),
            target=duplicate,
            before={"merged_into": keep.pk},
            after={"merged_into": None, "moved_back": back},
        )
        for tournament in tournaments:
            event_append(
                tournament, "entry", {"action": "player_merge_undo", "player_id": player_id}
            )
    return duplicate


@transaction.atomic(durable=True)
def player_ban(
    *,
    actor,
    player_id: int,
    reason: str,
    ends_at: datetime | None,
    now: datetime | None = None,
    season_id: int | None = None,
) -> PlayerBan:
    """Ban a player from registering (`player_ban_record`), as a transaction of its own."""
    return player_ban_record(
        actor=actor,
        player_id=player_id,
        reason=reason,
        ends_at=ends_at,
        now=now,
        season_id=season_id,
    )


@transaction.atomic(durable=True)
def player_membership_set(
    *, actor, player_id: int, membership_number: str, rules_read: bool
) -> Player:
    """Record a player's club membership number and that he signed he read the house rules
    (docs/rules.md §2.1: where the house requires it, before his first buy-in). Audited."""
    number = " ".join((membership_number or "").split())
    if not number or len(number) > 40:
        raise InvalidInput(
            "invalid_membership_number", _("A membership number has 1 to 40 characters.")
        )
    player = Player.objects.select_for_update(no_key=True).filter(pk=player_id).first()
    if player is None:
        raise NotFound(
            "player_not_found", _("There is no player with id %(id)s.") % {"id": player_id}
        )
    before = _membership(player)
    player.membership_number = number
    if rules_read and player.rules_acknowledged_at is None:
        player.rules_acknowledged_at = timezone.now()
    if not rules_read:
        player.rules_acknowledged_at = None
    player.save(update_fields=["membership_number", "rules_acknowledged_at", "updated_at"])
    audit_record(
        actor=actor,
        action="player.membership",
        summary=audit_text(
            gettext_noop("Membership of %(name)s: number %(number)s"),
            {"name": player.name, "number": number},
        ),
        target=player,
        before=before,
        after=_membership(player),
    )
    return player


def _membership(player: Player) -> dict:
    read = player.rules_acknowledged_at
    return {
        "membership_number": player.membership_number,
        "rules_acknowledged_at": read.isoformat() if read else None,
    }
