"""Championship points and standings across a season's rounds (docs/rules.md §13: Rimóc runs a
championship of rounds but gives no formula, so the house picks one) [INF].

Units: points are integers in hundredths (``POINT_SCALE`` = 100), so shared points stay exact
enough to add up across rounds; show them divided by 100.

Formulas (``Season.points_formula``), for a player finishing ``place`` of ``entries``:

* ``linear``: entries - place + 1 (the last gets 1, the winner ``entries``);
* ``table``: the house's table, ``table[place - 1]`` (0 past its end);
* ``sqrt``: round(10 x sqrt(entries / place)) for the places paid, 0 for the others.

Invariants (tested with hypothesis): points never increase with a worse place, and players
tied for places ``place .. place_to`` share them: each gets the mean of those places' points
(rounded to a hundredth, half up). Standings: the sum of a player's best ``best_of`` rounds
(all when None), one result per player per round (the best, when they re-entered); players
with the same total share the rank, ordered by their best round, then by name.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from tourney.domain.refusal import N_, RuleError

__all__ = [
    "FORMULAS",
    "POINT_SCALE",
    "PointsRule",
    "RoundResult",
    "SeasonError",
    "Standing",
    "place_points",
    "points_for",
    "standings",
    "validate_rule",
]

POINT_SCALE = 100
Formula = Literal["linear", "table", "sqrt"]
FORMULAS: tuple[Formula, ...] = ("linear", "table", "sqrt")
MAX_TABLE = 500


class SeasonError(RuleError):
    """Refused season input; ``code`` for the API, ``template``/``params`` for translation."""


@dataclass(frozen=True)
class PointsRule:
    formula: Formula
    table: tuple[int, ...] = ()
    """Whole points by place (1st first), for the ``table`` formula."""


def validate_rule(rule: PointsRule) -> None:
    """Refuse an unknown formula (``points_formula``), a table formula without a table
    (``points_table_empty``), a table longer than ``MAX_TABLE`` (``points_table_long``), a
    negative entry (``points_negative``) or one above the place before it
    (``points_table_order``: points never increase with a worse place)."""
    if rule.formula not in FORMULAS:
        raise SeasonError("points_formula", N_("The points formula must be linear, table or sqrt."))
    if rule.formula != "table":
        return
    if not rule.table:
        raise SeasonError("points_table_empty", N_("Give the points of at least 1st place."))
    if len(rule.table) > MAX_TABLE:
        raise SeasonError(
            "points_table_long", N_("At most %(max)s places in a points table."), max=MAX_TABLE
        )
    for place, points in enumerate(rule.table, 1):
        if not isinstance(points, int) or isinstance(points, bool) or points < 0:
            raise SeasonError(
                "points_negative",
                N_("Place %(place)s: points must be a whole number, 0 or more."),
                place=place,
            )
        if place > 1 and points > rule.table[place - 2]:
            raise SeasonError(
                "points_table_order",
                N_("Place %(place)s gets more points than place %(better)s."),
                place=place,
                better=place - 1,
            )


def place_points(rule: PointsRule, place: int, entries: int, places_paid: int) -> int:
    """Whole points of one place (not scaled); 0 for a place outside 1..entries."""
    if place < 1 or place > entries:
        return 0
    if rule.formula == "linear":
        return entries - place + 1
    if rule.formula == "table":
        return rule.table[place - 1] if place <= len(rule.table) else 0
    if rule.formula == "sqrt":
        return round(10 * math.sqrt(entries / place)) if place <= places_paid else 0
    raise SeasonError("points_formula", N_("The points formula must be linear, table or sqrt."))


def points_for(rule: PointsRule, place: int, place_to: int, entries: int, places_paid: int) -> int:
    """Points (hundredths) of a player holding places ``place .. place_to``: the mean of those
    places' points, half up."""
    if place < 1 or place_to < place:
        raise ValueError(f"bad place range {place}..{place_to}")
    sharers = place_to - place + 1
    total = sum(place_points(rule, p, entries, places_paid) for p in range(place, place_to + 1))
    return (2 * total * POINT_SCALE + sharers) // (2 * sharers)


@dataclass(frozen=True)
class RoundResult:
    player: Hashable
    round_key: Hashable
    """The round (a tournament)."""
    points: int
    """Hundredths."""


@dataclass(frozen=True)
class Standing:
    rank: int
    player: Hashable
    total: int
    """Hundredths: the sum of the rounds counted."""
    counted: tuple[Hashable, ...]
    """The rounds counted (best first)."""
    rounds: dict
    """Round key -> points of every round played (counted or not)."""


def standings(
    results: Iterable[RoundResult],
    best_of: int | None = None,
    names: dict | None = None,
) -> list[Standing]:
    """Season standings (rules in the module docstring); ``names`` (player -> name) breaks
    ties in the order only."""
    best: dict[Hashable, dict[Hashable, int]] = defaultdict(dict)
    for r in results:
        rounds = best[r.player]
        rounds[r.round_key] = max(rounds.get(r.round_key, r.points), r.points)
    rows = []
    for player, rounds in best.items():
        ordered: Sequence[tuple[Hashable, int]] = sorted(
            rounds.items(), key=lambda kv: (-kv[1], str(kv[0]))
        )
        kept = ordered if best_of is None else ordered[:best_of]
        total = sum(points for _key, points in kept)
        top = ordered[0][1] if ordered else 0
        rows.append((player, total, top, tuple(k for k, _p in kept), dict(rounds)))
    names = names or {}
    rows.sort(key=lambda r: (-r[1], -r[2], str(names.get(r[0], r[0]))))
    out: list[Standing] = []
    for index, (player, total, _top, counted, rounds) in enumerate(rows):
        rank = out[-1].rank if out and out[-1].total == total else index + 1
        out.append(Standing(rank, player, total, counted, rounds))
    return out
