"""API schemas of blind structures (API.md "Blind structures")."""

from typing import Annotated, Literal

from ninja import Field, Schema


class ChipIn(Schema):
    value: int = Field(..., gt=0)
    color: str = Field(..., min_length=1, max_length=30)


class LevelIn(Schema):
    kind: Literal["level"]
    small_blind: int = Field(..., gt=0)
    big_blind: int = Field(..., gt=0)
    ante: int = Field(0, ge=0)
    duration_seconds: int = Field(..., gt=0, le=6 * 3600)


class BreakIn(Schema):
    kind: Literal["break"]
    duration_seconds: int = Field(..., gt=0, le=6 * 3600)
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


class StructureOut(Schema):
    id: int
    name: str
    description: str
    template: str | None
    chips: list[ChipIn]
    starting_stack: int | None
    levels: list[PeriodOut]
    total_seconds: int


class ClockAdjustIn(Schema):
    seconds: int = Field(..., description="Positive adds time, negative removes it")
