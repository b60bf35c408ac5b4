"""Routes of the cash floor's tables and lists (docs/rules.md §20, docs/api.md "Cash games"):
open and close a table, read them; make, read, join and leave a list; a new table from a
list."""

from typing import Literal

from ninja import Field, Router, Status

from infra.web.schema_types import BodyIn, Id, Line, Money, bounded
from tables.cash.selectors import (
    cash_list_of,
    cash_list_out,
    cash_rules_out,
    cash_table_of,
    cash_table_out,
    player_positions,
)
from tables.cash.usecases import (
    cash_list_create,
    cash_list_join,
    cash_list_leave,
    cash_rules_set,
    cash_table_close,
    cash_table_from_list,
    cash_table_open,
)
from tables.cash_report.selectors import room_of
from tables.domain.cash import CASH_PROFILES
from tables.models import CashList, CashTable
from tourney.core import roles
from tourney.system.schemas import ERROR_RESPONSES, GameIn

router = Router(tags=["cash games"])
Blind = bounded(1, 10**9)


class CashTableIn(BodyIn):
    room_id: Id
    table: bounded(1, 10_000) = Field(..., description="The room's table number")
    game: GameIn = Field(default_factory=GameIn)
    small_blind: Blind
    big_blind: Blind
    min_buy_in: Money
    max_buy_in: Money
    straddle: bool = False
    must_move_for: Id | None = Field(None, description="The cash table this one feeds")


class CashListIn(BodyIn):
    room_id: Id
    game: GameIn = Field(default_factory=GameIn)
    small_blind: Blind
    big_blind: Blind


class ListPlayerIn(BodyIn):
    player_id: Id
    via: Literal["desk", "floor", "self"] = "desk"


class TableFromListIn(BodyIn):
    table: bounded(1, 10_000)
    min_buy_in: Money
    max_buy_in: Money


@router.post("/cash-tables", response={201: dict, **ERROR_RESPONSES})
def open_cash_table(request, payload: CashTableIn):
    roles.require(request.auth, "floor")
    table = cash_table_open(
        actor=request.auth,
        room_id=payload.room_id,
        table_number=payload.table,
        game=payload.game.kind,
        game_limit=payload.game.limit,
        small_blind=payload.small_blind,
        big_blind=payload.big_blind,
        min_buy_in=payload.min_buy_in,
        max_buy_in=payload.max_buy_in,
        straddle=payload.straddle,
        must_move_for_id=payload.must_move_for,
    )
    return Status(201, cash_table_out(table))


@router.get("/cash-tables", response={200: list[dict], **ERROR_RESPONSES})
def list_cash_tables(request, room_id: Id | None = None):
    """The open cash tables (of a room)."""
    roles.require(request.auth, "read")
    tables = CashTable.objects.filter(status=CashTable.Status.OPEN)
    if room_id is not None:
        tables = tables.filter(room_id=room_id)
    return [cash_table_out(t) for t in tables[:200]]


@router.get("/cash-tables/{cash_table_id}", response={200: dict, **ERROR_RESPONSES})
def get_cash_table(request, cash_table_id: Id):
    roles.require(request.auth, "read")
    return cash_table_out(cash_table_of(cash_table_id))


@router.post("/cash-tables/{cash_table_id}/close", response={200: dict, **ERROR_RESPONSES})
def close_cash_table(request, cash_table_id: Id):
    roles.require(request.auth, "floor")
    return cash_table_out(cash_table_close(actor=request.auth, cash_table_id=cash_table_id))


@router.post("/cash-lists", response={201: dict, **ERROR_RESPONSES})
def create_cash_list(request, payload: CashListIn):
    roles.require(request.auth, "desk")
    cash_list = cash_list_create(
        actor=request.auth,
        room_id=payload.room_id,
        game=payload.game.kind,
        game_limit=payload.game.limit,
        small_blind=payload.small_blind,
        big_blind=payload.big_blind,
    )
    return Status(201, cash_list_out(cash_list))


@router.get("/cash-lists", response={200: list[dict], **ERROR_RESPONSES})
def list_cash_lists(request, room_id: Id | None = None):
    """The open lists (of a room), each with its players in order."""
    roles.require(request.auth, "read")
    lists = CashList.objects.filter(closed_at=None)
    if room_id is not None:
        lists = lists.filter(room_id=room_id)
    return [cash_list_out(x) for x in lists[:200]]


@router.get("/cash-lists/{cash_list_id}", response={200: dict, **ERROR_RESPONSES})
def get_cash_list(request, cash_list_id: Id):
    roles.require(request.auth, "read")
    return cash_list_out(cash_list_of(cash_list_id))


@router.post("/cash-lists/{cash_list_id}/players", response={201: dict, **ERROR_RESPONSES})
def join_cash_list(request, cash_list_id: Id, payload: ListPlayerIn):
    """The player at the list's end (a table change when he plays this game already)."""
    roles.require(request.auth, "desk" if payload.via == "desk" else "floor")
    cash_list_join(
        actor=request.auth, cash_list_id=cash_list_id, player_id=payload.player_id, via=payload.via
    )
    return Status(201, cash_list_out(cash_list_of(cash_list_id)))


@router.delete(
    "/cash-lists/{cash_list_id}/players/{player_id}", response={200: dict, **ERROR_RESPONSES}
)
def leave_cash_list(request, cash_list_id: Id, player_id: Id):
    roles.require(request.auth, "desk")
    cash_list_leave(actor=request.auth, cash_list_id=cash_list_id, player_id=player_id)
    return cash_list_out(cash_list_of(cash_list_id))


@router.post("/cash-lists/{cash_list_id}/table", response={201: dict, **ERROR_RESPONSES})
def table_from_list(request, cash_list_id: Id, payload: TableFromListIn):
    """A new table for the list's first players, at drawn seats (§20.3)."""
    roles.require(request.auth, "floor")
    table = cash_table_from_list(
        actor=request.auth,
        cash_list_id=cash_list_id,
        table_number=payload.table,
        min_buy_in=payload.min_buy_in,
        max_buy_in=payload.max_buy_in,
    )
    return Status(201, cash_table_out(table))


@router.get("/players/{player_id}/cash-positions", response={200: list[dict], **ERROR_RESPONSES})
def cash_positions(request, player_id: Id):
    """The player's places on the room's lists."""
    roles.require(request.auth, "read")
    return player_positions(player_id)


class CashRulesIn(BodyIn):
    house_rules: Literal[tuple(CASH_PROFILES)] = "tda2024"
    rules: dict[Line, bounded(0, 100_000) | bool | Line] = Field(
        default_factory=dict, description="The profile's values changed (docs/rules.md §20.7)"
    )


@router.get("/rooms/{room_id}/cash-rules", response={200: dict, **ERROR_RESPONSES})
def get_cash_rules(request, room_id: Id):
    roles.require(request.auth, "read")
    return cash_rules_out(room_of(room_id))


@router.put("/rooms/{room_id}/cash-rules", response={200: dict, **ERROR_RESPONSES})
def set_cash_rules(request, room_id: Id, payload: CashRulesIn):
    """The room's cash house rules: a profile and the values it changes (director)."""
    roles.require(request.auth, "director")
    room = cash_rules_set(
        actor=request.auth, room_id=room_id, house_rules=payload.house_rules, rules=payload.rules
    )
    return cash_rules_out(room)
