"""API schema of a tournament's settings edit (`PATCH /tournaments/{id}`)."""

from typing import Any, Literal

from ninja import Field

from infra.web.schema_types import (
    ENTRIES_MAX,
    LEVEL_MAX,
    BodyIn,
    Chips,
    Id,
    Instant,
    Line,
    Money,
    PoolMoney,
    Purchases,
    TableNumber,
    bounded,
)
from tourney.system.schemas import GameIn

Cleared = bounded(0, ENTRIES_MAX)  # 0 removes the cap
LevelOrNone = bounded(0, LEVEL_MAX)  # 0 = none


class TournamentPatch(BodyIn):
    """Only the fields sent change. `rules` replaces the whole set of house-rule overrides
    (a rule left out or null follows the profile); `settings_token` (from GET) refuses the
    edit with `edited_meanwhile` when someone changed the settings since."""

    settings_token: Line | None = Field(None, max_length=64)
    name: Line | None = Field(None, min_length=1, max_length=160)
    scheduled_start_ms: Instant | None = Field(None, description="Planned start (epoch ms)")
    clear_scheduled_start: bool = Field(False, description="Remove the planned start")
    max_entries: Cleared | None = Field(None, description="Entry cap; 0 removes it")
    waiting_list: bool | None = None
    late_registration_level: LevelOrNone | None = Field(
        None, description="0 = registration closes at the start"
    )
    clear_late_registration: bool = Field(
        False, description="Remove the late-registration deadline (open while it runs)"
    )
    structure_id: Id | None = None
    payout_structure_id: bounded(0, 2**63 - 1) | None = Field(
        None, description="0 = the default template"
    )
    starting_stack: Chips | None = Field(None, gt=0)
    buy_in: Money | None = None
    fee: Money | None = None
    currency: Line | None = Field(None, min_length=1, max_length=8)
    game: GameIn | None = None
    table_numbers: list[TableNumber] | None = Field(None, max_length=1_000)
    rules: dict[str, Any] | None = None
    rebuy_until_level: LevelOrNone | None = Field(None, description="0 = no rebuys")
    rebuy_max: Purchases | None = None
    rebuy_condition: Literal["at_most_start", "busted"] | None = None
    rebuy_buy_in: Money | None = None
    rebuy_fee: Money | None = None
    rebuy_chips: Chips | None = None
    addon_level: LevelOrNone | None = Field(None, description="0 = no add-on")
    addon_buy_in: Money | None = None
    addon_fee: Money | None = None
    addon_chips: Chips | None = None
    guarantee: PoolMoney | None = None
    bounty: dict[str, Any] | None = Field(
        None,
        description="A bounty tournament {kind, amount, cash_percent} (docs/rules.md §16); "
        "{} makes it one without; until an entry is paid",
    )
    satellite: dict[str, Any] | None = Field(
        None,
        description="A satellite {target_id, seat_value, leftover} (docs/rules.md §17); {} makes "
        "it an ordinary tournament",
    )
