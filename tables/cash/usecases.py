"""The cash floor's use cases (docs/rules.md §20): tables opened and closed, lists joined and
left, seats called, taken and passed, players away and back. Each locks the room once,
operates, audits and appends the room's cash event."""

from __future__ import annotations

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.cash.operations import (
    cash_event_append,
    player_seated,
    room_lock,
)
from tables.cash.selectors import (
    banned_players,
    cash_rules,
    list_waiting,
    same_game,
    stakes_name,
    waiters,
)
from tables.domain.cash import (
    CashRulesError,
    cash_rules_resolved,
    table_from_list,
)
from tables.models import (
    CashCall,
    CashList,
    CashListPlayer,
    CashSeat,
    CashTable,
    Room,
    Table,
    TournamentTable,
)
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.models import Player, Tournament
from tourney.tournaments.operations import game_checked

LIVE = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)


def _stakes_checked(small_blind: int, big_blind: int, min_buy_in: int, max_buy_in: int) -> None:
    if not (0 < small_blind <= big_blind) or not (0 < min_buy_in <= max_buy_in):
        raise InvalidInput(
            "invalid_stakes",
            _(
                "The blinds and buy-ins must be positive, the small blind up to the big blind"
                " and the minimum buy-in up to the maximum."
            ),
        )


def _list_open(room, game: str, limit: str, small_blind: int, big_blind: int, now) -> CashList:
    found = CashList.objects.filter(
        room=room,
        closed_at=None,
        game=game,
        game_limit=limit,
        small_blind=small_blind,
        big_blind=big_blind,
    ).first()
    return found or CashList.objects.create(
        room=room,
        game=game,
        game_limit=limit,
        small_blind=small_blind,
        big_blind=big_blind,
        created_at=now,
    )


def _table_record(
    room, table_number: int, stakes: tuple, buy_ins: tuple, straddle, must_move_for_id, now
) -> CashTable:
    """The room's table `table_number` opened for `stakes` (game, limit, small and big
    blind), or why not."""
    game, game_limit, small_blind, big_blind = stakes
    table = Table.objects.filter(room=room, number=table_number).first()
    if table is None:
        raise NotFound("table_not_found", _("The room has no table %(n)s.") % {"n": table_number})
    busy = CashTable.objects.filter(table=table, status=CashTable.Status.OPEN).exists() or (
        TournamentTable.objects.filter(
            table=table, status=TournamentTable.Status.OPEN, tournament__status__in=LIVE
        ).exists()
    )
    if busy:
        raise Conflict("table_in_use", _("Table %(n)s is in play.") % {"n": table_number})
    main = None
    if must_move_for_id is not None:
        main = CashTable.objects.filter(
            pk=must_move_for_id, room=room, status=CashTable.Status.OPEN
        ).first()
        if main is None or (main.game, main.game_limit, main.small_blind, main.big_blind) != stakes:
            raise InvalidInput(
                "invalid_must_move",
                _("A must-move table feeds an open table of its own game and blinds."),
            )
    return CashTable.objects.create(
        room=room,
        table=table,
        number=table.number,
        seats=table.seats,
        game=game,
        game_limit=game_limit,
        small_blind=small_blind,
        big_blind=big_blind,
        min_buy_in=buy_ins[0],
        max_buy_in=buy_ins[1],
        straddle=straddle,
        must_move_for=main,
        opened_at=now,
    )


def cash_table_open(
    *,
    actor,
    room_id: int,
    table_number: int,
    game: str,
    game_limit: str,
    small_blind: int,
    big_blind: int,
    min_buy_in: int,
    max_buy_in: int,
    straddle: bool = False,
    must_move_for_id: int | None = None,
) -> CashTable:
    """A room's table opened for a cash game at its blinds (its list made when there is none).
    Refused: the table dealing another cash game or a live tournament's (`table_in_use`), a
    must-move table for a game that is not its own (`invalid_must_move`)."""
    game, game_limit = game_checked(game, game_limit)
    _stakes_checked(small_blind, big_blind, min_buy_in, max_buy_in)
    with transaction.atomic(durable=True):
        room = room_lock(room_id)
        now = timezone.now()
        cash_table = _table_record(
            room,
            table_number,
            (game, game_limit, small_blind, big_blind),
            (min_buy_in, max_buy_in),
            straddle,
            must_move_for_id,
            now,
        )
        _list_open(room, game, game_limit, small_blind, big_blind, now)
        audit_record(
            actor=actor,
            action="cash.table_open",
            summary=audit_text(
                gettext_noop("Cash table %(n)s opened: %(stakes)s"),
                {"n": cash_table.number, "stakes": stakes_name(cash_table)},
            ),
            target=cash_table,
            after={"table": cash_table.number, "must_move_for": must_move_for_id},
        )
        cash_event_append(
            room, "cash_seat", {"reason": "table_opened", "table": cash_table.number}, now
        )
    return cash_table


