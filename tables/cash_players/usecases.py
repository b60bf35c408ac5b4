"""A cash player's code and what he does from his own phone (docs/rules.md §20.2): the desk
gives the code; he joins and leaves lists himself. Each locks the room once, operates, audits
and appends the room's cash event."""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.cash.operations import cash_event_append, room_lock
from tables.cash.selectors import banned_players, stakes_name
from tables.cash_players.selectors import CODE_ALPHABET, CODE_LENGTH
from tables.models import CashCall, CashList, CashListPlayer, CashPass
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, NotFound
from tourney.models import Player


def cash_pass_give(*, actor, room_id: int, player_id: int) -> CashPass:
    """The player's live code in the room (a new one when he has none)."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound(
            "player_not_found", _("There is no player with id %(id)s.") % {"id": player_id}
        )
    with transaction.atomic(durable=True):
        room = room_lock(room_id)
        found = CashPass.objects.filter(room=room, player=player, revoked_at=None).first()
        if found is not None:
            return found
        taken = set(
            CashPass.objects.filter(room=room, revoked_at=None).values_list("code", flat=True)
        )
        code = ""
        while not code or code in taken:
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
        given = CashPass.objects.create(
            room=room, player=player, code=code, created_at=timezone.now()
        )
        audit_record(
            actor=actor,
            action="cash.pass_give",
            summary=audit_text(
                gettext_noop("Player code given to %(name)s"), {"name": player.name}
            ),
            target=given,
        )
    return given


def cash_pass_revoke(*, actor, room_id: int, player_id: int) -> None:
    """His code ends (a lost phone): his page stops; the desk gives a new one."""
    with transaction.atomic(durable=True):
        room = room_lock(room_id)
        n = CashPass.objects.filter(room=room, player_id=player_id, revoked_at=None).update(
            revoked_at=timezone.now()
        )
        if not n:
            raise Conflict("no_code", _("The player has no code here."))
        audit_record(
            actor=actor,
            action="cash.pass_revoke",
            summary=audit_text(gettext_noop("Player code revoked"), {}),
            target=room,
            before={"player_id": player_id},
        )


def cash_self_join(*, cash_pass_id: int, cash_list_id: int) -> CashListPlayer:
    """The player puts himself at the list's end from his phone. Refused: banned, on it
    already, a list of another room."""
    with transaction.atomic(durable=True):
        cash_pass = CashPass.objects.select_related("player").get(pk=cash_pass_id)
        room = room_lock(cash_pass.room_id)
        now = timezone.now()
        cash_list = CashList.objects.filter(pk=cash_list_id, room=room, closed_at=None).first()
        if cash_pass.revoked_at is not None or cash_list is None:
            raise NotFound("cash_list_not_found", _("There is no such waiting list."))
        player = cash_pass.player
        if banned_players([player.pk], now):
            raise Conflict("player_banned", _("%(name)s is banned.") % {"name": player.name})
        if CashListPlayer.objects.filter(
            cash_list=cash_list, player=player, status=CashListPlayer.Status.WAITING
        ).exists():
            raise Conflict(
                "already_on_list", _("%(name)s is on this list already.") % {"name": player.name}
            )
        place = CashListPlayer.objects.create(
            cash_list=cash_list,
            player=player,
            joined_at=now,
            since=now,
            via=CashListPlayer.Via.SELF,
        )
        audit_record(
            actor=None,
            action="cash.list_join",
            summary=audit_text(
                gettext_noop("%(name)s on the list %(stakes)s"),
                {"name": player.name, "stakes": stakes_name(cash_list)},
            ),
            target=place,
            after={"via": "self"},
        )
        cash_event_append(room, "cash_list", {"reason": "joined", "list": cash_list.pk}, now)
    return place


def cash_self_leave(*, cash_pass_id: int, cash_list_id: int) -> None:
    """The player takes himself off a list (his call, if any, cancelled)."""
    with transaction.atomic(durable=True):
        cash_pass = CashPass.objects.select_related("player").get(pk=cash_pass_id)
        room = room_lock(cash_pass.room_id)
        now = timezone.now()
        place = CashListPlayer.objects.filter(
            cash_list_id=cash_list_id,
            cash_list__room=room,
            player=cash_pass.player,
            status=CashListPlayer.Status.WAITING,
        ).first()
        if cash_pass.revoked_at is not None or place is None:
            raise Conflict("not_on_list", _("The player is not on this list."))
        CashCall.objects.filter(list_player=place, status=CashCall.Status.OPEN).update(
            status=CashCall.Status.CANCELLED, ended_at=now
        )
        place.status, place.ended_at = CashListPlayer.Status.LEFT, now
        place.save(update_fields=["status", "ended_at"])
        audit_record(
            actor=None,
            action="cash.list_leave",
            summary=audit_text(
                gettext_noop("%(name)s left the list"), {"name": cash_pass.player.name}
            ),
            target=place,
            after={"via": "self"},
        )
        cash_event_append(room, "cash_list", {"reason": "left", "list": cash_list_id}, now)
