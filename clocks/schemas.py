"""API schemas of blind structures (API.md "Blind structures")."""

from typing import Annotated, Literal

from ninja import Field, Schema


class ChipIn(Schema):
    value: int = Field(..., gt=0)
    color: str = Field(..., min_length=1, max_length=30)


class LevelIn(Schema):
    kind: Literal["level"]
    # Value rules (SB > 0, SB <= BB, durations ...) are checked by validate_structure, which
    # names the row; the schema only refuses what is not a count.
    small_blind: int = Field(..., ge=0)
    big_blind: int = Field(..., ge=0)
    ante: int = Field(0, ge=0)
    duration_seconds: int = Field(..., ge=0)


class BreakIn(Schema):
    kind: Literal["break"]
    duration_seconds: int = Field(..., ge=0)
    color_up: list[int] = Field(default_factory=list)


class StructureIn(Schema):
    name: str = Field(..., min_length=1, max_length=120)
    chips: list[ChipIn] = Field(default_factory=list)
    levels: list[Annotated[LevelIn | BreakIn, Field(discriminator="kind")]] = Field(
        ..., min_length=1
    )
    starting_stack: int | None = Field(None, gt=0)
    description: str = ""


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


class ClockAdjustIn(Schema):
    seconds: int = Field(..., description="Positive adds time, negative removes it")


class ClockJumpIn(Schema):
    period_index: int = Field(..., description="0-based index of the period in the structure")


class ClockUndoIn(Schema):
    version: int | None = Field(
        None,
        description="The clock version right after the change to undo (from its response); "
        "409 undo_stale if the clock has changed since",
    )
