"""API schemas of rooms, tables and hands (names fixed by API.md)."""

from ninja import Field, Schema


class TableIn(Schema):
    number: int = Field(..., ge=1)
    seats: int = Field(..., ge=2, le=12)


class RoomIn(Schema):
    name: str = Field(..., min_length=1, max_length=120)
    tables: list[TableIn] = Field(..., min_length=1)


class RestrictionOut(Schema):
    table: int
    seat: int
    kind: str
    note: str


class RoomTableOut(Schema):
    number: int
    seats: int


class RoomOut(Schema):
    id: int
    name: str
    tables: list[RoomTableOut]
    restrictions: list[RestrictionOut]


class RestrictionIn(Schema):
    kind: str = Field(..., pattern="^(blocked|reserved)$")
    note: str = Field("", max_length=200)


class SeatedPlayerOut(Schema):
    seat: int
    entry_id: int
    player_name: str
    waits_for_button: bool = False


class TableOut(Schema):
    number: int
    seats: int
    status: str
    button_seat: int | None
    small_blind_seat: int | None
    big_blind_seat: int | None
    hands_played: int
    button_draw: list[dict]
    restricted_seats: dict[str, str]
    players: list[SeatedPlayerOut]


class DrawOut(Schema):
    tables: list[TableOut]


class HandIn(Schema):
    button_seat: int | None = Field(None, ge=1, le=12)
