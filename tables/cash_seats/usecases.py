"""The cash floor's seats (docs/rules.md §20.2, §20.4, §20.5): an open seat called, the call
taken or passed (or run out), a player seated by the floor, standing up, away and back. Each
locks the room once, operates, audits and appends the room's cash event."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.cash.operations import (
    call_passed,
    cash_event_append,
    player_seated,
    room_lock,
    seat_freed,
)
from tables.cash.selectors import (
    banned_players,
    cash_rules,
    list_for_table,
    list_waiting,
    same_game,
    sitters,
    waiters,
)
from tables.domain.cash import call_expired, call_expires_at, must_move_next, seat_candidates
from tables.models import CashCall, CashSeat, CashTable
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.models import Player


def _seat_free(table: CashTable, seat: int) -> None:
    if not 1 <= seat <= table.seats:
        raise InvalidInput("invalid_seat", _("Seats are 1 to %(n)s.") % {"n": table.seats})
    if CashSeat.objects.filter(cash_table=table, seat=seat).exists():
        raise Conflict("seat_taken", _("Seat %(n)s is taken.") % {"n": seat})
    if CashCall.objects.filter(cash_table=table, seat=seat, status=CashCall.Status.OPEN).exists():
        raise Conflict("seat_called", _("Seat %(n)s has been offered already.") % {"n": seat})


def cash_seat_call(*, actor, cash_table_id: int, seat: int) -> CashCall:
    """An open seat offered (§20.2, §20.4): to the player longest at a must-move table that
    feeds this one, else to the first of the table changes and the list who may be called.
    Refused: the seat taken or offered already, nobody to call (`nobody_waiting`)."""
    table = CashTable.objects.filter(pk=cash_table_id).first()
    if table is None:
        raise NotFound("cash_table_not_found", _("There is no such cash table."))
    with transaction.atomic(durable=True):
        room = room_lock(table.room_id)
        table = CashTable.objects.get(pk=cash_table_id)
        if table.status != CashTable.Status.OPEN:
            raise Conflict("table_closed", _("The table is closed."))
        _seat_free(table, seat)
        now = timezone.now()
        rules = cash_rules(room)
        called = set(
            CashCall.objects.filter(cash_table__room=room, status=CashCall.Status.OPEN).values_list(
                "player_id", flat=True
            )
        )
        mover, place, from_table = _who_is_called(table, called, now, rules)
        call = CashCall.objects.create(
            cash_table=table,
            seat=seat,
            list_player=place,
            player_id=mover,
            from_table=from_table,
            called_at=now,
            expires_at=now + timezone.timedelta(milliseconds=call_expires_at(0, rules)),
            called_by=actor if actor is not None and actor.is_authenticated else None,
        )
        audit_record(
            actor=actor,
            action="cash.call",
            summary=audit_text(
                gettext_noop("%(name)s called to table %(t)s seat %(s)s"),
                {"name": call.player.name, "t": table.number, "s": seat},
            ),
            target=call,
        )
        cash_event_append(
            room, "cash_call", {"reason": "called", "call": call.pk, "player": mover}, now
        )
    return call


def _who_is_called(table: CashTable, called: set[int], now, rules):
    """(player id, his list place or None, the table he moves from or None)."""
    for feeder in CashTable.objects.filter(must_move_for=table, status=CashTable.Status.OPEN):
        first = must_move_next(s for s in sitters(feeder) if s.player_id not in called)
        if first is not None:
            return first.player_id, None, feeder
    cash_list = list_for_table(table)
    rows = list_waiting(cash_list) if cash_list else []
    banned = banned_players([r.player_id for r in rows], now)
    seated_here = (
        set(
            CashSeat.objects.filter(cash_table__in=same_game(cash_list)).values_list(
                "player_id", flat=True
            )
        )
        if cash_list
        else set()
    )
    by_key = {r.pk: r for r in rows}
    changes = [
        w
        for w, r in zip(waiters(rows), rows, strict=True)
        if r.table_change_from_id and r.table_change_from_id != table.pk
    ]
    plain = [
        w
        for w, r in zip(waiters(rows), rows, strict=True)
        if r.table_change_from_id is None and r.player_id not in seated_here
    ]
    for w in seat_candidates(changes, plain, rules):
        if w.player_id not in called and w.player_id not in banned:
            row = by_key[w.key]
            return row.player_id, row, row.table_change_from
    raise Conflict("nobody_waiting", _("Nobody on the list may be called for this seat."))


def cash_call_take(*, actor, call_id: int) -> CashSeat:
    """The called player sits down (in time: the last second counts, §20.2). Refused: the
    call over (`call_not_open`), its time run out (`call_expired`)."""
    call = CashCall.objects.filter(pk=call_id).select_related("cash_table").first()
    if call is None:
        raise NotFound("cash_call_not_found", _("There is no such call."))
    with transaction.atomic(durable=True):
        room = room_lock(call.cash_table.room_id)
        call = CashCall.objects.select_related("cash_table", "player").get(pk=call_id)
        if call.status != CashCall.Status.OPEN:
            raise Conflict("call_not_open", _("This call is over."))
        now = timezone.now()
        rules = cash_rules(room)
        if call_expired(_ms(call.called_at), _ms(now), rules):
            raise Conflict("call_expired", _("The call's time has run out."))
        call.status, call.ended_at = CashCall.Status.TAKEN, now
        call.save(update_fields=["status", "ended_at"])
        # the room's lock serializes: the seat is free (its call held it) and he sits nowhere else
        taken, ended = player_seated(room, call.cash_table, call.seat, call.player_id, now)
        audit_record(
            actor=actor,
            action="cash.seat",
            summary=audit_text(
                gettext_noop("%(name)s seated at table %(t)s seat %(s)s"),
                {"name": call.player.name, "t": call.cash_table.number, "s": call.seat},
            ),
            target=taken,
            after={"call": call.pk, "from_table": call.from_table_id, **ended},
        )
        cash_event_append(room, "cash_seat", {"reason": "seated", "call": call.pk}, now)
    return taken


def _ms(at) -> int:
    return int(at.timestamp() * 1000)


def cash_call_pass(*, actor, call_id: int) -> CashCall:
    """The called player says no or does not come: passed over (§20.2)."""
    call = CashCall.objects.filter(pk=call_id).select_related("cash_table").first()
    if call is None:
        raise NotFound("cash_call_not_found", _("There is no such call."))
    with transaction.atomic(durable=True):
        room = room_lock(call.cash_table.room_id)
        call = CashCall.objects.select_related(
            "cash_table", "player", "list_player__cash_list"
        ).get(pk=call_id)
        if call.status != CashCall.Status.OPEN:
            raise Conflict("call_not_open", _("This call is over."))
        now = timezone.now()
        before = call_passed(room, call, now)
        audit_record(
            actor=actor,
            action="cash.pass",
            summary=audit_text(gettext_noop("%(name)s passed over"), {"name": call.player.name}),
            target=call,
            before=before,
        )
        cash_event_append(room, "cash_call", {"reason": "passed", "call": call.pk}, now)
    return call


def cash_calls_expire(*, now=None) -> int:
    """Every open call whose time has run out passed over (the timers' tick); how many."""
    now = now or timezone.now()
    count = 0
    for call_id, room_id in CashCall.objects.filter(
        status=CashCall.Status.OPEN, expires_at__lt=now
    ).values_list("pk", "cash_table__room_id"):
        with transaction.atomic(durable=True):
            room = room_lock(room_id)
            call = CashCall.objects.select_related("list_player__cash_list").get(pk=call_id)
            if call.status != CashCall.Status.OPEN:
                continue
            before = call_passed(room, call, now)
            audit_record(
                actor=None,
                action="cash.pass",
                summary=audit_text(
                    gettext_noop("%(name)s passed over: the call ran out"),
                    {"name": call.player.name},
                ),
                target=call,
                before=before,
            )
            cash_event_append(room, "cash_call", {"reason": "expired", "call": call.pk}, now)
            count += 1
    return count


def cash_seat_direct(*, actor, cash_table_id: int, seat: int, player_id: int) -> CashSeat:
    """The floor seats a player at an open seat himself (a walk-in, a list passed over)."""
    table = CashTable.objects.filter(pk=cash_table_id).first()
    player = Player.objects.filter(pk=player_id).first()
    if table is None or player is None:
        raise NotFound("not_found", _("There is no such table or player."))
    with transaction.atomic(durable=True):
        room = room_lock(table.room_id)
        table = CashTable.objects.get(pk=cash_table_id)
        if table.status != CashTable.Status.OPEN:
            raise Conflict("table_closed", _("The table is closed."))
        _seat_free(table, seat)
        now = timezone.now()
        if banned_players([player.pk], now):
            raise Conflict("player_banned", _("%(name)s is banned.") % {"name": player.name})
        taken, ended = player_seated(room, table, seat, player.pk, now)
        audit_record(
            actor=actor,
            action="cash.seat",
            summary=audit_text(
                gettext_noop("%(name)s seated at table %(t)s seat %(s)s"),
                {"name": player.name, "t": table.number, "s": seat},
            ),
            target=taken,
            after=ended,
        )
        cash_event_append(room, "cash_seat", {"reason": "seated", "table": table.number}, now)
    return taken


def cash_seat_leave(*, actor, cash_table_id: int, seat: int) -> None:
    """The player stands up: his seat opens (the floor offers it, `cash_seat_call`)."""
    table = CashTable.objects.filter(pk=cash_table_id).first()
    if table is None:
        raise NotFound("cash_table_not_found", _("There is no such cash table."))
    with transaction.atomic(durable=True):
        room = room_lock(table.room_id)
        taken = (
            CashSeat.objects.filter(cash_table_id=cash_table_id, seat=seat)
            .select_related("player", "cash_table")
            .first()
        )
        if taken is None:
            raise Conflict("seat_empty", _("Nobody sits in seat %(n)s.") % {"n": seat})
        now = timezone.now()
        seat_freed(taken, now)
        audit_record(
            actor=actor,
            action="cash.leave",
            summary=audit_text(
                gettext_noop("%(name)s left table %(t)s seat %(s)s"),
                {"name": taken.player.name, "t": table.number, "s": seat},
            ),
            target=table,
            before={
                "seat": seat,
                "player_id": taken.player_id,
                "seated_at": taken.seated_at.isoformat(),
            },
        )
        cash_event_append(
            room, "cash_seat", {"reason": "left", "table": table.number, "seat": seat}, now
        )


def cash_seat_away(*, actor, cash_table_id: int, seat: int, away: bool) -> CashSeat:
    """The dealer marks a player away (no cards for him, §20.5) or back."""
    table = CashTable.objects.filter(pk=cash_table_id).first()
    if table is None:
        raise NotFound("cash_table_not_found", _("There is no such cash table."))
    with transaction.atomic(durable=True):
        room = room_lock(table.room_id)
        taken = (
            CashSeat.objects.filter(cash_table_id=cash_table_id, seat=seat)
            .select_related("player")
            .first()
        )
        if taken is None:
            raise Conflict("seat_empty", _("Nobody sits in seat %(n)s.") % {"n": seat})
        now = timezone.now()
        if away == (taken.away_since is not None):
            return taken
        before = {"away_since": taken.away_since.isoformat() if taken.away_since else None}
        taken.away_since = now if away else None
        taken.save(update_fields=["away_since"])
        audit_record(
            actor=actor,
            action="cash.away" if away else "cash.back",
            summary=audit_text(
                gettext_noop("%(name)s away from table %(t)s")
                if away
                else gettext_noop("%(name)s back at table %(t)s"),
                {"name": taken.player.name, "t": table.number},
            ),
            target=taken,
            before=before,
        )
        cash_event_append(
            room,
            "cash_seat",
            {"reason": "away" if away else "back", "table": table.number, "seat": seat},
            now,
        )
    return taken
