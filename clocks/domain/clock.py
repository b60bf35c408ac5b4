"""The blind clock as a pure state machine (docs/rules.md §1.4).

Units: every instant is Unix epoch **milliseconds** (`*_at_ms`, `now_ms`: int); every
duration inside this module is milliseconds (`*_ms`); seconds appear only at the edges
(`Period.duration_seconds`, the `seconds` of `adjust`). Nothing here reads the wall clock:
the caller passes `now_ms`, which must not go backwards for one clock.

Stored state (`ClockState`) and its invariants, checked on construction:

- ``pending``: the tournament has not started; `period_index` is the period it starts at (0,
  or a Day 2's level: `pending_at`); `period_ends_at_ms` is None; `paused_remaining_ms` is
  None (that period will run its full duration) or the adjusted time it will run once started.
- ``running``: `period_ends_at_ms` is the instant the current period ends;
  `paused_remaining_ms` is None.
- ``paused``: `paused_remaining_ms` (>= 0) is the time left in the current period;
  `period_ends_at_ms` is None.
- ``overtime``: the structure has run out: its last period ended at `period_ends_at_ms` and
  play goes on at it (docs/rules.md §1.4); `paused_remaining_ms` is None. No timer acts on it;
  a level added to the structure is reached with `next_period`.
- ``finished``: the tournament is over (`stop`: its winner is known); `period_index` is the
  period it finished in; both time fields are None.
- `version` counts state changes: every successful transition returns a state with a greater
  version (exactly +1 when the state was caught up, see below), and `advance` adds one per
  step. The service stores the state with a compare-and-set on `version`.

The current period is a pure function of the stored state and `now_ms`: a running clock whose
`period_ends_at_ms` has passed is *effectively* in a later period even before `advance` has
stored that ("a clock whose timer is late is never wrong, only late to announce"). `view`
shows the effective period, and every transition first catches up exactly as `advance` would
(adding its version steps), so it acts on the period the room is really playing. A service
that records period-change events should call `advance` first and store its changes; the
transition then bumps the version by exactly one.

No drift: when a period ends, the next one ends at the *scheduled* end plus its duration,
never at `now_ms` plus its duration, however late `advance` runs.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from clocks.domain.structures import Period
from tourney.domain.refusal import N_, RuleError

ClockStatus = Literal["pending", "running", "paused", "overtime", "finished"]
STATUSES: tuple[ClockStatus, ...] = ("pending", "running", "paused", "overtime", "finished")
# Play goes on: a period is being played, its end stored.
PLAYED = ("running", "overtime")

MS_PER_SECOND = 1_000
# Sanity bound on the time left in one period after an adjustment (also keeps the stored value
# far inside a 32-bit integer column).
MAX_REMAINING_MS = 24 * 60 * 60 * MS_PER_SECOND


class ClockError(RuleError):
    """A refused clock operation; `code` is the API error code (`{"code", "detail"}`)."""


@dataclass(frozen=True)
class ClockState:
    """The stored clock of one tournament (see the module docstring for the invariants)."""

    status: ClockStatus = "pending"
    period_index: int = 0
    period_ends_at_ms: int | None = None
    paused_remaining_ms: int | None = None
    version: int = 0

    def __post_init__(self) -> None:
        problem = _shape_problem(self)
        if problem:
            raise ClockError(
                "invalid_clock_state", N_("Invalid clock state: %(problem)s."), problem=problem
            )


def _shape_problem(s: ClockState) -> str | None:
    if s.status not in STATUSES:
        return f"unknown status {s.status!r}"
    if not _is_int(s.period_index) or s.period_index < 0:
        return "the period index must be a non-negative integer"
    if not _is_int(s.version) or s.version < 0:
        return "the version must be a non-negative integer"
    if s.period_ends_at_ms is not None and not _is_int(s.period_ends_at_ms):
        return "the period end must be integer milliseconds"
    if s.paused_remaining_ms is not None and (
        not _is_int(s.paused_remaining_ms) or s.paused_remaining_ms < 0
    ):
        return "the remaining time must be non-negative integer milliseconds"
    if (s.period_ends_at_ms is not None) != (s.status in PLAYED):
        return "a period end is set exactly while running or in overtime"
    if s.paused_remaining_ms is None and s.status == "paused":
        return "a paused clock needs its remaining time"
    if s.paused_remaining_ms is not None and s.status in ("running", "overtime", "finished"):
        return f"a {s.status} clock has no paused remaining time"
    return None


@dataclass(frozen=True)
class PeriodChange:
    """The clock entered `period_index` at `scheduled_at_ms` (the scheduled instant, not the
    moment `advance` noticed); `version` is the state's version right after this change."""

    period_index: int
    scheduled_at_ms: int
    version: int


