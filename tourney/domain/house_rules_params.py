"""House-rules parameters: their choices, their bounds and their validation (docs/rules.md,
"Profile values" of each section). The profiles are in house_rules_profiles.py; the public
names, with :func:`resolve_house_rules`, in house_rules.py.

Units: ``*_minutes`` fields are minutes, ``*_seconds`` fields are seconds, counts are players,
levels, hands or rounds as named. Pure Python: no Django imports.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from functools import cache
from typing import Literal

# --- Choices ------------------------------------------------------------------------------------

AbsentPolicy = Literal["blind_off", "eliminate"]
"""§2: an absent player's stack is blinded off, or the player is eliminated after a wait."""

LiveCheckpoint = Literal["first_card", "initial_deal_done", "first_bet_round"]
"""§2: the moment a player must be at the seat for the hand to be live."""

ButtonDraw = Literal["high_card"]
"""§3: how the first button is placed (one face-up card each; rank, then suit)."""

NotDealt = Literal["between_btn_sb", "sb_or_btn_seat"]
"""§4: which seats a newly seated or moved player sits out for the current hand."""

TableOrder = Literal["lowest_first", "highest_first", "random"]
"""§5/§6: a predetermined order of tables, by table number (or random)."""

BreakOrder = Literal["fewest_players", "fixed_list", "random"]
"""§6: which table breaks first."""

ColorUpMethod = Literal["round_up", "race"]
"""§8: Method A (round every stack up) or Method B (chip race, TDA 24)."""

RaceRounding = Literal["half_up", "up", "down"]
"""§8: rounding of the number of race chips N = O / k."""

ZeroStackChip = Literal["extra", "from_pool"]
"""§8: where the chip for a player raced down to zero comes from."""

ExpiryNoBet = Literal["check", "fold"]
"""§9: what an expired clock means when the player is not facing a bet."""

RoundSize = Literal["players_at_table_incl_offender"]
"""§10: hands in one penalty round."""

SameHandOrder = Literal["start_stack"]
"""§11: ordering of players eliminated in the same hand."""

EqualStack = Literal["tie_split"]
"""§11: players eliminated in the same hand with equal starting stacks."""

AfterLastLevel = Literal["count_up", "zero"]
"""§1: what the clock shows once the structure has run out and play goes on at its last level:
the time played since (counting on), or 0:00."""

from tourney.domain.cancelling import Settlement  # noqa: E402
from tourney.domain.festival import Day2Draw, FlightSurvivor  # noqa: E402

H4HMode = Literal["tda_rp8", "wsop"]
"""§11: hand-for-hand variant (TDA RP-8, or WSOP: busts at different tables tie)."""


# --- Errors -------------------------------------------------------------------------------------


