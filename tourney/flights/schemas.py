"""API schemas of a festival's flights, chip counts and the Day-2 draw (the API's "Festivals"
routes: their names are a contract other programs rely on)."""

from ninja import Field, Schema

from infra.web.schema_types import BodyIn, ChipValue, Id, Instant, Level, Line, TableNumber


class FlightIn(BodyIn):
    name: Line = Field(..., min_length=1, max_length=160)
    starts_at_ms: Instant | None = Field(None, description="Planned start (epoch ms)")
    room_id: Id | None = None
    table_numbers: list[TableNumber] | None = Field(None, max_length=1_000)
    day_end_level: Level | None = Field(None, description="The day ends after this level")


class FlightOut(Schema):
    id: int
    parent_id: int
    name: str
    status: str
    entries: int
    players_remaining: int
    bagged: int
    starts_at_ms: int | None = None
    day_end_level: int | None = None


class DayEndOut(Schema):
    bagged: int
    chips_bagged: int
    chips_in_play: int
    difference: int = Field(..., description="Chips bagged less chips in play (0: all there)")


class ChipCountIn(BodyIn):
    entry_id: Id
    chips: ChipValue


class ChipCountsIn(BodyIn):
    counts: list[ChipCountIn] = Field(..., min_length=1, max_length=10_000)


class ChipCountsSaved(Schema):
    stored: int


class ChipCountOut(Schema):
    rank: int
    entry_id: int
    player_name: str
    chips: int
    table: int | None = None
    seat: int | None = None
    big_blinds: float | None = None
    flight: str | None = None


class PublicLinkOut(Schema):
    url: str
