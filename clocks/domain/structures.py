"""Blind structures as plain data, their validation and the built-in templates."""

from collections.abc import Sequence
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
    """A refused structure. `message` is an English %-template over `params` (the service
    translates it; a list parameter is shown comma-separated); `row` is the 0-based index of
    the offending period, when there is one."""

    def __init__(
        self,
        code: str,
        message: str,
        params: dict[str, object] | None = None,
        row: int | None = None,
    ):
        self.code = code
        self.template = message
        self.params = dict(params or {})
        self.row = row
        super().__init__(message % self.params if self.params else message)


# Sanity bounds: a period of at most six hours, at most 200 periods, at most 30 chips.
MAX_PERIOD_SECONDS = 6 * 3600
MAX_PERIODS = 200
MAX_CHIPS = 30


def _row_params(periods: tuple[Period, ...], index: int) -> dict[str, object]:
    """`row` is 1-based as the editor shows it; `level` the blind-level number (0 on a break)."""
    level = sum(1 for p in periods[: index + 1] if p.kind == "level")
    return {"row": index + 1, "level": level if periods[index].kind == "level" else 0}


def validate_structure(data: StructureData) -> None:
    """Raise StructureError unless the structure is playable.

    Invariants: a name; chip values positive and distinct; 1..MAX_PERIODS periods with at least
    one level; every duration in 1..MAX_PERIOD_SECONDS seconds; on levels 0 < SB <= BB and
    0 <= ante <= BB; blinds never go down from one level to the next (neither SB nor BB); a
    break colors up only chip values of the set, each value at most once in the structure, and
    never the last chip in play; a positive starting stack when one is given.
    """
    if not data.name.strip():
        raise StructureError("invalid_name", "A structure needs a name.")
    values = [c.value for c in data.chips]
    if any(v <= 0 for v in values) or len(set(values)) != len(values):
        raise StructureError("invalid_chips", "Chip values must be positive and distinct.")
    if len(values) > MAX_CHIPS:
        raise StructureError("invalid_chips", "At most %(max)s chips.", {"max": MAX_CHIPS})
    if data.starting_stack is not None and data.starting_stack <= 0:
        raise StructureError("invalid_starting_stack", "The starting stack must be positive.")
    periods = data.periods
    if not any(p.kind == "level" for p in periods):
        raise StructureError("invalid_levels", "A structure needs at least one level.")
    if len(periods) > MAX_PERIODS:
        raise StructureError(
            "invalid_levels", "At most %(max)s levels and breaks.", {"max": MAX_PERIODS}
        )
    previous: Period | None = None
    colored_up: set[int] = set()
    for index, period in enumerate(periods):
        where = _row_params(periods, index)
        if not 0 < period.duration_seconds <= MAX_PERIOD_SECONDS:
            raise StructureError(
                "invalid_duration",
                "Row %(row)s: the duration must be more than 0 and at most 6 hours.",
                where,
                index,
            )
        if period.kind == "level":
            _check_level(period, previous, where, index)
            previous = period
            continue
        unknown = sorted(set(period.color_up) - set(values))
        if unknown:
            raise StructureError(
                "invalid_color_up",
                "Row %(row)s: chips %(chips)s are not in the chip set.",
                {**where, "chips": unknown},
                index,
            )
        again = sorted(set(period.color_up) & colored_up)
        if again or len(set(period.color_up)) != len(period.color_up):
            raise StructureError(
                "invalid_color_up",
                "Row %(row)s: chips %(chips)s are already colored up at an earlier break.",
                {**where, "chips": again or sorted(period.color_up)},
                index,
            )
        colored_up |= set(period.color_up)
        if values and colored_up >= set(values):
            raise StructureError(
                "invalid_color_up",
                "Row %(row)s: this break would color up every chip; keep at least one.",
                where,
                index,
            )


def _check_level(
    period: Period, previous: Period | None, where: dict[str, object], index: int
) -> None:
    if period.small_blind <= 0:
        raise StructureError(
            "invalid_blinds", "Row %(row)s: the small blind must be more than 0.", where, index
        )
    if period.big_blind < period.small_blind:
        raise StructureError(
            "invalid_blinds",
            "Row %(row)s: the big blind must be at least the small blind.",
            where,
            index,
        )
    if not 0 <= period.ante <= period.big_blind:
        raise StructureError(
            "invalid_ante",
            "Row %(row)s: the ante must be between 0 and the big blind.",
            where,
            index,
        )
    if previous is not None and (
        period.small_blind < previous.small_blind or period.big_blind < previous.big_blind
    ):
        raise StructureError(
            "blinds_decrease",
            "Row %(row)s: the blinds must not go down from one level to the next.",
            where,
            index,
        )


