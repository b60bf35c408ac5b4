"""Reads of the cash floor (docs/rules.md §20): the house's rules, the lists in order, the
tables and their seats, as the API and the pages show them."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, Q
from django.utils import formats
from django.utils.translation import gettext as _

from tables.domain.cash import (
    CASH_PROFILES,
    CashRules,
    CashRulesError,
    Sitter,
    Waiter,
    away_expired,
    cash_rules_resolved,
    list_order,
)
from tables.models import (
    CashCall,
    CashEvent,
    CashList,
    CashListPlayer,
    CashSeat,
    CashTable,
    Room,
    Table,
    TournamentTable,
)
from tourney.core.errors import NotFound
from tourney.models import PlayerBan
from tourney.models.games import game_name


def ms(at: datetime | None) -> int | None:
    return None if at is None else int(at.timestamp() * 1000)


def cash_rules(room: Room) -> CashRules:
    """The room's cash rules: its profile's, with the values it changed (checked when they
    were set; a profile's defaults should a stored value no longer pass)."""
    try:
        return cash_rules_resolved(room.cash_house_rules, dict(room.cash_rules or {}))
    except CashRulesError:
        return CASH_PROFILES.get(room.cash_house_rules, CASH_PROFILES["tda2024"])


def cash_rules_out(room: Room) -> dict:
    rules = cash_rules(room)
    return {
        "house_rules": room.cash_house_rules,
        "rules": {f: getattr(rules, f) for f in rules.__slots__},
        "changed": dict(room.cash_rules or {}),
    }


def cash_table_of(cash_table_id: int) -> CashTable:
    table = CashTable.objects.filter(pk=cash_table_id).first()
    if table is None:
        raise NotFound("cash_table_not_found", _("There is no such cash table."))
    return table


def cash_list_of(cash_list_id: int) -> CashList:
    found = CashList.objects.filter(pk=cash_list_id, closed_at=None).first()
    if found is None:
        raise NotFound("cash_list_not_found", _("There is no such waiting list."))
    return found


def list_waiting(cash_list: CashList) -> list[CashListPlayer]:
    """The list's players waiting, in order (§20.1)."""
    rows = list(
        CashListPlayer.objects.filter(cash_list=cash_list, status=CashListPlayer.Status.WAITING)
        .select_related("player")
        .order_by("since", "id")
    )
    order = {w.key: i for i, w in enumerate(list_order(_waiter(r) for r in rows))}
    return sorted(rows, key=lambda r: order[r.pk])


def _waiter(row: CashListPlayer) -> Waiter:
    return Waiter(player_id=row.player_id, since_ms=ms(row.since) or 0, key=row.pk)


def waiters(rows: list[CashListPlayer]) -> list[Waiter]:
    return [_waiter(r) for r in rows]


def sitters(cash_table: CashTable) -> list[Sitter]:
    return [
        Sitter(player_id=s.player_id, seat=s.seat, seated_ms=ms(s.seated_at) or 0)
        for s in CashSeat.objects.filter(cash_table=cash_table)
    ]


def same_game(cash_list: CashList):
    """The open tables dealing the list's game at its blinds."""
    return CashTable.objects.filter(
        room_id=cash_list.room_id,
        status=CashTable.Status.OPEN,
        game=cash_list.game,
        game_limit=cash_list.game_limit,
        small_blind=cash_list.small_blind,
        big_blind=cash_list.big_blind,
    )


def list_for_table(cash_table: CashTable) -> CashList | None:
    return CashList.objects.filter(
        room_id=cash_table.room_id,
        closed_at=None,
        game=cash_table.game,
        game_limit=cash_table.game_limit,
        small_blind=cash_table.small_blind,
        big_blind=cash_table.big_blind,
    ).first()


def banned_players(player_ids: list[int], now: datetime) -> set[int]:
    """Of these players, those under a ban in force that is not a championship's (a day's ban
    lasts to the end of the room's gaming day, §10.5)."""
    return set(
        PlayerBan.objects.filter(player_id__in=player_ids, lifted_at=None, season=None)
        .filter(starts_at__lte=now)
        .filter(Q(ends_at=None) | Q(ends_at__gt=now))
        .values_list("player_id", flat=True)
    )


def stakes_name(row: CashTable | CashList) -> str:
    """ "No-limit Hold'em 200/400" in the reader's language."""
    blinds = [
        formats.number_format(b, force_grouping=True) for b in (row.small_blind, row.big_blind)
    ]
    return f"{game_name(row.game, row.game_limit)} {blinds[0]}/{blinds[1]}"


def cash_table_out(table: CashTable) -> dict:
    seats = {s.seat: s for s in CashSeat.objects.filter(cash_table=table).select_related("player")}
    calls = {
        c.seat: c
        for c in CashCall.objects.filter(
            cash_table=table, status=CashCall.Status.OPEN
        ).select_related("player")
    }
    return {
        "id": table.pk,
        "room_id": table.room_id,
        "number": table.number,
        "game": {"kind": table.game, "limit": table.game_limit, "name": stakes_name(table)},
        "small_blind": table.small_blind,
        "big_blind": table.big_blind,
        "min_buy_in": table.min_buy_in,
        "max_buy_in": table.max_buy_in,
        "straddle": table.straddle,
        "must_move_for": table.must_move_for_id,
        "status": table.status,
        "opened_at_ms": ms(table.opened_at),
        "seats": [_seat_out(n, seats.get(n), calls.get(n)) for n in range(1, table.seats + 1)],
    }


def _seat_out(number: int, taken: CashSeat | None, call: CashCall | None) -> dict:
    return {
        "seat": number,
        "player_id": taken.player_id if taken else None,
        "player_name": taken.player.name if taken else None,
        "seated_at_ms": ms(taken.seated_at) if taken else None,
        "away_since_ms": ms(taken.away_since) if taken else None,
        "owes": list(taken.owes) if taken else [],
        "call": call_out(call) if call else None,
    }


def call_out(call: CashCall) -> dict:
    return {
        "id": call.pk,
        "cash_table_id": call.cash_table_id,
        "seat": call.seat,
        "called_player_id": call.player_id,
        "player_name": call.player.name,
        "called_at_ms": ms(call.called_at),
        "expires_at_ms": ms(call.expires_at),
        "status": call.status,
        "from_table_id": call.from_table_id,
    }


def cash_list_out(cash_list: CashList) -> dict:
    rows = list_waiting(cash_list)
    calls = {
        c.list_player_id: c
        for c in CashCall.objects.filter(
            list_player__in=rows, status=CashCall.Status.OPEN
        ).select_related("player")
    }
    return {
        "id": cash_list.pk,
        "room_id": cash_list.room_id,
        "game": {
            "kind": cash_list.game,
            "limit": cash_list.game_limit,
            "name": stakes_name(cash_list),
        },
        "small_blind": cash_list.small_blind,
        "big_blind": cash_list.big_blind,
        "tables": same_game(cash_list).count(),
        "players": [
            {
                "position": i,
                "player_id": r.player_id,
                "player_name": r.player.name,
                "joined_at_ms": ms(r.joined_at),
                "table_change_from": r.table_change_from_id,
                "call": call_out(calls[r.pk]) if r.pk in calls else None,
            }
            for i, r in enumerate(rows, start=1)
        ],
    }


def player_positions(player_id: int) -> list[dict]:
    """A player's places on the room's lists (his own page, §20.2)."""
    out = []
    for row in CashListPlayer.objects.filter(
        player_id=player_id, status=CashListPlayer.Status.WAITING, cash_list__closed_at=None
    ).select_related("cash_list"):
        rows = list_waiting(row.cash_list)
        position = next(i for i, r in enumerate(rows, start=1) if r.pk == row.pk)
        out.append(
            {
                "cash_list_id": row.cash_list_id,
                "name": stakes_name(row.cash_list),
                "position": position,
            }
        )
    return out


def away_overdue(room: Room, now: datetime) -> list[CashSeat]:
    """The seats whose hold for an away player has run out (§20.5): the floor's warning."""
    rules = cash_rules(room)
    at = ms(now) or 0
    return [
        s
        for s in CashSeat.objects.filter(cash_table__room=room, away_since__isnull=False)
        .select_related("player", "cash_table")
        .order_by("away_since")
        if away_expired(ms(s.away_since) or 0, at, rules)
    ]


def cash_version(room_id: int) -> int:
    """The room's last cash event's version (0 before any): the pages reload when it moves."""
    return (
        CashEvent.objects.filter(room_id=room_id)
        .order_by("-version")
        .values_list("version", flat=True)
        .first()
        or 0
    )


def cash_floor(room: Room, now: datetime) -> dict:
    """What the cash floor's page and TV show of a room: its open tables with their seats, its
    lists in order, the calls running, the lists ready for a new table, the away seats whose
    hold has run out, and the room's tables free to open."""
    rules = cash_rules(room)
    tables = [cash_table_out(t) for t in CashTable.objects.filter(room=room, status="open")]
    lists = [cash_list_out(x) for x in CashList.objects.filter(room=room, closed_at=None)]
    free_seats: dict[tuple, int] = {}
    for t in tables:
        key = (t["game"]["kind"], t["game"]["limit"], t["small_blind"], t["big_blind"])
        open_seats = sum(1 for s in t["seats"] if not s["player_id"] and not s["call"])
        free_seats[key] = free_seats.get(key, 0) + open_seats
        t["open_seats"] = open_seats
    for x in lists:
        key = (x["game"]["kind"], x["game"]["limit"], x["small_blind"], x["big_blind"])
        x["open_seats"] = free_seats.get(key, 0)
        x["ready"] = len(x["players"]) >= rules.open_table_at and not free_seats.get(key)
    in_play = set(
        CashTable.objects.filter(room=room, status="open").values_list("table_id", flat=True)
    )
    in_play |= set(
        TournamentTable.objects.filter(
            table__room=room, status="open", tournament__status__in=("registering", "running")
        ).values_list("table_id", flat=True)
    )
    return {
        "rules": rules,
        "tables": tables,
        "lists": lists,
        "calls": [
            s["call"] | {"table": t["number"]} for t in tables for s in t["seats"] if s["call"]
        ],
        "away_overdue": away_overdue(room, now),
        "free_tables": [t for t in Table.objects.filter(room=room) if t.pk not in in_play],
        "version": cash_version(room.pk),
        "now_ms": ms(now),
    }


def rooms_cash() -> list[dict]:
    """Each room with its cash tables open and players waiting (the home page's card)."""
    tables = dict(
        CashTable.objects.filter(status="open")
        .values_list("room_id")
        .annotate(n=Count("id"))
        .values_list("room_id", "n")
    )
    waiting = dict(
        CashListPlayer.objects.filter(status="waiting", cash_list__closed_at=None)
        .values_list("cash_list__room_id")
        .annotate(n=Count("id"))
        .values_list("cash_list__room_id", "n")
    )
    return [
        {"room": r, "tables": tables.get(r.pk, 0), "waiting": waiting.get(r.pk, 0)}
        for r in Room.objects.all()[:20]
    ]
