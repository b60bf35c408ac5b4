"""API schemas of players, tournaments and entries (names fixed by API.md)."""

from typing import Any, Literal

from ninja import Field, Schema


class ErrorOut(Schema):
    code: str
    detail: str


# Every endpoint documents the same refusals: `{code, detail}` with these statuses (API.md).
ERROR_RESPONSES = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut}


class HealthOut(Schema):
    status: str
    database: str
    broker: Literal["ok", "absent", "down"]


class TimeOut(Schema):
    server_time_ms: int


class PlayerIn(Schema):
    name: str = Field(..., min_length=1, max_length=120)
    nickname: str = Field("", max_length=60)
    email: str = Field("", max_length=254)
    phone: str = Field("", max_length=40)


class PlayerOut(Schema):
    id: int
    name: str
    nickname: str
    email: str
    phone: str
    banned: bool = False
    ban_reason: str | None = None


class BanIn(Schema):
    reason: str = Field(..., min_length=1, max_length=300)
    ends_at_ms: int | None = Field(None, description="When the ban ends; omit for indefinite")
    season_id: int | None = Field(None, description="Only from this season's tournaments")


class BanOut(Schema):
    id: int
    player_id: int
    reason: str
    starts_at_ms: int
    ends_at_ms: int | None


class TournamentIn(Schema):
    name: str = Field(..., min_length=1, max_length=160)
    structure_id: int
    starting_stack: int = Field(..., gt=0)
    buy_in: int = Field(..., ge=0)
    fee: int = Field(0, ge=0)
    room_id: int | None = None
    house_rules: str | None = Field(
        None, description="tda2024, mirage, doyle, veszprem, rimoc, atlas"
    )
    seats_per_table: int | None = Field(None, ge=2, le=12)
    final_table_size: int | None = Field(None, ge=2, le=12)
    table_numbers: list[int] | None = None
    balance_threshold: int | None = Field(None, ge=1, le=9)
    rules: dict[str, Any] = Field(default_factory=dict, description="Other house-rule overrides")
    waiting_list: bool = True
    max_entries: int | None = Field(None, gt=0)
    currency: str = Field("HUF", max_length=8)
    late_registration_level: int | None = Field(
        None,
        ge=1,
        description="Late registration is open through the end of this level (1-based, breaks "
        "not counted); omit for no clock deadline",
    )
    reentry_max: int | None = Field(
        None, ge=0, description="Re-entries per player (house rule; 0 = none)"
    )
    rebuy_until_level: int | None = Field(
        None, ge=1, description="Rebuys through the end of this level; omit for no rebuys"
    )
    rebuy_max: int = Field(0, ge=0, description="Rebuys per entry; 0 = no limit")
    rebuy_condition: Literal["at_most_start", "busted"] = "at_most_start"
    rebuy_buy_in: int = Field(0, ge=0, description="Rebuy price to the prize pool")
    rebuy_fee: int = Field(0, ge=0)
    rebuy_chips: int = Field(0, ge=0)
    addon_level: int | None = Field(
        None, ge=1, description="Add-on in the break (or level) after this level; omit for none"
    )
    addon_buy_in: int = Field(0, ge=0)
    addon_fee: int = Field(0, ge=0)
    addon_chips: int = Field(0, ge=0)
    guarantee: int = Field(0, ge=0, description="Guaranteed prize pool; the house pays the overlay")
    payout_structure_id: int | None = Field(
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


class EntryIn(Schema):
    player_id: int
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
    table: int
    seat: int = Field(..., ge=1, le=12)


class MessageIn(Schema):
    message: str = Field(..., max_length=500, description="Empty clears the message")


class MessageOut(Schema):
    message: str
