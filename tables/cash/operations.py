"""The cash floor's writes under the caller's room lock (docs/rules.md §20): the room's
events, a call passed over, a player seated from a call."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import connection
from django.utils.translation import gettext as _

from tables.cash.selectors import cash_rules, cash_version, list_waiting, ms, waiters
from tables.domain.cash import list_after_pass
from tables.models import (
    CashCall,
    CashEvent,
    CashListPlayer,
    CashSeat,
    CashSitting,
    CashTable,
    Room,
)
from tourney.core.errors import NotFound


def room_lock(room_id: int) -> Room:
    """Lock the room: every cash write of a room goes one at a time (SQLite: the IMMEDIATE
    transaction already serializes)."""
    rooms = Room.objects.filter(pk=room_id)
    if connection.features.has_select_for_update:
        rooms = rooms.select_for_update(no_key=True)
    room = rooms.first()
    if room is None:
        raise NotFound("room_not_found", _("There is no such room."))
    return room


def cash_event_append(room: Room, kind: str, payload: dict[str, Any], at: datetime) -> CashEvent:
    """The room's next cash event (`cash_call`, `cash_seat`, `cash_list`), under its lock."""
    return CashEvent.objects.create(
        room=room, kind=kind, version=cash_version(room.pk) + 1, payload=payload, at=at
    )


def call_passed(room: Room, call: CashCall, at: datetime) -> dict:
    """A call that ran out or was refused: closed, and its player passed over on his list (to
    its end or off it, §20.2). A must-move player's call leaves him where he sits. What an
    undo restores: his place as it was."""
    call.status, call.ended_at = CashCall.Status.PASSED, at
    call.save(update_fields=["status", "ended_at"])
    place = call.list_player
    if place is None or place.status != CashListPlayer.Status.WAITING:
        return {}
    before = {"place": place.pk, "since": place.since.isoformat(), "status": place.status}
    rules = cash_rules(room)
    rows = list_waiting(place.cash_list)
    after = list_after_pass(waiters(rows), place.player_id, ms(at) or 0, rules)
    place.passes += 1
    if rules.passed_to == "off":
        place.status, place.ended_at = CashListPlayer.Status.PASSED, at
    else:
        moved = next(w for w in after if w.player_id == place.player_id)
        place.since = datetime.fromtimestamp(moved.since_ms / 1000, tz=at.tzinfo)
    place.save(update_fields=["passes", "status", "ended_at", "since"])
    return before


def player_seated(
    room: Room, cash_table: CashTable, seat: int, player_id: int, at: datetime
) -> tuple[CashSeat, dict]:
    """The player sits down at `seat`: his seat elsewhere (a table change, a must-move table)
    freed, his place on this game's list ended as seated and, by the house's rule, his other
    lists left (§20.2). With the seat, what an undo restores: the sitting, the places ended,
    the seat he left."""
    before = CashSeat.objects.filter(player_id=player_id).select_related("cash_table").first()
    if before is not None:
        seat_freed(before, at)
    taken = CashSeat.objects.create(
        cash_table=cash_table, seat=seat, player_id=player_id, seated_at=at
    )
    sitting = CashSitting.objects.create(
        room=room, cash_table=cash_table, seat=seat, player_id=player_id, seated_at=at
    )
    _counted(cash_table)
    places = CashListPlayer.objects.filter(
        player_id=player_id, status=CashListPlayer.Status.WAITING, cash_list__room=room
    )
    same = places.filter(
        cash_list__game=cash_table.game,
        cash_list__game_limit=cash_table.game_limit,
        cash_list__small_blind=cash_table.small_blind,
        cash_list__big_blind=cash_table.big_blind,
    )
    ended = {"sitting": sitting.pk, "places": list(same.values_list("pk", flat=True))}
    same.update(status=CashListPlayer.Status.SEATED, ended_at=at)
    if cash_rules(room).seated_leaves_lists:
        ended["places"] += list(places.values_list("pk", flat=True))
        places.update(status=CashListPlayer.Status.LEFT, ended_at=at)
    if before is not None:
        ended["moved_from"] = [before.cash_table_id, before.seat]
    return taken, ended


def seat_freed(taken: CashSeat, at: datetime) -> None:
    """The player stands up: his seat's row gone, his sitting ended."""
    taken.delete()
    CashSitting.objects.filter(
        cash_table_id=taken.cash_table_id, player_id=taken.player_id, left_at=None
    ).update(left_at=at)
    _counted(taken.cash_table)


def _counted(cash_table: CashTable) -> None:
    """The table's count from its seats' rows (counted, not stepped: it never drifts)."""
    cash_table.players = CashSeat.objects.filter(cash_table=cash_table).count()
    cash_table.save(update_fields=["players"])