def level_played(periods: Sequence[Period], index: int) -> int:
    """The level being played at period `index`: a break counts as the level before it, 0
    before the first level."""
    return sum(1 for p in periods[: index + 1] if p.kind == "level")


def total_seconds(periods: tuple[Period, ...] | list[Period]) -> int:
    """Playing time of the whole structure, breaks included, in seconds."""
    return sum(p.duration_seconds for p in periods)


def unchanged_through(old: tuple[Period, ...], new: tuple[Period, ...], index: int) -> bool:
    """True when periods 0..`index` (inclusive) are the same in `old` and `new` (the color-up
    order within a break does not matter)."""

    def key(p: Period) -> tuple:
        return (p.kind, p.duration_seconds, p.small_blind, p.big_blind, p.ante, sorted(p.color_up))

    return [key(p) for p in old[: index + 1]] == [key(p) for p in new[: index + 1]]


def structure_payload(data: StructureData) -> dict[str, object]:
    """The structure in the `POST /api/v1/structures` format (export and import),
    plus the optional `starting_stack` and `description` that POST also accepts."""
    levels: list[dict[str, object]] = []
    for p in data.periods:
        if p.kind == "level":
            levels.append(
                {
                    "kind": "level",
                    "small_blind": p.small_blind,
                    "big_blind": p.big_blind,
                    "ante": p.ante,
                    "duration_seconds": p.duration_seconds,
                }
            )
        else:
            levels.append(
                {
                    "kind": "break",
                    "duration_seconds": p.duration_seconds,
                    "color_up": sorted(p.color_up),
                }
            )
    payload: dict[str, object] = {
        "name": data.name,
        "chips": [
            {"value": c.value, "color": c.color} for c in sorted(data.chips, key=lambda c: c.value)
        ],
        "levels": levels,
    }
    if data.starting_stack is not None:
        payload["starting_stack"] = data.starting_stack
    if data.description:
        payload["description"] = data.description
    return payload


# Stored in English; the structure pages show it translated (clocks/structures/views.py).
RIMOC_DESCRIPTION = (
    "The Rimóc Youth Association's championship: blinds rise every 15 minutes, a break every "
    "four levels, starting stack 40,000. Break length (10 min) and color-ups are Tourney defaults."
)


def _rimoc() -> StructureData:
    blinds = [
        (100, 200), (200, 400), (300, 600), (400, 800),
        (500, 1_000), (700, 1_500), (1_000, 2_000), (1_500, 3_000),
        (2_000, 4_000), (3_000, 6_000), (4_000, 8_000), (5_000, 10_000),
        (6_000, 12_000), (7_500, 15_000), (10_000, 20_000), (15_000, 30_000),
    ]  # fmt: skip
    # Chip values a break may remove once no later blind needs them (docs/rules.md §1.6, [INF]).
    color_up_after_break = {2: (100, 500), 4: (1_000,)}
    periods: list[Period] = []
    for i, (sb, bb) in enumerate(blinds, start=1):
        periods.append(Period("level", 15 * 60, sb, bb, 0))
        if i % 4 == 0:
            periods.append(Period("break", 10 * 60, color_up=color_up_after_break.get(i // 4, ())))
    return StructureData(
        key="rimoc-championship",
        name="Rimóc championship (15-minute levels)",
        description=RIMOC_DESCRIPTION,
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


@dataclass(frozen=True)
class HouseDifference:
    """One way a structure departs from the house's usual one (docs/rules.md §1.7): `what`
    is "level_minutes", "break_every" or "break_minutes"; `house` the house's value,
    `structure` the structure's (its first differing one)."""

    what: str
    house: int
    structure: int


def house_differences(
    periods: Sequence[Period], level_minutes: int, break_every: int, break_minutes: int
) -> list[HouseDifference]:
    """How `periods` depart from the house's usual structure: its level length (minutes),
    a break after every `break_every` levels, of `break_minutes`. Empty when they match; the
    clock plays the structure either way (the settings page says so to the director)."""
    out: list[HouseDifference] = []
    levels = [p.duration_seconds // 60 for p in periods if p.kind == "level"]
    other = next((m for m in levels if m != level_minutes), None)
    if other is not None:
        out.append(HouseDifference("level_minutes", level_minutes, other))
    runs, run = [], 0
    for period in periods:
        if period.kind == "level":
            run += 1
        else:
            runs.append(run)
            run = 0
    other = next((r for r in runs if r != break_every), None)
    if other is not None:
        out.append(HouseDifference("break_every", break_every, other))
    breaks = [p.duration_seconds // 60 for p in periods if p.kind == "break"]
    other = next((m for m in breaks if m != break_minutes), None)
    if other is not None:
        out.append(HouseDifference("break_minutes", break_minutes, other))
    return out