def cash_table_close(*, actor, cash_table_id: int) -> CashTable:
    """The table closed; refused while players sit there (`table_not_empty`); its open calls
    cancelled and the tables it fed no longer must-move."""
    table = CashTable.objects.filter(pk=cash_table_id).first()
    if table is None:
        raise NotFound("cash_table_not_found", _("There is no such cash table."))
    with transaction.atomic(durable=True):
        room = room_lock(table.room_id)
        table = CashTable.objects.get(pk=cash_table_id)
        if table.status != CashTable.Status.OPEN:
            raise Conflict("table_closed", _("The table is closed already."))
        if CashSeat.objects.filter(cash_table=table).exists():
            raise Conflict("table_not_empty", _("Players still sit at this table."))
        now = timezone.now()
        CashCall.objects.filter(cash_table=table, status=CashCall.Status.OPEN).update(
            status=CashCall.Status.CANCELLED, ended_at=now
        )
        CashTable.objects.filter(must_move_for=table).update(must_move_for=None)
        table.status, table.closed_at = CashTable.Status.CLOSED, now
        table.save(update_fields=["status", "closed_at"])
        audit_record(
            actor=actor,
            action="cash.table_close",
            summary=audit_text(gettext_noop("Cash table %(n)s closed"), {"n": table.number}),
            target=table,
        )
        cash_event_append(room, "cash_seat", {"reason": "table_closed", "table": table.number}, now)
    return table


def cash_list_create(
    *, actor, room_id: int, game: str, game_limit: str, small_blind: int, big_blind: int
) -> CashList:
    """A list for a game at its blinds (an interest list while no table deals it); the one
    open already when there is one."""
    game, game_limit = game_checked(game, game_limit)
    _stakes_checked(small_blind, big_blind, 1, 1)
    with transaction.atomic(durable=True):
        room = room_lock(room_id)
        now = timezone.now()
        cash_list = _list_open(room, game, game_limit, small_blind, big_blind, now)
        audit_record(
            actor=actor,
            action="cash.list_create",
            summary=audit_text(
                gettext_noop("Waiting list %(stakes)s"), {"stakes": stakes_name(cash_list)}
            ),
            target=cash_list,
        )
        cash_event_append(room, "cash_list", {"reason": "created", "list": cash_list.pk}, now)
    return cash_list


def cash_list_join(
    *, actor, cash_list_id: int, player_id: int, via: str = "desk"
) -> CashListPlayer:
    """The player onto the list's end; seated at a table of that game, he asks for a table
    change (§20.4). Refused: banned (`player_banned`), on the list already (`already_on_list`)."""
    cash_list = CashList.objects.filter(pk=cash_list_id, closed_at=None).first()
    if cash_list is None:
        raise NotFound("cash_list_not_found", _("There is no such waiting list."))
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        raise NotFound(
            "player_not_found", _("There is no player with id %(id)s.") % {"id": player_id}
        )
    with transaction.atomic(durable=True):
        room = room_lock(cash_list.room_id)
        now = timezone.now()
        if banned_players([player.pk], now):
            raise Conflict("player_banned", _("%(name)s is banned.") % {"name": player.name})
        if CashListPlayer.objects.filter(
            cash_list=cash_list, player=player, status=CashListPlayer.Status.WAITING
        ).exists():
            raise Conflict(
                "already_on_list", _("%(name)s is on this list already.") % {"name": player.name}
            )
        sits = CashSeat.objects.filter(player=player, cash_table__in=same_game(cash_list)).first()
        place = CashListPlayer.objects.create(
            cash_list=cash_list,
            player=player,
            joined_at=now,
            since=now,
            via=via,
            table_change_from=sits.cash_table if sits else None,
        )
        audit_record(
            actor=actor,
            action="cash.list_join",
            summary=audit_text(
                gettext_noop("%(name)s on the list %(stakes)s"),
                {"name": player.name, "stakes": stakes_name(cash_list)},
            ),
            target=place,
            after={"via": via, "table_change_from": place.table_change_from_id},
        )
        cash_event_append(room, "cash_list", {"reason": "joined", "list": cash_list.pk}, now)
    return place


