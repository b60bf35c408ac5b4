"""Missed-hand penalties (docs/rules.md §10.2, §10.3): how many hands, how many are left, how long
that takes.

Units: hands are dealt hands at the offender's table; a misdeal and its redeal are one hand
(TDA 35-C). Times are seconds. The count is fixed when the penalty is given: players joining
the table later do not lengthen it (docs/rules.md §10.7 example 2).
"""

from __future__ import annotations

import datetime
import itertools
import math
import statistics
from collections.abc import Sequence
from typing import Literal

from tourney.domain.refusal import N_, RuleError

__all__ = [
    "PENALTY_KINDS",
    "PenaltyError",
    "PenaltyKind",
    "hands_elapsed_estimate",
    "observed_seconds_per_hand",
    "penalty_hands",
    "penalty_remaining",
    "penalty_time_estimate",
]

PenaltyKind = Literal["warning", "missed_hands", "missed_rounds"]
"""A warning costs no hands; ``missed_hands`` a number of hands (``fixed_hands`` by default);
``missed_rounds`` rounds of one hand per player at the table, offender included."""

PENALTY_KINDS: tuple[PenaltyKind, ...] = ("warning", "missed_hands", "missed_rounds")


class PenaltyError(RuleError):
    """A refused penalty; ``code`` for the API, ``template``/``params`` for translation,
    ``message`` in English."""


def penalty_hands(
    kind: PenaltyKind,
    players_at_table: int,
    rounds: int | None = None,
    hands: int | None = None,
    fixed_hands: int | None = None,
    rounds_max: int | None = None,
) -> int:
    """Hands the offender sits out (docs/rules.md §10.2; §10.7 examples 1-2).

    ``missed_rounds``: ``rounds`` x ``players_at_table`` (the players seated when the penalty
    is given, the offender included), rounds in 1..``rounds_max`` (None: no limit).
    ``missed_hands``: ``hands``, or the house's ``fixed_hands`` when not given. ``warning``: 0.
    Refused: unknown kind (``unknown_kind``), fewer than one player (``bad_players``), missing
    or non-positive rounds (``bad_rounds``), more rounds than allowed (``too_many_rounds``),
    missing or non-positive hands (``bad_hands``).
    """
    if kind not in PENALTY_KINDS:
        raise PenaltyError("unknown_kind", N_("Unknown penalty %(kind)s."), kind=kind)
    if kind == "warning":
        return 0
    if kind == "missed_hands":
        count = hands if hands is not None else fixed_hands
        if not _positive(count):
            raise PenaltyError(
                "bad_hands", N_("A missed-hands penalty needs a number of hands of at least 1.")
            )
        return count
    if not _positive(players_at_table):
        raise PenaltyError(
            "bad_players",
            N_("A round needs the players at the table, the offender included (at least 1)."),
        )
    if not _positive(rounds):
        raise PenaltyError(
            "bad_rounds", N_("A missed-rounds penalty needs a number of rounds of at least 1.")
        )
    if rounds_max is not None and rounds > rounds_max:
        raise PenaltyError(
            "too_many_rounds",
            N_("At most %(most)s rounds can be given, not %(rounds)s."),
            most=rounds_max,
            rounds=rounds,
        )
    return rounds * players_at_table


def penalty_remaining(total_hands: int, hands_reported_since: int, misdeals_since: int = 0) -> int:
    """Hands still to sit out, from the hand reports since the penalty started (at the end of
    the hand in progress, TDA 68). A misdeal is reported and so is its redeal; together they
    are one hand, so each misdeal takes one report back (§10.7 example 3). Never below 0."""
    if total_hands < 0 or hands_reported_since < 0 or misdeals_since < 0:
        raise PenaltyError("negative", N_("Hand counts cannot be negative."))
    if misdeals_since > hands_reported_since:
        raise PenaltyError(
            "bad_misdeals",
            N_("%(misdeals)s misdeals cannot be more than the %(hands)s hands reported."),
            misdeals=misdeals_since,
            hands=hands_reported_since,
        )
    return max(0, total_hands - (hands_reported_since - misdeals_since))


def penalty_time_estimate(remaining_hands: int, seconds_per_hand: float) -> int:
    """Seconds until the penalty is over at ``seconds_per_hand`` (> 0), rounded up."""
    _check_pace(remaining_hands, seconds_per_hand)
    return math.ceil(remaining_hands * seconds_per_hand)


def hands_elapsed_estimate(elapsed_seconds: float, seconds_per_hand: float) -> int:
    """Hands a table that does not report has probably played in ``elapsed_seconds``: whole
    hands only, so the estimate never ends a penalty early. Feed it to
    :func:`penalty_remaining` in place of the hand reports."""
    _check_pace(elapsed_seconds, seconds_per_hand)
    return math.floor(elapsed_seconds / seconds_per_hand)


def observed_seconds_per_hand(
    report_times: Sequence[float],
    default: float,
    longest_gap: float = 900,
    least_gaps: int = 3,
    bounds: tuple[float, float] = (30, 900),
) -> float:
    """The pace of a table from the times (seconds, any epoch) of its last hand reports: the
    median gap between consecutive reports. Gaps over ``longest_gap`` (a break, a pause) are
    left out; with fewer than ``least_gaps`` gaps left, ``default``. Clamped to ``bounds``."""
    times = sorted(report_times)
    gaps = [b - a for a, b in itertools.pairwise(times) if 0 < b - a <= longest_gap]
    if len(gaps) < least_gaps:
        return default
    low, high = bounds
    return min(high, max(low, statistics.median(gaps)))


def _check_pace(amount: float, seconds_per_hand: float) -> None:
    if amount < 0:
        raise PenaltyError("negative", N_("Hand counts and times cannot be negative."))
    if not seconds_per_hand > 0:
        raise PenaltyError(
            "bad_pace",
            N_("The time per hand must be more than 0 seconds, not %(seconds)s."),
            seconds=seconds_per_hand,
        )


def _positive(value: int | None) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 1


def gaming_day_ban_end(
    now: datetime.datetime, day_starts: datetime.time, days: int
) -> datetime.datetime:
    """When a ban for `days` gaming days (>= 1), given at `now` (local wall time, naive),
    ends: at the room's day boundary `day_starts` (e.g. 06:00), `days` boundaries on, counting
    the gaming day in play: at 23:30 or at 02:00 a day's ban ends at the next 06:00 (docs/rules.md
    §10.5). A boundary at midnight is the calendar day."""
    if days < 1:
        raise ValueError("a ban lasts at least one gaming day")
    boundary = datetime.datetime.combine(now.date(), day_starts)
    started = boundary if now >= boundary else boundary - datetime.timedelta(days=1)
    return started + datetime.timedelta(days=days)
