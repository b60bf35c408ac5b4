"""Undo on the cash floor (docs/rules.md §20): each listed action taken back from its audit
entry, as the audit log offers it (a call, a pass, a seating, a player standing up, a list
joined or left, away and back, a table closed). Refused with a sentence when play has moved on
(the seat taken since, the player seated elsewhere)."""

from __future__ import annotations

import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.cash.operations import cash_event_append, room_lock, seat_freed
from tables.models import (
    CashCall,
    CashListPlayer,
    CashSeat,
    CashSitting,
    CashTable,
    TournamentTable,
)
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, NotFound
from tourney.models import AuditEntry

UNDOABLE = (
    "cash.call",
    "cash.pass",
    "cash.seat",
    "cash.leave",
    "cash.list_join",
    "cash.list_leave",
    "cash.away",
    "cash.back",
    "cash.table_close",
)
WAITING, SEATED, LEFT = (
    CashListPlayer.Status.WAITING,
    CashListPlayer.Status.SEATED,
    CashListPlayer.Status.LEFT,
)


def _moved_on() -> Conflict:
    return Conflict("undo_too_late", _("This cannot be taken back: play has moved on since."))


def _when(text: str | None) -> datetime.datetime | None:
    return datetime.datetime.fromisoformat(text) if text else None


def _places_back(ids: list[int]) -> None:
    """Places ended by a seating back on their lists (a place taken again since stays ended)."""
    for place in CashListPlayer.objects.filter(pk__in=ids, status__in=(SEATED, LEFT)):
        if not CashListPlayer.objects.filter(
            cash_list_id=place.cash_list_id, player_id=place.player_id, status=WAITING
        ).exists():
            place.status, place.ended_at = WAITING, None
            place.save(update_fields=["status", "ended_at"])


def _seat_undone(entry: AuditEntry, now) -> None:
    after = entry.after or {}
    sitting = CashSitting.objects.filter(pk=after.get("sitting"), left_at=None).first()
    if sitting is None or after.get("moved_from"):
        raise _moved_on()
    taken = CashSeat.objects.select_related("cash_table").get(
        cash_table_id=sitting.cash_table_id, seat=sitting.seat
    )
    seat_freed(taken, now)
    sitting.delete()  # he did not sit there: the report counts no sitting
    _places_back(after.get("places", []))


def _leave_undone(entry: AuditEntry, now) -> None:
    before, table = entry.before or {}, CashTable.objects.get(pk=entry.target_id)
    free = not CashSeat.objects.filter(cash_table=table, seat=before.get("seat")).exists()
    if not free or CashSeat.objects.filter(player_id=before.get("player_id")).exists():
        raise _moved_on()
    CashSeat.objects.create(
        cash_table=table,
        seat=before["seat"],
        player_id=before["player_id"],
        seated_at=_when(before.get("seated_at")) or now,
        new_player=False,
    )
    sitting = (
        CashSitting.objects.filter(
            cash_table=table, player_id=before["player_id"], seat=before["seat"]
        )
        .order_by("-pk")
        .first()
    )
    if sitting is not None:
        sitting.left_at = None
        sitting.save(update_fields=["left_at"])
    table.players = CashSeat.objects.filter(cash_table=table).count()
    table.save(update_fields=["players"])


def _pass_undone(entry: AuditEntry, now) -> None:
    before = entry.before or {}
    place = CashListPlayer.objects.filter(pk=before.get("place")).first()
    if place is None or place.status not in (WAITING, CashListPlayer.Status.PASSED):
        raise _moved_on()
    place.status, place.ended_at = WAITING, None
    place.since = _when(before.get("since")) or place.since
    place.passes = max(0, place.passes - 1)
    place.save(update_fields=["status", "ended_at", "since", "passes"])