def cash_list_leave(*, actor, cash_list_id: int, player_id: int) -> CashListPlayer:
    """The player off the list (his open call cancelled: leaving as he is called, one of the
    two happens first)."""
    cash_list = CashList.objects.filter(pk=cash_list_id).first()
    if cash_list is None:
        raise NotFound("cash_list_not_found", _("There is no such waiting list."))
    with transaction.atomic(durable=True):
        room = room_lock(cash_list.room_id)
        now = timezone.now()
        place = CashListPlayer.objects.filter(
            cash_list=cash_list, player_id=player_id, status=CashListPlayer.Status.WAITING
        ).first()
        if place is None:
            raise Conflict("not_on_list", _("The player is not on this list."))
        CashCall.objects.filter(list_player=place, status=CashCall.Status.OPEN).update(
            status=CashCall.Status.CANCELLED, ended_at=now
        )
        place.status, place.ended_at = CashListPlayer.Status.LEFT, now
        place.save(update_fields=["status", "ended_at"])
        audit_record(
            actor=actor,
            action="cash.list_leave",
            summary=audit_text(gettext_noop("%(name)s left the list"), {"name": place.player.name}),
            target=place,
        )
        cash_event_append(room, "cash_list", {"reason": "left", "list": cash_list.pk}, now)
    return place


def cash_table_from_list(
    *,
    actor,
    cash_list_id: int,
    table_number: int,
    min_buy_in: int,
    max_buy_in: int,
    rng: random.Random | None = None,
) -> CashTable:
    """A new table for a list that reached the house's number (§20.3): the room's table
    opened for the list's game, its first players seated at drawn seats. Refused below the
    number (`not_enough_waiting`)."""
    cash_list = CashList.objects.filter(pk=cash_list_id, closed_at=None).first()
    if cash_list is None:
        raise NotFound("cash_list_not_found", _("There is no such waiting list."))
    _stakes_checked(cash_list.small_blind, cash_list.big_blind, min_buy_in, max_buy_in)
    rng = rng or random.SystemRandom()
    with transaction.atomic(durable=True):
        room = room_lock(cash_list.room_id)
        now = timezone.now()
        rules = cash_rules(room)
        rows = list_waiting(cash_list)
        busy = banned_players([r.player_id for r in rows], now) | set(
            CashCall.objects.filter(cash_table__room=room, status=CashCall.Status.OPEN).values_list(
                "player_id", flat=True
            )
        )
        free = [r for r in rows if r.player_id not in busy and r.table_change_from_id is None]
        stakes = (cash_list.game, cash_list.game_limit, cash_list.small_blind, cash_list.big_blind)
        table = Table.objects.filter(room=room, number=table_number).first()
        drawn = table_from_list(waiters(free), table.seats if table else 2, rules, rng)
        if drawn is None:
            raise Conflict(
                "not_enough_waiting",
                _("A new table needs %(n)s players waiting.") % {"n": rules.open_table_at},
            )
        cash_table = _table_record(
            room, table_number, stakes, (min_buy_in, max_buy_in), False, None, now
        )
        for player_id, seat in drawn:
            player_seated(room, cash_table, seat, player_id, now)  # undone with the table
        audit_record(
            actor=actor,
            action="cash.table_from_list",
            summary=audit_text(
                gettext_noop("Cash table %(n)s opened from the list %(stakes)s: %(p)s players"),
                {"n": cash_table.number, "stakes": stakes_name(cash_list), "p": len(drawn)},
            ),
            target=cash_table,
            after={"seats": [[p, s] for p, s in drawn]},
        )
        cash_event_append(
            room, "cash_seat", {"reason": "table_opened", "table": cash_table.number}, now
        )
    return cash_table


def cash_rules_set(*, actor, room_id: int, house_rules: str, rules: dict) -> Room:
    """The room's cash house rules: a profile and the values it changes (docs/rules.md §20.7).
    Refused: an unknown profile or parameter, a value out of its bounds (422)."""
    try:
        cash_rules_resolved(house_rules, rules)
    except CashRulesError as exc:
        raise InvalidInput(
            exc.code, _("This house rule cannot take that value: %(name)s") % {"name": exc.name}
        ) from exc
    with transaction.atomic(durable=True):
        room = room_lock(room_id)
        before = {"house_rules": room.cash_house_rules, "rules": room.cash_rules}
        room.cash_house_rules, room.cash_rules = house_rules, dict(rules)
        room.save(update_fields=["cash_house_rules", "cash_rules"])
        audit_record(
            actor=actor,
            action="cash.rules",
            summary=audit_text(
                gettext_noop("Cash games' house rules of %(room)s set"), {"room": room.name}
            ),
            target=room,
            before=before,
            after={"house_rules": house_rules, "rules": rules},
        )
        cash_event_append(room, "cash_list", {"reason": "rules"}, timezone.now())
    return room