@dataclass(frozen=True)
class AdvanceResult:
    """`state` after catching up to `now_ms`, the periods entered on the way (consecutive
    indices, in order), and `overtime_at_ms`, the scheduled end of the last period if this
    advance ran the structure out (the clock went into overtime)."""

    state: ClockState
    changes: tuple[PeriodChange, ...] = ()
    overtime_at_ms: int | None = None

    @property
    def changed(self) -> bool:
        return bool(self.changes) or self.overtime_at_ms is not None


@dataclass(frozen=True)
class ClockView:
    """What `GET .../clock` shows at `server_time_ms`, for the *effective* state.

    `remaining_ms`: time left in the current period (0 when finished); for pending and paused
    clocks it is frozen. `ends_at_ms`: only while running. `level_number`: 1-based number of
    the blind level, breaks not counted (None on a break). `elapsed_ms`: structure time played,
    i.e. the durations of the periods before the current one plus the part of the current one
    used up (`duration - remaining`, never negative; time added by `adjust` is not counted and
    pauses are not counted). `time_to_next_break_ms`: clock time (pauses excluded) until a
    later break starts, None without one. `planned_end_ms`: see `planned_end_ms()`.
    `version`: the stored state's version (not the caught-up one). `overtime_ms`: in overtime,
    the time played at the last level since the structure ran out (else None).
    """

    status: ClockStatus
    period_index: int
    period: Period
    level_number: int | None
    remaining_ms: int
    ends_at_ms: int | None
    next_period_index: int | None
    next_period: Period | None
    next_level_number: int | None
    elapsed_ms: int
    time_to_next_break_ms: int | None
    planned_end_ms: int | None
    server_time_ms: int
    version: int
    overtime_ms: int | None = None

    def as_dict(self) -> dict[str, object]:
        """The API's clock object (`GET .../clock`), plus `elapsed_ms`, `time_to_next_break_ms` and
        `planned_end_ms`."""
        return {
            "status": self.status,
            "period_index": self.period_index,
            "period": _period_dict(self.period, self.level_number),
            "remaining_ms": self.remaining_ms,
            "ends_at_ms": self.ends_at_ms,
            "server_time_ms": self.server_time_ms,
            "next_period": (
                None
                if self.next_period is None
                else _period_dict(self.next_period, self.next_level_number)
            ),
            "version": self.version,
            "elapsed_ms": self.elapsed_ms,
            "time_to_next_break_ms": self.time_to_next_break_ms,
            "planned_end_ms": self.planned_end_ms,
            "overtime_ms": self.overtime_ms,
        }


def _period_dict(period: Period, level: int | None) -> dict[str, object]:
    return {
        "kind": period.kind,
        "level": level,
        "small_blind": period.small_blind,
        "big_blind": period.big_blind,
        "ante": period.ante,
        "duration_seconds": period.duration_seconds,
    }


# --- helpers -------------------------------------------------------------------------------


