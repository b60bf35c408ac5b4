"""API schemas of blind structures (docs/rules.md §1.2)."""

from typing import Annotated, Literal

from ninja import Field, Schema

from infra.web.schema_types import (
    LEVEL_MAX,
    SECONDS_MAX,
    BodyIn,
    Chips,
    ChipValue,
    Line,
    PeriodIndex,
    Seconds,
    Text,
    Version,
    bounded,
)


class ChipIn(BodyIn):
    value: ChipValue
    color: Line = Field(..., min_length=1, max_length=30)


class LevelIn(BodyIn):
    kind: Literal["level"]
    # Value rules (SB > 0, SB <= BB, durations ...) are checked by validate_structure, which
    # names the row; the schema only refuses what is not a count.
    small_blind: Chips
    big_blind: Chips
    ante: Chips = 0
    duration_seconds: Seconds


class BreakIn(BodyIn):
    kind: Literal["break"]
    duration_seconds: Seconds
    color_up: list[ChipValue] = Field(default_factory=list, max_length=100)


class StructureIn(BodyIn):
    name: Line = Field(..., min_length=1, max_length=120)
    chips: list[ChipIn] = Field(default_factory=list, max_length=100)
    levels: list[Annotated[LevelIn | BreakIn, Field(discriminator="kind")]] = Field(
        ..., min_length=1, max_length=LEVEL_MAX
    )
    starting_stack: ChipValue | None = None
    description: Text = Field("", max_length=10_000)


class PeriodOut(Schema):
    kind: str
    level: int | None
    small_blind: int
    big_blind: int
    ante: int
    duration_seconds: int
    color_up: list[int]


class ColorUpSuggestionOut(Schema):
    position: int = Field(..., description="0-based index of the break in `levels`")
    break_number: int
    color_up: list[int] = Field(..., description="Chip values that can go at this break")


class StructureOut(Schema):
    id: int
    name: str
    description: str
    template: str | None
    chips: list[ChipIn]
    starting_stack: int | None
    levels: list[PeriodOut]
    total_seconds: int
    color_up_suggestion: list[ColorUpSuggestionOut]


class StructureProblemOut(Schema):
    code: str
    detail: str
    row: int | None = Field(None, description="0-based index in `levels`")


class StructureCheckOut(Schema):
    valid: bool
    error: StructureProblemOut | None
    warnings: list[StructureProblemOut]
    total_seconds: int
    level_count: int
    color_up_suggestion: list[ColorUpSuggestionOut]


class ClockAdjustIn(BodyIn):
    seconds: bounded(-SECONDS_MAX, SECONDS_MAX) = Field(
        ..., description="Positive adds time, negative removes it"
    )


class ClockLevelsIn(BodyIn):
    count: bounded(1, 20) = Field(3, description="Levels to add after the structure's last")


class ClockJumpIn(BodyIn):
    period_index: PeriodIndex = Field(
        ..., description="0-based index of the period in the structure"
    )


class ClockUndoIn(BodyIn):
    version: Version | None = Field(
        None,
        description="The clock version right after the change to undo (from its response); "
        "409 undo_stale if the clock has changed since",
    )
