"""Schemas of penalties and bans (docs/rules.md §10)."""

from typing import Literal

from ninja import Field, Schema

from infra.web.schema_types import BAN_DAYS_MAX, REASON_MAX, BodyIn, Chips, Hands, Id, Text, bounded
from tables.seating.schemas import ActionOut


class PenaltyIn(BodyIn):
    entry_id: Id
    kind: Literal["warning", "missed_hands", "missed_rounds", "disqualification"]
    rounds: bounded(0, 1_000) | None = Field(
        None, description="Missed rounds (missed_hands with rounds = rounds)"
    )
    hands: Hands | None = Field(None, description="Missed hands; omitted: the house's fixed_hands")
    reason: Text = Field(..., max_length=REASON_MAX)
    chips: Chips | None = Field(
        None, description="Disqualification: the player's chips, removed from play (required)"
    )
    ban: Literal["day", "days", "indefinite", "season"] | None = Field(
        None,
        description="Disqualification: also ban the player for the local day, `ban_days` days, "
        "until lifted, or from this tournament's season",
    )
    ban_days: bounded(0, BAN_DAYS_MAX) | None = None


class BanOut(Schema):
    id: int
    player_id: int
    reason: str
    starts_at_ms: int
    ends_at_ms: int | None
    season_id: int | None
    season_name: str | None
    penalty_id: int | None
    lifted_at_ms: int | None


class PenaltyOut(Schema):
    id: int
    tournament_id: int
    tournament_name: str
    entry_id: int
    player_id: int
    player_name: str
    kind: str
    kind_label: str
    reason: str
    rounds: int | None
    players_at_table: int | None
    hands: int = Field(..., description="Hands to sit out, fixed when given (0 for warning, DQ)")
    table: int | None = Field(..., description="The table it is counted at now")
    seat: int | None
    chips_removed: int
    given_at_ms: int
    given_by: str | None
    served_at_ms: int | None
    undone_at_ms: int | None
    status: Literal["serving", "served", "given", "undone"]
    hands_served: int | None
    hands_left: int | None
    started: bool | None = Field(
        ..., description="False until the hand in play when it was given has been reported"
    )
    table_reports: bool | None = Field(
        ..., description="False: the table reports no hands; hands_left is a time estimate"
    )
    seconds_per_hand: int | None
    ends_at_ms: int | None = Field(..., description="Expected end (estimate)")
    playing: bool
    ban: BanOut | None


class PenaltyResultOut(Schema):
    penalty: PenaltyOut
    actions: list[ActionOut] = Field(..., description="What the floor must do after a DQ")
