"""Calling the clock on a player who is taking too long (docs/rules.md §9).

Once called, the player has ``seconds`` (``final_table_seconds`` at the final table) to act,
followed by a closing countdown of ``countdown_seconds`` (Doyle #23: "30 s, then a 10-s
countdown"; TDA 29: 25 s + 5-s countdown). The call expires after both. Acting at exactly the
end is still in time (docs/rules.md §9.5 example 3: ties go to the player), so a call is
expired only strictly after ``ends_at_ms``. At expiry a player facing a bet has a dead hand
(fold); otherwise the house rule ``expiry_no_bet`` decides (check or fold).

Times are epoch milliseconds, durations seconds, passed in by the caller. Pure Python.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tourney.domain.refusal import N_, RuleError

__all__ = [
    "CLOCK_CALL_TOO_EARLY",
    "ClockCallError",
    "ClockCallPhase",
    "ClockCallRules",
    "ClockCallStatus",
    "ClockCallTimes",
    "ExpiryNoBet",
    "acted_in_time",
    "clock_call_start",
    "clock_call_status",
    "expiry_outcome",
]

ExpiryNoBet = Literal["check", "fold"]
ClockCallPhase = Literal["running", "countdown", "expired"]

MS_PER_SECOND = 1_000

CLOCK_CALL_TOO_EARLY = "clock_call_too_early"


class ClockCallError(RuleError):
    """A refused clock call. ``code`` is the API error code; ``message`` is the English
    %-template (marked with ``N_``) over ``params``, which the service translates;
    ``str(error)`` is the filled-in English text."""

    def __init__(self, code: str, message: str, params: dict[str, object] | None = None):
        super().__init__(code, message, **(params or {}))
        self.message = message


@dataclass(frozen=True, slots=True)
class ClockCallRules:
    """The house's clock-call parameters (house rules, section 9)."""

    min_elapsed_seconds: int
    """Seconds the player must have taken before a call (>= 0; 0 = floor's judgement)."""
    seconds: int
    """Time to act once called (>= 1)."""
    final_table_seconds: int
    """Time to act once called at the final table (>= 1)."""
    countdown_seconds: int
    """Closing countdown after the time to act (>= 0; 0 = none)."""
    expiry_no_bet: ExpiryNoBet
    """Outcome at expiry when the player is not facing a bet."""

    def __post_init__(self) -> None:
        if self.min_elapsed_seconds < 0:
            raise ValueError(f"min_elapsed_seconds must be >= 0, got {self.min_elapsed_seconds}")
        if self.seconds < 1 or self.final_table_seconds < 1:
            raise ValueError(
                "seconds and final_table_seconds must be >= 1, got "
                f"{self.seconds} and {self.final_table_seconds}"
            )
        if self.countdown_seconds < 0:
            raise ValueError(f"countdown_seconds must be >= 0, got {self.countdown_seconds}")
        if self.expiry_no_bet not in ("check", "fold"):
            raise ValueError(f"expiry_no_bet must be 'check' or 'fold', got {self.expiry_no_bet!r}")


@dataclass(frozen=True, slots=True)
class ClockCallTimes:
    """One running clock call. Invariant: ``countdown_from_ms + countdown_seconds * 1000 ==
    ends_at_ms``; the call was made at ``ends_at_ms - (seconds + countdown_seconds) * 1000``."""

    seconds: int
    """Time to act before the countdown, seconds."""
    countdown_seconds: int
    """The closing countdown, after ``seconds``; 0 = none."""
    ends_at_ms: int
    """When the call expires (acting at exactly this instant is still in time)."""
    countdown_from_ms: int
    """When the countdown starts (== ``ends_at_ms - countdown_seconds * 1000``)."""

    @property
    def called_at_ms(self) -> int:
        return self.ends_at_ms - (self.seconds + self.countdown_seconds) * MS_PER_SECOND

    @property
    def total_ms(self) -> int:
        """The whole time the player is given, countdown included."""
        return (self.seconds + self.countdown_seconds) * MS_PER_SECOND


@dataclass(frozen=True, slots=True)
class ClockCallStatus:
    phase: ClockCallPhase
    remaining_ms: int
    """Milliseconds until expiry (countdown included), >= 0; 0 once expired."""


def clock_call_start(
    rules: ClockCallRules,
    *,
    called_at_ms: int,
    final_table: bool,
    elapsed_seconds: int | None = None,
) -> ClockCallTimes:
    """Start a clock call at ``called_at_ms``.

    ``elapsed_seconds`` is how long the player has already taken, when known; below
    ``rules.min_elapsed_seconds`` the call is refused with :class:`ClockCallError`
    (``clock_call_too_early``). None skips the check (the floor's judgement).
    """
    if elapsed_seconds is not None:
        if elapsed_seconds < 0:
            raise ValueError(f"elapsed_seconds must be >= 0, got {elapsed_seconds}")
        if elapsed_seconds < rules.min_elapsed_seconds:
            raise ClockCallError(
                CLOCK_CALL_TOO_EARLY,
                N_(
                    "The clock can be called only after the player has taken "
                    "%(minimum)d seconds (%(elapsed)d so far)."
                ),
                {"minimum": rules.min_elapsed_seconds, "elapsed": elapsed_seconds},
            )
    seconds = rules.final_table_seconds if final_table else rules.seconds
    countdown_from_ms = called_at_ms + seconds * MS_PER_SECOND
    return ClockCallTimes(
        seconds=seconds,
        countdown_seconds=rules.countdown_seconds,
        ends_at_ms=countdown_from_ms + rules.countdown_seconds * MS_PER_SECOND,
        countdown_from_ms=countdown_from_ms,
    )


def clock_call_status(times: ClockCallTimes, now_ms: int) -> ClockCallStatus:
    """Where the call stands at ``now_ms``.

    ``expired`` only strictly after ``ends_at_ms``; ``countdown`` from ``countdown_from_ms``
    up to and including ``ends_at_ms`` (never when there is no countdown); ``running``
    before. ``remaining_ms`` never exceeds the whole time given (a ``now_ms`` before the
    call, e.g. a skewed clock, shows the full time).
    """
    if now_ms > times.ends_at_ms:
        return ClockCallStatus("expired", 0)
    remaining_ms = min(times.ends_at_ms - now_ms, times.total_ms)
    if times.countdown_seconds > 0 and now_ms >= times.countdown_from_ms:
        return ClockCallStatus("countdown", remaining_ms)
    return ClockCallStatus("running", remaining_ms)


def acted_in_time(times: ClockCallTimes, acted_at_ms: int) -> bool:
    """True if an action at ``acted_at_ms`` beats the clock (the end instant included)."""
    return acted_at_ms <= times.ends_at_ms


def expiry_outcome(rules: ClockCallRules, facing_bet: bool) -> Literal["fold", "check"]:
    """What happens at expiry: facing a bet the hand is dead (fold), otherwise the house
    rule ``expiry_no_bet``."""
    return "fold" if facing_bet else rules.expiry_no_bet
