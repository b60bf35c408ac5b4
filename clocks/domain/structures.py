"""Blind structures as plain data, their validation and the built-in templates."""

from dataclasses import dataclass, field
from typing import Literal

PeriodKind = Literal["level", "break"]


@dataclass(frozen=True)
class Chip:
    value: int
    color: str


@dataclass(frozen=True)
class Period:
    """A level (blinds and ante, in chips) or a break; `duration_seconds` > 0."""

    kind: PeriodKind
    duration_seconds: int
    small_blind: int = 0
    big_blind: int = 0
    ante: int = 0
    color_up: tuple[int, ...] = ()


@dataclass(frozen=True)
class StructureData:
    name: str
    chips: tuple[Chip, ...]
    periods: tuple[Period, ...]
    starting_stack: int | None = None
    description: str = ""
    key: str = ""
    notes: dict[str, str] = field(default_factory=dict)


class StructureError(ValueError):
    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


def validate_structure(data: StructureData) -> None:
    """Raise StructureError unless the structure is playable.

    Invariants: at least one level; positive durations; 0 < SB <= BB on levels; chip values
    positive and distinct; a break colors up only chip values of the set.
    """
    if not data.name.strip():
        raise StructureError("invalid_name", "A structure needs a name.")
    values = [c.value for c in data.chips]
    if any(v <= 0 for v in values) or len(set(values)) != len(values):
        raise StructureError("invalid_chips", "Chip values must be positive and distinct.")
    if not any(p.kind == "level" for p in data.periods):
        raise StructureError("invalid_levels", "A structure needs at least one level.")
    for index, period in enumerate(data.periods, start=1):
        if period.duration_seconds <= 0:
            raise StructureError(
                "invalid_duration", f"Period {index}: the duration must be positive."
            )
        if period.kind == "level":
            if not 0 < period.small_blind <= period.big_blind or period.ante < 0:
                raise StructureError(
                    "invalid_blinds",
                    f"Period {index}: the small blind must be positive and at most the big blind.",
                )
        else:
            unknown = set(period.color_up) - set(values)
            if unknown:
                raise StructureError(
                    "invalid_color_up",
                    f"Period {index}: chips {sorted(unknown)} are not in the chip set.",
                )


def _rimoc() -> StructureData:
    blinds = [
        (100, 200), (200, 400), (300, 600), (400, 800),
        (500, 1_000), (700, 1_500), (1_000, 2_000), (1_500, 3_000),
        (2_000, 4_000), (3_000, 6_000), (4_000, 8_000), (5_000, 10_000),
        (6_000, 12_000), (7_500, 15_000), (10_000, 20_000), (15_000, 30_000),
    ]  # fmt: skip
    # Chip values a break may remove once no later blind needs them (RULES.md 1, [INF]).
    color_up_after_break = {2: (100, 500), 4: (1_000,)}
    periods: list[Period] = []
    for i, (sb, bb) in enumerate(blinds, start=1):
        periods.append(Period("level", 15 * 60, sb, bb, 0))
        if i % 4 == 0:
            periods.append(Period("break", 10 * 60, color_up=color_up_after_break.get(i // 4, ())))
    return StructureData(
        key="rimoc-championship",
        name="Rimóc championship (15-minute levels)",
        description=(
            "003_05a9422fcf9d7902.txt: blinds rise every 15 minutes, a break every four levels, "
            "starting stack 40,000. Break length (10 min) and color-ups are Tourney defaults."
        ),
        chips=(
            Chip(100, "grey"),
            Chip(500, "red"),
            Chip(1_000, "blue"),
            Chip(2_500, "green"),
            Chip(10_000, "black"),
        ),
        periods=tuple(periods),
        starting_stack=40_000,
        notes={"break_minutes": "seed silent; 10 minutes", "ante": "seed has no antes"},
    )


TEMPLATES: dict[str, StructureData] = {s.key: s for s in (_rimoc(),)}


def structure_row(data: StructureData) -> dict[str, object]:
    """Column values of a stored structure (chips ascending by value)."""
    return {
        "name": data.name.strip(),
        "description": data.description,
        "chips": [
            {"value": c.value, "color": c.color} for c in sorted(data.chips, key=lambda c: c.value)
        ],
        "starting_stack": data.starting_stack,
        "template_key": data.key,
    }


def period_rows(data: StructureData) -> list[dict[str, object]]:
    """Column values of each stored period, `position` from 0 in playing order."""
    return [
        {
            "position": i,
            "kind": p.kind,
            "small_blind": p.small_blind,
            "big_blind": p.big_blind,
            "ante": p.ante,
            "duration_seconds": p.duration_seconds,
            "color_up": list(p.color_up),
        }
        for i, p in enumerate(data.periods)
    ]
