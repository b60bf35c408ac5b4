"""The cash table's dealer (docs/rules.md §20.5-§20.6): the button set, the next hand (the
button and the blinds moved among the players dealt in, the blinds an away player missed
written to his seat, a new player dealt in when the big blind reaches him), a player's blinds
posted. Each locks the room once, operates, audits and appends the room's cash event."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.cash.operations import cash_event_append, room_lock
from tables.domain.cash import blinds_passed, hand_positions
from tables.models import CashSeat, CashTable
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound


def _table(cash_table_id: int) -> CashTable:
    table = CashTable.objects.filter(pk=cash_table_id, status=CashTable.Status.OPEN).first()
    if table is None:
        raise NotFound("cash_table_not_found", _("There is no such cash table."))
    return table


def _positions_written(table: CashTable, button: int, small: int | None, big: int) -> None:
    table.button_seat, table.small_blind_seat, table.big_blind_seat = button, small, big
    table.save(update_fields=["button_seat", "small_blind_seat", "big_blind_seat"])


def cash_button_set(*, actor, cash_table_id: int, seat: int) -> CashTable:
    """The dealer puts the button at `seat` (the first hand, or a correction): the blinds
    follow it among the players present, and everyone seated is dealt in from here."""
    table = _table(cash_table_id)
    with transaction.atomic(durable=True):
        room = room_lock(table.room_id)
        table = CashTable.objects.get(pk=cash_table_id)
        seated = list(CashSeat.objects.filter(cash_table=table))
        present = sorted(s.seat for s in seated if s.away_since is None)
        if seat not in present:
            raise InvalidInput("invalid_seat", _("The button goes to a player at the table."))
        if len(present) < 2:
            raise Conflict("not_enough_players", _("A hand needs two players at the table."))
        before = present[present.index(seat) - 1]  # the button moves from there to `seat`
        button, small, big = hand_positions(present, before, table.seats)
        _positions_written(table, button, small, big)
        CashSeat.objects.filter(cash_table=table).update(new_player=False)
        now = timezone.now()
        audit_record(
            actor=actor,
            action="cash.button",
            summary=audit_text(
                gettext_noop("Table %(t)s: the button on seat %(s)s"),
                {"t": table.number, "s": button},
            ),
            target=table,
            after={"button": button, "small": small, "big": big},
        )
        cash_event_append(room, "cash_seat", {"reason": "button", "table": table.number}, now)
    return table


def cash_hand_next(*, actor, cash_table_id: int) -> CashTable:
    """The next hand: the button and the blinds move among the players present; a new
    player reached by the big blind is dealt in; an away player passed over by a blind owes
    it. Refused before the button is set (`no_button`)."""
    table = _table(cash_table_id)
    with transaction.atomic(durable=True):
        room = room_lock(table.room_id)
        table = CashTable.objects.get(pk=cash_table_id)
        if table.button_seat is None:
            raise Conflict("no_button", _("Put the button on a seat first."))
        seated = {s.seat: s for s in CashSeat.objects.filter(cash_table=table)}
        present = sorted(n for n, s in seated.items() if s.away_since is None)
        if len(present) < 2:
            raise Conflict("not_enough_players", _("A hand needs two players at the table."))
        before = (table.small_blind_seat, table.big_blind_seat)
        button, small, big = hand_positions(present, table.button_seat, table.seats)
        away = [n for n, s in seated.items() if s.away_since is not None]
        for n, owed in blinds_passed(away, before, (small, big), table.seats).items():
            seated[n].owes = sorted(set(seated[n].owes) | owed)
            seated[n].save(update_fields=["owes"])
        if seated[big].new_player:
            seated[big].new_player = False  # the big blind reached him: he posts it, dealt in
            seated[big].save(update_fields=["new_player"])
        _positions_written(table, button, small, big)
        now = timezone.now()
        audit_record(
            actor=actor,
            action="cash.hand",
            summary=audit_text(
                gettext_noop("Table %(t)s: next hand, the button on seat %(s)s"),
                {"t": table.number, "s": button},
            ),
            target=table,
            after={"button": button, "small": small, "big": big},
        )
        cash_event_append(room, "cash_seat", {"reason": "hand", "table": table.number}, now)
    return table


def cash_seat_posted(*, actor, cash_table_id: int, seat: int) -> CashSeat:
    """The player at `seat` posted what he owed (a new player's big blind, the blinds he
    missed): he is dealt in."""
    table = _table(cash_table_id)
    with transaction.atomic(durable=True):
        room = room_lock(table.room_id)
        taken = (
            CashSeat.objects.filter(cash_table_id=cash_table_id, seat=seat)
            .select_related("player")
            .first()
        )
        if taken is None:
            raise Conflict("seat_empty", _("Nobody sits in seat %(n)s.") % {"n": seat})
        before = {"owes": list(taken.owes), "new_player": taken.new_player}
        taken.owes, taken.new_player = [], False
        taken.save(update_fields=["owes", "new_player"])
        now = timezone.now()
        audit_record(
            actor=actor,
            action="cash.posted",
            summary=audit_text(
                gettext_noop("%(name)s posted at table %(t)s"),
                {"name": taken.player.name, "t": table.number},
            ),
            target=taken,
            before=before,
        )
        cash_event_append(room, "cash_seat", {"reason": "posted", "table": table.number}, now)
    return taken