class HouseRulesError(ValueError):
    """A profile key, parameter name or parameter value was rejected.

    ``code`` is ``"unknown_house_rules"`` (no such profile) or ``"invalid_house_rule"``
    (unknown parameter or bad value); ``field`` names the parameter when there is one.
    """

    def __init__(self, code: str, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.field = field
        self.message = message


UNKNOWN_HOUSE_RULES = "unknown_house_rules"
INVALID_HOUSE_RULE = "invalid_house_rule"


# --- The parameters -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HouseRules:
    """All house-rule parameters; validated on construction (raises :class:`HouseRulesError`)."""

    # 1. Chips, blind structure, level clock, breaks
    level_minutes: int
    """Length of a blind level, minutes (>= 1)."""
    break_every: int
    """A break after every this many levels (>= 1)."""
    break_minutes: int
    """Length of a break, minutes (>= 1)."""
    after_last_level: AfterLastLevel

    # 2. Registration, absence, late entry, re-entry, rebuy, add-on
    late_registration: bool
    """True: entries come in after the start until the tournament's late-registration level;
    False: registration closes when the clock starts (docs/rules.md §2.2)."""
    late_refund_levels: int
    """A late entry made by mistake is refunded at the desk until the end of this many levels,
    counting the one it came in (>= 0; 0: never after the start; docs/rules.md §2.2)."""
    membership_required: bool
    """True: only a member plays, who signed that he read the house rules (docs/rules.md §2.1):
    the desk asks for both before his first buy-in."""
    absent_policy: AbsentPolicy
    absent_eliminate_after_levels: int
    """With ``absent_policy="eliminate"``: levels an absent player may wait (>= 1)."""
    live_checkpoint: LiveCheckpoint
    absent_bb_exception: bool
    """True: an absent player's cards in the big blind stay live (Atlas)."""
    absent_itm_forfeit: bool
    """True: a player outside the room when reaching a paid place forfeits the prize."""
    rebuy_declare_before_next_hand: bool
    """True: a busted player must declare a rebuy before the next hand starts."""
    reentry_max: int
    """Re-entries allowed per player (>= 0; 0 = none)."""
    alternates_new_table: int | None
    """Open a table for the waiting list once this many wait and a table of the tournament is
    free (>= 1); None = alternates only take freed seats (docs/rules.md §2.1)."""

    # 3. Table count, initial seating, button draw
    table_thresholds: tuple[int, ...] | None
    """Max players for 1, 2, ... tables (strictly increasing); above the last, one more
    table, then ceil(n / seats_per_table). None: 1 table up to ``single_table_seats``,
    else ceil(n / seats_per_table)."""
    seats_per_table: int
    """Seats per table in a multi-table event (>= 2)."""
    single_table_seats: int
    """Seats when the whole field fits on one table (>= 2)."""
    button_draw: ButtonDraw

    # 4. Button, blinds, dead button, heads-up, newcomers
    dead_button: bool
    not_dealt: NotDealt

    # 5. Balancing tables
    balance_threshold: int
    """Move players while largest - smallest table >= this (>= 2)."""
    halt_threshold: int
    """Halt a table this many players short of the largest table (>= 2, TDA 11-D)."""
    source_tiebreak: TableOrder
    """Order among equally large source tables."""
    late_reg_hold: bool
    """True: while late registration is open (to a set level), hold table breaks and balance
    only tables `halt_threshold` short (docs/rules.md §5.10)."""

    # 6. Breaking tables
    break_order: BreakOrder
    break_tiebreak: TableOrder
    """The published fixed order: used by ``fixed_list`` and to break ties."""

    # 7. Final table
    final_table_size: int
    """Players at which all tables combine (>= 2, <= the largest table size), in a full-ring
    event (`seats_per_table` 8 or more)."""
    short_handed_final_table_size: int
    """The final table's size in a short-handed event (`seats_per_table` 7 or fewer: Doyle #8,
    TDA RP-9); >= 2, <= the largest table size. See :func:`final_table_players`."""
    ft_redraw: bool
    """True: redraw all seats and the button when the final table forms."""

    # 8. Color-up / chip race
    color_up_method: ColorUpMethod
    race_rounding: RaceRounding
    zero_stack_chip: ZeroStackChip
    race_start_seat: int
    """Seat the race deal starts from (>= 1, <= the largest table size)."""

    # 9. Calling the clock
    clock_min_elapsed_seconds: int
    """Seconds a player must have taken before a clock may be called (>= 0; 0 = floor's
    judgement, no fixed minimum)."""
    clock_seconds: int
    """Seconds to act once the clock is called (>= 1)."""
    ft_clock_seconds: int
    """Seconds to act once the clock is called at the final table (>= 1)."""
    countdown_seconds: int
    """Final countdown after the clock time, seconds (>= 0; 0 = none)."""
    expiry_no_bet: ExpiryNoBet

    # 10. Penalties and disqualification
    round_size: RoundSize
    fixed_hands: int | None
    """Hands in the house's fixed missed-hands penalty (>= 1); None = no fixed count."""
    penalty_rounds_max: int | None
    """Most penalty rounds per sanction (>= 0; 0 = no round penalties); None = no maximum."""
    dq_forfeits_prize: bool
    dealer_penalties: bool
    """True: the dealer gives a warning or a round penalty from his table's dealer link (Atlas
    004:3, 79); the floor undoes it (docs/rules.md §10.1)."""
    penalty_follows_moves: bool
    """True: a penalty keeps counting when the player is moved to another table."""
    penalty_seconds_per_hand: int
    """Seconds a hand takes, for the end-time estimate of a missed-hands penalty where the
    table's own hand reports do not give a pace (10..900)."""

    # 11. Eliminations, places, hand-for-hand, payouts
    same_hand_order: SameHandOrder
    equal_stack: EqualStack
    h4h_mode: H4HMode
    h4h_seconds_per_hand: int
    """Seconds taken off the level clock per hand-for-hand hand (0..180, TDA RP-8)."""
    money_rounding: int
    """Split prize shares are multiples of this many currency units (>= 1); the remainder
    is left to the payout rules (open point, docs/rules.md §14.2)."""
    cancel_settlement: Settlement
    """An event cancelled after its start (docs/rules.md §18): every payment refunded
    (`refund`), or the prizes still to be won shared by the players left by chip count
    (`chip_count`) or equally (`equal`)."""

    # 15. Festivals: flights and Day 2
    flight_survivor: FlightSurvivor
    day2_draw: Day2Draw

    def __post_init__(self) -> None:
        for name in PARAMETER_KEYS:
            _check_value(name, getattr(self, name))
        _check_consistency(self)


PARAMETER_KEYS: tuple[str, ...] = tuple(f.name for f in dataclasses.fields(HouseRules))
"""Every parameter name, in declaration (section) order."""

INT_BOUNDS: dict[str, tuple[int, int | None]] = {
    "level_minutes": (1, None),
    "break_every": (1, None),
    "break_minutes": (1, None),
    "absent_eliminate_after_levels": (1, None),
    "reentry_max": (0, None),
    "late_refund_levels": (0, None),
    "alternates_new_table": (1, None),
    "seats_per_table": (2, None),
    "single_table_seats": (2, None),
    "balance_threshold": (2, None),
    "halt_threshold": (2, None),
    "final_table_size": (2, None),
    "short_handed_final_table_size": (2, None),
    "race_start_seat": (1, None),
    "clock_min_elapsed_seconds": (0, None),
    "clock_seconds": (1, None),
    "ft_clock_seconds": (1, None),
    "countdown_seconds": (0, None),
    "fixed_hands": (1, None),
    "penalty_rounds_max": (0, None),
    "penalty_seconds_per_hand": (10, 900),
    "h4h_seconds_per_hand": (0, 180),
    "money_rounding": (1, None),
}
"""Inclusive (min, max) of every integer parameter; max None = unbounded."""


@cache
def _annotations() -> dict[str, object]:
    return typing.get_type_hints(HouseRules)


def _literal_choices(annotation: object) -> tuple[str, ...] | None:
    if typing.get_origin(annotation) is Literal:
        return tuple(typing.get_args(annotation))
    return None


@cache
def _choices() -> dict[str, tuple[str, ...]]:
    found = {}
    for name, annotation in _annotations().items():
        choices = _literal_choices(annotation)
        if choices is not None:
            found[name] = choices
    return found


def _invalid(name: str, message: str) -> HouseRulesError:
    return HouseRulesError(INVALID_HOUSE_RULE, f"Invalid house rule '{name}': {message}.", name)


def _shown(value: object) -> str:
    return f"{value!r} ({type(value).__name__})"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


# Where a rule sets no maximum, a count still fits a 32-bit integer (the API's and the pages').
COUNT_MAX = 2**31 - 1


def _check_int(name: str, value: object) -> None:
    low, high = INT_BOUNDS[name]
    high = COUNT_MAX if high is None else high
    wanted = f"an integer from {low} to {high}"
    if not _is_int(value):
        raise _invalid(name, f"expected {wanted}, got {_shown(value)}")
    assert isinstance(value, int)
    if not low <= value <= high:
        raise _invalid(name, f"expected {wanted}, got {value}")


def _check_thresholds(name: str, value: object) -> None:
    if value is None:
        return
    if not isinstance(value, tuple) or not value:
        raise _invalid(name, f"expected null or a non-empty list of integers, got {_shown(value)}")
    previous = 0
    for item in value:
        if not _is_int(item) or item <= previous or item > COUNT_MAX:
            raise _invalid(
                name, f"expected strictly increasing positive integers, got {list(value)!r}"
            )
        previous = item


def _check_value(name: str, value: object) -> None:
    annotation = _annotations()[name]
    choices = _literal_choices(annotation)
    if choices is not None:
        if not isinstance(value, str) or value not in choices:
            options = ", ".join(repr(c) for c in choices)
            raise _invalid(name, f"expected one of {options}, got {_shown(value)}")
    elif annotation is bool:
        if not isinstance(value, bool):
            raise _invalid(name, f"expected true or false, got {_shown(value)}")
    elif annotation is int:
        _check_int(name, value)
    elif annotation == int | None:
        if value is not None:
            _check_int(name, value)
    elif annotation == tuple[int, ...] | None:
        _check_thresholds(name, value)
    else:  # pragma: no cover - a new field needs a rule here
        raise TypeError(f"no validation rule for house rule {name!r}: {annotation!r}")


def _check_consistency(rules: HouseRules) -> None:
    largest = max(rules.seats_per_table, rules.single_table_seats)
    for name in ("final_table_size", "short_handed_final_table_size", "race_start_seat"):
        value = getattr(rules, name)
        if value > largest:
            raise _invalid(
                name,
                f"{value} exceeds the largest table size {largest} "
                "(max of seats_per_table and single_table_seats)",
            )
    if rules.table_thresholds is not None:
        for tables, limit in enumerate(rules.table_thresholds, start=1):
            seats = rules.single_table_seats if tables == 1 else tables * rules.seats_per_table
            if limit > seats:
                raise _invalid(
                    "table_thresholds",
                    f"{limit} players cannot sit at {tables} table(s) of "
                    f"{rules.single_table_seats if tables == 1 else rules.seats_per_table} seats",
                )


PARAMETER_CHOICES: dict[str, tuple[str, ...]] = dict(_choices())
"""The allowed values of every choice parameter."""

_INT_PARAMETERS = {
    name for name, annotation in _annotations().items() if annotation in (int, int | None)
}
if set(INT_BOUNDS) != _INT_PARAMETERS:  # pragma: no cover - guards future edits
    raise TypeError(f"INT_BOUNDS must cover exactly the integer parameters: {_INT_PARAMETERS}")


SHORT_HANDED_SEATS = 7
"""A multi-table event of at most this many seats a table is short-handed (TDA RP-9: 7- and
6-handed events; Doyle #8: six-handed tables)."""


def final_table_players(rules: HouseRules) -> int:
    """Players at which the tables combine into the final table (docs/rules.md §7.1): the
    short-handed size when the event plays `seats_per_table` <= 7 (Doyle #8 "at six-handed
    tables 7 sit at the final table", TDA RP-9), else `final_table_size`."""
    if rules.seats_per_table <= SHORT_HANDED_SEATS:
        return rules.short_handed_final_table_size
    return rules.final_table_size


def describe(rules: HouseRules) -> dict[str, object]:
    """Every parameter by name, JSON-serialisable (tuples become lists)."""
    described: dict[str, object] = {}
    for name in PARAMETER_KEYS:
        value = getattr(rules, name)
        described[name] = list(value) if isinstance(value, tuple) else value
    return described
