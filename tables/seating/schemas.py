"""API schemas of rooms, tables and hands (the API's names: kept stable)."""

from ninja import Field, Schema

from infra.web.schema_types import (
    ELIMINATIONS_MAX,
    BodyIn,
    Chips,
    Id,
    Line,
    SeatNumber,
    TableNumber,
    Text,
    bounded,
)


class TableIn(BodyIn):
    number: TableNumber
    seats: bounded(2, 12)


class RoomIn(BodyIn):
    name: Line = Field(..., min_length=1, max_length=120)
    tables: list[TableIn] = Field(..., min_length=1, max_length=1_000)


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
    gaming_day_starts: str = Field(..., description="Local time the gaming day starts, HH:MM")
    operator_name: str
    operator_address: str
    operator_tax_number: str


class RoomPatch(BodyIn):
    """Only the fields sent change: the gaming day's start (a day's ban ends there) and who runs
    the room (printed on receipts and results)."""

    gaming_day_starts: str | None = Field(
        None, pattern=r"^([01][0-9]|2[0-3]):[0-5][0-9]$", description="HH:MM, local time"
    )
    operator_name: Line | None = Field(None, max_length=200)
    operator_address: Line | None = Field(None, max_length=300)
    operator_tax_number: Line | None = Field(None, max_length=40)


class RestrictionIn(BodyIn):
    kind: str = Field(..., pattern="^(blocked|reserved)$")
    note: Text = Field("", max_length=200)


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


class HandIn(BodyIn):
    button_seat: SeatNumber | None = None
    misdeal: bool = Field(
        False, description="A misdeal: the button stays; with its redeal it is one hand"
    )


class EliminationIn(BodyIn):
    entry_id: Id
    hand_start_stack: Chips | None = Field(None, ge=1)
    busted_by: list[Id] = Field(
        default_factory=list,
        max_length=10,
        description="A bounty tournament: the pot's winners (several when it was split), the "
        "first seat left of the button first",
    )


class EliminationsIn(BodyIn):
    eliminations: list[EliminationIn] = Field(..., min_length=1, max_length=ELIMINATIONS_MAX)


class BountyPaidOut(Schema):
    entry_id: int = Field(..., description="The winner")
    amount: int = Field(..., description="Paid to him in cash")
    to_head: int = Field(0, description="A progressive bounty's part onto his own head")


class PlaceOut(Schema):
    entry_id: int
    player_name: str = ""
    place: int
    place_to: int
    table: int | None = None
    seat: int | None = None
    hand_start_stack: int | None = None
    bounties: list[BountyPaidOut] = []


class ActionOut(Schema):
    id: int
    kind: str
    status: str
    parent_id: int | None
    entry_id: int | None
    player_name: str | None
    from_table: int | None
    from_seat: int | None
    to_table: int | None
    to_seat: int | None
    card: str | None = None
    sits_out: bool = False
    wait_hands: int | None = None
    button_seat: int | None = None
    created_at_ms: int | None
    done_at_ms: int | None
    moves: list["ActionOut"] = []


class EliminationsOut(Schema):
    results: list[PlaceOut]
    actions: list[ActionOut]


class EliminationUndoOut(Schema):
    entry: dict
    reverted_actions: list[ActionOut]
    actions: list[ActionOut]


class ActionDoneIn(BodyIn):
    entry_id: Id | None = None


class ActionResultOut(Schema):
    action: ActionOut
    actions: list[ActionOut]


class HandForHandIn(BodyIn):
    active: bool


class HandForHandOut(Schema):
    active: bool
    hand: int | None
    tables_done: list[int]
    tables_playing: list[int]
    seconds_per_hand: int


class ClockCallIn(BodyIn):
    seat: SeatNumber
    elapsed_seconds: bounded(0, 3600) | None = None
    caller_seat: SeatNumber | None = Field(
        None, description="The player who asked, present at the table (Veszprém 002:240)"
    )


class ClockCallEndIn(BodyIn):
    outcome: str = Field(..., pattern="^(acted|expired|cancelled)$")


class ClockCallOut(Schema):
    id: int
    table: int
    seat: int
    caller_seat: int | None = None
    entry_id: int | None
    player_name: str | None
    seconds: int
    countdown_seconds: int
    called_at_ms: int
    countdown_from_ms: int
    ends_at_ms: int
    final_table: bool
    phase: str
    remaining_ms: int
    outcome: str | None
    at_expiry: dict
    at_expiry_text: str