def _list_undone(entry: AuditEntry, now) -> None:
    place = CashListPlayer.objects.get(pk=entry.target_id)
    if entry.action == "cash.list_leave":
        if place.status != LEFT:
            raise _moved_on()
        _places_back([place.pk])
        return
    if place.status != WAITING:
        raise _moved_on()
    CashCall.objects.filter(list_player=place, status=CashCall.Status.OPEN).update(
        status=CashCall.Status.CANCELLED, ended_at=now
    )
    place.status, place.ended_at = LEFT, now
    place.save(update_fields=["status", "ended_at"])


def _call_undone(entry: AuditEntry, now) -> None:
    if not CashCall.objects.filter(pk=entry.target_id, status=CashCall.Status.OPEN).update(
        status=CashCall.Status.CANCELLED, ended_at=now
    ):
        raise _moved_on()


def _away_undone(entry: AuditEntry, now) -> None:
    taken = CashSeat.objects.filter(pk=entry.target_id).first()
    if taken is None:
        raise _moved_on()
    taken.away_since = _when((entry.before or {}).get("away_since"))
    taken.save(update_fields=["away_since"])


def _close_undone(entry: AuditEntry, now) -> None:
    table = CashTable.objects.get(pk=entry.target_id)
    busy = CashTable.objects.filter(table=table.table, status=CashTable.Status.OPEN).exists()
    busy = (
        busy
        or TournamentTable.objects.filter(
            table=table.table,
            status=TournamentTable.Status.OPEN,
            tournament__status__in=("registering", "running"),
        ).exists()
    )
    if table.status != CashTable.Status.CLOSED or busy:
        raise _moved_on()
    table.status, table.closed_at = CashTable.Status.OPEN, None
    table.save(update_fields=["status", "closed_at"])


UNDO = {
    "cash.call": _call_undone,
    "cash.pass": _pass_undone,
    "cash.seat": _seat_undone,
    "cash.leave": _leave_undone,
    "cash.list_join": _list_undone,
    "cash.list_leave": _list_undone,
    "cash.away": _away_undone,
    "cash.back": _away_undone,
    "cash.table_close": _close_undone,
}


def _room_of(entry: AuditEntry) -> int:
    model = {
        "cash.call": CashCall,
        "cash.pass": CashCall,
        "cash.seat": CashSeat,
        "cash.away": CashSeat,
        "cash.back": CashSeat,
        "cash.list_join": CashListPlayer,
        "cash.list_leave": CashListPlayer,
    }.get(entry.action, CashTable)
    if entry.action == "cash.seat":
        sitting = CashSitting.objects.filter(pk=(entry.after or {}).get("sitting")).first()
        if sitting is None:
            raise _moved_on()
        return sitting.room_id
    row = model.objects.filter(pk=entry.target_id).first()
    if row is None:
        raise _moved_on()
    if isinstance(row, CashCall | CashSeat):
        return row.cash_table.room_id
    if isinstance(row, CashListPlayer):
        return row.cash_list.room_id
    return row.room_id


def cash_undo(*, actor, audit_id: int) -> AuditEntry:
    """Take back the cash action of audit entry `audit_id` (once). Refused: not a cash action
    that can be taken back (404), taken back already (`undone_already`), too late."""
    entry = AuditEntry.objects.filter(pk=audit_id, action__in=UNDOABLE).first()
    if entry is None:
        raise NotFound("audit_entry_not_found", _("There is no such action to take back."))
    room_id = _room_of(entry)
    with transaction.atomic(durable=True):
        room = room_lock(room_id)
        if AuditEntry.objects.filter(action="cash.undo", target_id=entry.pk).exists():
            raise Conflict("undone_already", _("This has been taken back already."))
        now = timezone.now()
        UNDO[entry.action](entry, now)
        undo = audit_record(
            actor=actor,
            action="cash.undo",
            summary=audit_text(gettext_noop("Taken back: %(what)s"), {"what": entry.summary}),
            target=entry,
            after={"undid": entry.pk, "action": entry.action},
        )
        cash_event_append(room, "cash_seat", {"reason": "undo", "action": entry.action}, now)
    return undo