def level_numbers(periods: Sequence[Period]) -> list[int | None]:
    """The 1-based blind-level number of each period, None for breaks: L1 L2 L3 L4 None L5..."""
    numbers: list[int | None] = []
    count = 0
    for period in periods:
        if period.kind == "level":
            count += 1
            numbers.append(count)
        else:
            numbers.append(None)
    return numbers


def planned_end_ms(state: ClockState, periods: Sequence[Period], now_ms: int) -> int | None:
    """When the last period will end if the clock runs from now on without further changes:
    running -> the current end plus the durations of the later periods; pending or paused ->
    as if started/resumed at `now_ms`; in overtime or finished -> None."""
    s = _caught_up(state, periods, now_ms)
    if s.status in ("overtime", "finished"):
        return None
    return now_ms + _remaining_ms(s, periods, now_ms) + _duration_sum(periods, s.period_index + 1)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _duration_ms(period: Period) -> int:
    return period.duration_seconds * MS_PER_SECOND


def _duration_sum(periods: Sequence[Period], start: int, stop: int | None = None) -> int:
    return sum(_duration_ms(p) for p in periods[start:stop])


def _check(state: ClockState, periods: Sequence[Period], now_ms: int) -> None:
    if not _is_int(now_ms):
        raise TypeError(f"now_ms must be integer epoch milliseconds, not {now_ms!r}")
    if not periods:
        raise ClockError("no_periods", N_("The structure has no periods."))
    if any(not _is_int(p.duration_seconds) or p.duration_seconds <= 0 for p in periods):
        raise ClockError("invalid_structure", N_("Every period needs a positive duration."))
    if state.period_index >= len(periods):
        raise ClockError(
            "invalid_clock_state",
            N_("The clock is at period %(period)d, but the structure has only %(count)d."),
            period=state.period_index + 1,
            count=len(periods),
        )


def _remaining_ms(s: ClockState, periods: Sequence[Period], now_ms: int) -> int:
    """Time left in the current period of a caught-up state (0 in overtime and when finished)."""
    if s.status == "overtime":
        return 0
    if s.status == "running":
        assert s.period_ends_at_ms is not None
        return max(0, s.period_ends_at_ms - now_ms)
    if s.paused_remaining_ms is not None:
        return s.paused_remaining_ms
    if s.status == "finished":
        return 0
    return _duration_ms(periods[s.period_index])


