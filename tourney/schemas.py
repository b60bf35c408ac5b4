"""API schemas of players, tournaments and entries (the API's names: kept stable)."""

from typing import Any, Literal

from ninja import Field, Schema

from infra.web.schema_types import (
    REASON_MAX,
    Chips,
    Entries,
    Id,
    Instant,
    Level,
    Line,
    Money,
    PoolMoney,
    Purchases,
    SeatNumber,
    TableNumber,
    TableSeats,
    Text,
    bounded,
)


class ErrorOut(Schema):
    code: str
    detail: str


# Every endpoint documents the same refusals: `{code, detail}` with these statuses.
ERROR_RESPONSES = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut}


class LateTimerOut(Schema):
    tournament_id: int
    late_ms: int


class HealthOut(Schema):
    # "down" (answered 503) when the database cannot be reached
    status: Literal["ok", "down"]
    database: Literal["ok", "down"]
    broker: Literal["ok", "absent", "down"]
    # "late": a running clock's stored period ended over 2 s ago and was not advanced;
    # "unknown" while the database is down
    timers: Literal["ok", "late", "unknown"]
    late_timers: list[LateTimerOut]


class TimeOut(Schema):
    server_time_ms: int


class PlayerIn(Schema):
    name: Line = Field(..., min_length=1, max_length=120)
    nickname: Line = Field("", max_length=60)
    email: Line = Field("", max_length=254)
    phone: Line = Field("", max_length=40)


class PlayerDuplicateOut(Schema):
    id: int
    name: str
    reasons: list[Literal["name", "phone", "email"]]


class PlayerOut(Schema):
    id: int
    name: str
    nickname: str
    email: str = Field(..., description="Empty unless the caller may register players")
    phone: str = Field(..., description="Empty unless the caller may register players")
    banned: bool = False
    ban_reason: str | None = None
    possible_duplicates: list[PlayerDuplicateOut] = Field(
        default_factory=list,
        description="On create: players this one likely duplicates (same name, phone, e-mail)",
    )


class BanIn(Schema):
    reason: Text = Field(..., min_length=1, max_length=REASON_MAX)
    ends_at_ms: Instant | None = Field(
        None, description="When the ban ends (in the future); omit or null for indefinite"
    )
    season_id: Id | None = Field(None, description="Only from this season's tournaments")


class TournamentIn(Schema):
    name: Line = Field(..., min_length=1, max_length=160)
    structure_id: Id
    starting_stack: Chips = Field(..., gt=0)
    buy_in: Money
    fee: Money = 0
    room_id: Id | None = None
    house_rules: Line | None = Field(
        None, description="tda2024, mirage, doyle, veszprem, rimoc, atlas"
    )
    seats_per_table: TableSeats | None = None
    final_table_size: TableSeats | None = None
    table_numbers: list[TableNumber] | None = Field(None, max_length=1_000)
    balance_threshold: bounded(1, 9) | None = None
    rules: dict[str, Any] = Field(default_factory=dict, description="Other house-rule overrides")
    waiting_list: bool = True
    max_entries: Entries | None = None
    scheduled_start_ms: Instant | None = Field(None, description="Planned start (epoch ms)")
    currency: Line = Field("HUF", max_length=8)
    late_registration_level: Level | None = Field(
        None,
        ge=1,
        description="Late registration is open through the end of this level (1-based, breaks "
        "not counted); omit for no clock deadline",
    )
    reentry_max: Purchases | None = Field(
        None, description="Re-entries per player (house rule; 0 = none)"
    )
    rebuy_until_level: Level | None = Field(
        None, description="Rebuys through the end of this level; omit for no rebuys"
    )
    rebuy_max: Purchases = Field(0, description="Rebuys per entry; 0 = no limit")
    rebuy_condition: Literal["at_most_start", "busted"] = "at_most_start"
    rebuy_buy_in: Money = Field(0, description="Rebuy price to the prize pool")
    rebuy_fee: Money = 0
    rebuy_chips: Chips = 0
    addon_level: Level | None = Field(
        None, description="Add-on in the break (or level) after this level; omit for none"
    )
    addon_buy_in: Money = 0
    addon_fee: Money = 0
    addon_chips: Chips = 0
    guarantee: PoolMoney = Field(0, description="Guaranteed prize pool; the house pays the overlay")
    payout_structure_id: Id | None = Field(
        None, description="How it pays (GET /payout-structures); omit for the default template"
    )


class TournamentOut(Schema):
    id: int
    name: str
    status: str
    entries: int
    players_remaining: int
    waiting: int
    prize_pool: int
    total_chips: int
    average_stack: int
    capacity: int
    starting_stack: int
    buy_in: int
    fee: int
    currency: str
    room_id: int
    structure_id: int
    house_rules: str
    rules: dict[str, Any]
    seats_drawn: bool
    version: int
    late_registration_level: int | None = None
    display_message: str = ""
    hand_for_hand: bool = False
    h4h_hand: int | None = None
    rebuys: int = 0
    addons: int = 0
    prize_money: int = Field(0, description="Prize part of entries, rebuys, add-ons less refunds")
    overlay: int = Field(0, description="What the house adds to reach the guarantee")
    guarantee: int = 0
    rebuy_until_level: int | None = None
    rebuy_max: int = 0
    rebuy_condition: str = "at_most_start"
    rebuy_buy_in: int = 0
    rebuy_fee: int = 0
    rebuy_chips: int = 0
    addon_level: int | None = None
    addon_buy_in: int = 0
    addon_fee: int = 0
    addon_chips: int = 0
    payout_structure_id: int | None = None
    season_id: int | None = None
    season_round: int | None = None
    scheduled_start_ms: int | None = None
    max_entries: int | None = Field(None, description="Entry cap: players in play at once")
    waiting_list: bool = True
    rules_overrides: dict[str, Any] = Field(
        default_factory=dict, description="The house rules this tournament sets itself"
    )
    table_numbers: list[int] = Field(default_factory=list)
    settings_token: str = Field("", description="Send with PATCH to refuse a concurrent edit")


class EntryIn(Schema):
    player_id: Id
    method: Literal["cash", "card", "other"] = "cash"


class EntryOut(Schema):
    id: int
    player_id: int
    player_name: str
    number: int
    status: str
    table: int | None
    seat: int | None
    waits_for_button: bool = False
    absent: bool = False


class SeatAssignIn(Schema):
    table: TableNumber
    seat: SeatNumber


class MessageIn(Schema):
    message: Text = Field(..., max_length=500, description="Empty clears the message")


class MessageOut(Schema):
    message: str
