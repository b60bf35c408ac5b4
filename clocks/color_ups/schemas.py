"""API schemas of color-ups and chip races (docs/rules.md §8)."""

from typing import Literal

from ninja import Field, Schema

from infra.web.schema_types import BodyIn, Chips, Line, PeriodIndex, SeatNumber, TableNumber


class ColorUpSeatIn(BodyIn):
    """One seat as the dealer counted it. Race: `odd_chips` (removed chips left after
    changing up every full group, in the break's `unit`, 0 <= odd < k) and `zero_stack`
    (true when those odd chips are all the player has). Round-up: the whole `stack` before
    (chip value), or just its `odd_chips`."""

    seat: SeatNumber
    odd_chips: Chips | None = None
    zero_stack: bool = False
    stack: Chips | None = None


class ColorUpIn(BodyIn):
    table: TableNumber
    method: Literal["round_up", "race"] | None = None
    seats: list[ColorUpSeatIn] = Field(default_factory=list, max_length=12)
    # Race: the real cards dealt, seat -> codes ("As", "Kh", "10d"); omitted = a virtual deal
    # from a server seed (recorded in the audit log).
    cards: dict[Line, list[Line]] | None = Field(None, max_length=12)
    # Race: false = deal and show the cards, confirm with POST .../color-ups/{id}/confirm.
    confirm: bool = True
    # Director only: outside a color-up break (for `period_index`, or the latest / next one).
    override: bool = False
    period_index: PeriodIndex | None = None


class ColorUpFoundIn(BodyIn):
    seat: SeatNumber
    value: Chips = Field(..., gt=0)


class ColorUpSeatOut(Schema):
    seat: int
    entry_id: int | None
    player_name: str | None
    odd_chips: int | None = None
    zero_stack: bool | None = None
    cards_needed: int | None = None
    cards: list[str] = Field(default_factory=list)
    best_card: str | None = None
    rank: int | None = None
    winner: bool | None = None
    zero_stack_chip: bool | None = None
    chips_awarded: int | None = None
    stack_before: int | None = None
    increase: int | None = None
    stack_after: int | None = None


class ColorUpOut(Schema):
    id: int | None
    table: int
    period_index: int
    break_number: int
    method: str
    status: str
    removed: list[int]
    denomination: int
    unit: int
    k: int
    rounding: str | None
    zero_stack_rule: str | None
    total_odd: int | None
    race_chips: int | None
    chips_to_race: int | None
    extra_chips: int | None
    deal_order: list[int]
    decided: bool
    winners: list[int]
    zero_stack_chips: list[int]
    chips_change: int | None
    found: list[dict]
    seats: list[ColorUpSeatOut]
    cards_recorded: bool
    created_at_ms: int | None
    done_at_ms: int | None


class ColorUpFoundOut(ColorUpOut):
    exchanged: int
    removed_value: int


class ColorUpTableOut(Schema):
    table: int
    status: Literal["open", "dealt", "done"]
    color_up_id: int | None
    method: str | None
    chips_change: int


class ColorUpNextOut(Schema):
    period_index: int
    break_number: int
    removed: list[int]


class ColorUpStatusOut(Schema):
    active: bool
    period_index: int | None
    break_number: int | None
    removed: list[int]
    denomination: int | None
    unit: int | None
    k: int | None
    method: str
    next: ColorUpNextOut | None
    tables: list[ColorUpTableOut]
    tables_done: int
    tables_total: int
    all_done: bool
    chips_change: int
    chips_color_up: int