def _format_ms(ms: int) -> str:
    seconds = -(-ms // MS_PER_SECOND)
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


def _finished_error() -> ClockError:
    return ClockError("clock_finished", N_("The clock has finished: the last period is over."))


def _require_started(s: ClockState) -> None:
    if s.status == "pending":
        raise ClockError("clock_not_started", N_("The clock has not started yet."))
    if s.status == "finished":
        raise _finished_error()


def _restart_at(s: ClockState, periods: Sequence[Period], now_ms: int, index: int) -> ClockState:
    """Period `index` from its start with its full duration; running stays running, anything
    else becomes paused."""
    duration = _duration_ms(periods[index])
    if s.status in PLAYED:
        return ClockState("running", index, now_ms + duration, None, s.version + 1)
    return ClockState("paused", index, None, duration, s.version + 1)


def _caught_up(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockState:
    return advance(state, periods, now_ms).state


# --- the timer -----------------------------------------------------------------------------


def advance(state: ClockState, periods: Sequence[Period], now_ms: int) -> AdvanceResult:
    """Step a running clock through every period that has ended by `now_ms` (inclusive: a
    period whose end equals `now_ms` is over).

    Each step enters the next period at the previous period's *scheduled* end and schedules
    its end at that instant plus its duration (no drift), bumps `version` by one and is
    recorded as a `PeriodChange` carrying that version. Ending the last period puts the clock in
    overtime (one more version, `overtime_at_ms` = its scheduled end): play goes on at the last
    level, and only the last bust-out finishes a tournament (`stop`). Anything but a running,
    due clock is returned unchanged with no changes, so calling it again at the same `now_ms`
    is a no-op (idempotent).
    """
    _check(state, periods, now_ms)
    end = state.period_ends_at_ms
    if state.status != "running" or end is None or now_ms < end:
        return AdvanceResult(state)
    index, version = state.period_index, state.version
    changes: list[PeriodChange] = []
    while True:
        # The period at `index` ended at `end`, and `end <= now_ms`.
        version += 1
        if index + 1 >= len(periods):
            over = ClockState("overtime", index, end, None, version)
            return AdvanceResult(over, tuple(changes), overtime_at_ms=end)
        index += 1
        changes.append(PeriodChange(index, end, version))
        end += _duration_ms(periods[index])
        if now_ms < end:
            return AdvanceResult(ClockState("running", index, end, None, version), tuple(changes))


# --- transitions ---------------------------------------------------------------------------


def start(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockState:
    """Pending -> running its period (0 unless `pending_at` set another), ending at `now_ms` +
    its (possibly adjusted) time."""
    s = _caught_up(state, periods, now_ms)
    if s.status == "finished":
        raise _finished_error()
    if s.status != "pending":
        raise ClockError("clock_already_started", N_("The clock has already been started."))
    remaining = _remaining_ms(s, periods, now_ms)
    return ClockState("running", s.period_index, now_ms + remaining, None, s.version + 1)


def pending_at(
    state: ClockState, periods: Sequence[Period], now_ms: int, period_index: int
) -> ClockState:
    """A clock not started yet set to start at period `period_index` (0-based) with its whole
    time: a main event's Day 2 starts at the level after its flights' last (docs/rules.md
    §15.5). Refused once the clock has started."""
    _check(state, periods, now_ms)
    if not _is_int(period_index) or not 0 <= period_index < len(periods):
        raise ClockError(
            "invalid_period",
            N_("There is no period %(index)s: the structure has periods 0 to %(last)d."),
            index=repr(period_index),
            last=len(periods) - 1,
        )
    if state.status != "pending":
        raise ClockError("clock_already_started", N_("The clock has already been started."))
    return ClockState("pending", period_index, None, None, state.version + 1)


def pause(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockState:
    """Running (or in overtime, 0 left) -> paused, freezing the time left in the (effective)
    current period."""
    s = _caught_up(state, periods, now_ms)
    if s.status == "finished":
        raise _finished_error()
    if s.status not in PLAYED:
        raise ClockError("clock_not_running", N_("The clock is not running."))
    remaining = _remaining_ms(s, periods, now_ms)
    return ClockState("paused", s.period_index, None, remaining, s.version + 1)


def resume(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockState:
    """Paused -> running; the period ends at `now_ms` + the frozen remaining time."""
    s = _caught_up(state, periods, now_ms)
    if s.status == "finished":
        raise _finished_error()
    if s.status != "paused":
        raise ClockError("clock_not_paused", N_("The clock is not paused."))
    remaining = _remaining_ms(s, periods, now_ms)
    return ClockState("running", s.period_index, now_ms + remaining, None, s.version + 1)


def next_period(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockState:
    """Skip to the start of the next period (full duration), keeping running or paused (from
    overtime: running). From the last period the structure runs out now: a running clock goes
    into overtime, a paused one keeps the last level with 0 left; in overtime there is no next
    period until levels are added to the structure."""
    s = _caught_up(state, periods, now_ms)
    _require_started(s)
    if s.period_index + 1 < len(periods):
        return _restart_at(s, periods, now_ms, s.period_index + 1)
    if s.status == "overtime":
        raise ClockError(
            "no_next_period",
            N_("This is the structure's last level: add levels to the structure to go on."),
        )
    if s.status == "running":
        return ClockState("overtime", s.period_index, now_ms, None, s.version + 1)
    return ClockState("paused", s.period_index, None, 0, s.version + 1)


def previous_period(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockState:
    """Back to the start of the previous period (full duration), keeping running or paused."""
    s = _caught_up(state, periods, now_ms)
    _require_started(s)
    if s.period_index == 0:
        raise ClockError("no_previous_period", N_("The clock is at the first period."))
    return _restart_at(s, periods, now_ms, s.period_index - 1)


def jump_to(
    state: ClockState, periods: Sequence[Period], now_ms: int, period_index: int
) -> ClockState:
    """Go to the start of period `period_index` (0-based, full duration; the current index
    restarts the current period), keeping running or paused. On a finished clock this is the
    way to reopen it: it lands paused at that period."""
    _check(state, periods, now_ms)
    if not _is_int(period_index) or not 0 <= period_index < len(periods):
        raise ClockError(
            "invalid_period",
            N_("There is no period %(index)s: the structure has periods 0 to %(last)d."),
            index=repr(period_index),
            last=len(periods) - 1,
        )
    s = _caught_up(state, periods, now_ms)
    if s.status == "pending":
        raise ClockError("clock_not_started", N_("The clock has not started yet."))
    return _restart_at(s, periods, now_ms, period_index)


def adjust(state: ClockState, periods: Sequence[Period], now_ms: int, seconds: int) -> ClockState:
    """Add (`seconds` > 0) or remove (< 0) time in the current period, whatever its status
    except finished. The time left may reach 0 (a running period then ends at `now_ms`) but
    never below: removing more than remains is refused, as is 0 and a result above
    `MAX_REMAINING_MS`."""
    _check(state, periods, now_ms)
    if not _is_int(seconds) or seconds == 0:
        raise ClockError(
            "invalid_adjustment", N_("The adjustment must be a non-zero whole number of seconds.")
        )
    s = _caught_up(state, periods, now_ms)
    if s.status == "finished":
        raise _finished_error()
    remaining = _remaining_ms(s, periods, now_ms)
    new_remaining = remaining + seconds * MS_PER_SECOND
    if new_remaining < 0:
        raise ClockError(
            "invalid_adjustment",
            N_("Only %(left)s remain in this period; %(asked)s cannot be removed."),
            left=_format_ms(remaining),
            asked=_format_ms(-seconds * MS_PER_SECOND),
        )
    if new_remaining > MAX_REMAINING_MS:
        raise ClockError(
            "invalid_adjustment",
            N_("A period can have at most %(most)s left."),
            most=_format_ms(MAX_REMAINING_MS),
        )
    if s.status in PLAYED:  # time added in overtime: the last level runs again
        return ClockState("running", s.period_index, now_ms + new_remaining, None, s.version + 1)
    return ClockState(s.status, s.period_index, None, new_remaining, s.version + 1)


@dataclass(frozen=True)
class UndoRecord:
    """What undoing the last manual clock change needs: `before`, the (caught-up) state the
    change was applied to, and `after_version`, the version the change stored. The record is
    valid only while the clock still holds that version."""

    before: ClockState
    after_version: int


def undo(
    state: ClockState, periods: Sequence[Period], now_ms: int, record: UndoRecord | None
) -> ClockState:
    """Put the clock back as if the last manual change had never been made.

    The result is `record.before` with a new version (`caught-up version + 1`): a running
    clock keeps the period end it had, so the time kept running during the mistake (an undone
    pause or "next" ends the period exactly when it would have; if that instant has passed,
    the clock is simply late and `advance` steps on from that scheduled end); a paused or
    finished clock gets back its frozen time. Refused with `nothing_to_undo` without a record
    and with `undo_stale` once the clock has moved on: another change, or a period change
    that is due even if `advance` has not stored it yet.
    """
    _check(state, periods, now_ms)
    if record is None:
        raise ClockError("nothing_to_undo", N_("There is no clock change to undo."))
    s = _caught_up(state, periods, now_ms)
    if s.version != record.after_version:
        raise ClockError(
            "undo_stale",
            N_("The clock has changed since (another change or a new period); nothing was undone."),
        )
    b = record.before
    if b.period_index >= len(periods):
        raise ClockError("invalid_clock_state", N_("The saved clock no longer fits the structure."))
    return ClockState(
        b.status, b.period_index, b.period_ends_at_ms, b.paused_remaining_ms, s.version + 1
    )


def stop(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockState:
    """The tournament is over (its winner is known, docs/rules.md §1.4): the clock finishes in
    the period the room is playing, whatever its status, so no level changes any more and the
    timers have nothing to do. A clock already finished is returned unchanged."""
    _check(state, periods, now_ms)
    s = _caught_up(state, periods, now_ms)
    if s.status == "finished":
        return s
    return ClockState("finished", s.period_index, None, None, s.version + 1)


def restart(
    state: ClockState, periods: Sequence[Period], now_ms: int, before: ClockState, stopped: int
) -> ClockState | None:
    """Undo of `stop` (the bust-out that ended the tournament was undone): the clock is put
    back as if it had never stopped, i.e. `before` (the caught-up state `stop` was applied
    to) with a new version. A running clock keeps its period end, so it is in the period it
    would be in now (`advance` steps on through any period that ended meanwhile); a paused or
    pending one gets back its frozen time. None when the clock has changed since it stopped
    (its version is no longer `stopped`, e.g. the director reopened it): it is left alone."""
    _check(state, periods, now_ms)
    if state.version != stopped or state.status != "finished":
        return None
    if before.period_index >= len(periods):
        return None
    return ClockState(
        before.status,
        before.period_index,
        before.period_ends_at_ms,
        before.paused_remaining_ms,
        state.version + 1,
    )


# --- reading -------------------------------------------------------------------------------


def played_index(periods: Sequence[Period], index: int, status: str) -> int:
    """The period the room plays at `index`: itself, but in overtime after a structure that
    ends with a break, the last level before it (play goes on at the last level)."""
    if status != "overtime":
        return index
    for back in range(index, -1, -1):
        if periods[back].kind == "level":
            return back
    return index


def view(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockView:
    """The clock as it really is at `now_ms`, even if `advance` has not run yet. In overtime
    `period` and `level_number` are the level played (`played_index`), `period_index` the
    structure's last period."""
    s = _caught_up(state, periods, now_ms)
    index = s.period_index
    played = played_index(periods, index, s.status)
    numbers = level_numbers(periods)
    remaining = _remaining_ms(s, periods, now_ms)
    duration = _duration_ms(periods[index])
    overtime = None
    if s.status == "finished":
        # Through the period it finished in: the whole structure, or less when the tournament
        # ended before its last period (stop).
        elapsed = _duration_sum(periods, 0, index + 1)
        next_index = None
        to_break = None
    elif s.status == "overtime":
        assert s.period_ends_at_ms is not None
        overtime = max(0, now_ms - s.period_ends_at_ms)
        elapsed = _duration_sum(periods, 0, index + 1) + overtime
        next_index = index + 1 if index + 1 < len(periods) else None  # levels added since
        to_break = None
    else:
        elapsed = _duration_sum(periods, 0, index) + max(0, duration - remaining)
        next_index = index + 1 if index + 1 < len(periods) else None
        to_break = None
        for later in range(index + 1, len(periods)):
            if periods[later].kind == "break":
                to_break = remaining + _duration_sum(periods, index + 1, later)
                break
    return ClockView(
        status=s.status,
        period_index=index,
        period=periods[played],
        level_number=numbers[played],
        remaining_ms=remaining,
        ends_at_ms=s.period_ends_at_ms,
        next_period_index=next_index,
        next_period=None if next_index is None else periods[next_index],
        next_level_number=None if next_index is None else numbers[next_index],
        elapsed_ms=elapsed,
        time_to_next_break_ms=to_break,
        planned_end_ms=planned_end_ms(s, periods, now_ms),
        server_time_ms=now_ms,
        version=state.version,
        overtime_ms=overtime,
    )
