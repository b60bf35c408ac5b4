"""Rebuys and add-ons (docs/rules.md §2.5, §2.6; [INF] for add-ons): when an entry may buy more
chips.

Units: chips and money are integers; instants are Unix epoch milliseconds. Levels count from
1, breaks not counted (as late registration, `tourney.domain.registration`).

- A **rebuy** is allowed through the end of level `until_level`, at most `max_per_entry` per
  entry (0 = no limit), when the entry is busted (`busted`) or its declared stack is at most
  the starting stack (`at_most_start`; a busted player has 0). A busted player must declare it
  before the next hand at his table (`declare_before_next_hand`, docs/rules.md §2.8 example 3): the
  bust-out is taken back only while the table has not finished a hand after the one he busted
  in.
- An **add-on** is one per entry, taken during the period right after level `level`: the
  break that follows it, or, when the structure has no break there, the next level (open
  through its end). Only a playing entry takes one.

Every check returns a :class:`PurchaseError` (code for the API, English template for the
service to translate) or None, so the desk can show why a button is off without trying.
No Django imports.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from clocks.domain.clock import ClockState, advance
from clocks.domain.structures import Period
from tourney.domain.refusal import N_, RuleError
from tourney.domain.registration import deadline, level_count, level_index

RebuyCondition = Literal["at_most_start", "busted"]
EntryState = Literal["playing", "busted", "out"]
"""`busted`: out by a standing bust-out (a rebuy may take it back); `out`: otherwise out
(absent at the deadline, disqualified, refunded, waiting list)."""


class PurchaseError(RuleError):
    """A rebuy or add-on the rules refuse."""


@dataclass(frozen=True)
class RebuyRules:
    until_level: int | None
    """Rebuys through the end of this level; None = the tournament has no rebuys."""
    max_per_entry: int
    """0 = no limit."""
    condition: RebuyCondition
    starting_stack: int
    declare_before_next_hand: bool = True


@dataclass(frozen=True)
class AddonRules:
    level: int | None
    """The add-on is taken in the period after this level; None = no add-on."""


@dataclass(frozen=True)
class EntryFacts:
    """What the rules need to know about one entry at the moment of the purchase."""

    state: EntryState
    rebuys: int = 0
    """Standing (not undone) rebuys of this entry."""
    addons: int = 0
    hands_after_bust: int | None = None
    """For a busted entry: hands its table finished after the hand of the bust-out (the
    bust-out's own hand, reported with it or just after it, is not one). None = unknown."""


@dataclass(frozen=True)
class AddonWindow:
    """Where the clock stands against the add-on period: `before`, `open` or `over`."""

    status: Literal["before", "open", "over"]
    period_index: int | None
    """The index of the add-on period (None when the structure has none after the level)."""
    is_break: bool


def _current(state: ClockState, periods: Sequence[Period], now_ms: int) -> ClockState:
    return advance(state, periods, now_ms).state


def addon_window(
    state: ClockState, periods: Sequence[Period], now_ms: int, level: int
) -> AddonWindow:
    """The add-on period of level `level` seen from `now_ms` (the clock caught up first)."""
    index = level_index(periods, level)
    window = index + 1 if index is not None and index + 1 < len(periods) else None
    is_break = window is not None and periods[window].kind == "break"
    current = _current(state, periods, now_ms)
    if window is None or current.status == "finished":
        return AddonWindow("over", window, is_break)
    if current.status == "pending" or current.period_index < window:
        return AddonWindow("before", window, is_break)
    if current.period_index == window:
        return AddonWindow("open", window, is_break)
    return AddonWindow("over", window, is_break)


def rebuy_refusal(
    rules: RebuyRules,
    facts: EntryFacts,
    *,
    state: ClockState,
    periods: Sequence[Period],
    now_ms: int,
    stack: int | None,
) -> PurchaseError | None:
    """Why entry `facts` may not rebuy now (None: it may). `stack`: the chips the player
    declares in front of him (ignored for a busted entry, which has none)."""
    if rules.until_level is None:
        return PurchaseError("no_rebuys", N_("This tournament has no rebuys."))
    if _current(state, periods, now_ms).status == "pending":
        return PurchaseError(
            "tournament_not_running", N_("Rebuys are taken once the tournament has started.")
        )
    if deadline(state, periods, now_ms, rules.until_level).passed:
        return PurchaseError(
            "rebuy_closed",
            N_("Rebuys closed at the end of level %(level)s."),
            level=rules.until_level,
        )
    if facts.state == "out":
        return PurchaseError("entry_not_playing", N_("This entry is not in the tournament."))
    if rules.max_per_entry and facts.rebuys >= rules.max_per_entry:
        return PurchaseError(
            "rebuy_limit",
            N_("This entry has had its %(max)s rebuys: no more are allowed."),
            max=rules.max_per_entry,
        )
    busted = facts.state == "busted" or stack == 0
    if rules.condition == "busted" and not busted:
        return PurchaseError(
            "rebuy_not_allowed", N_("A rebuy is allowed only once the player has busted.")
        )
    if rules.condition == "at_most_start" and not busted:
        if stack is None:
            return PurchaseError(
                "stack_required",
                N_("Give the player's stack: a rebuy is allowed with at most %(stack)s chips."),
                stack=rules.starting_stack,
            )
        if stack > rules.starting_stack:
            return PurchaseError(
                "rebuy_not_allowed",
                N_("A rebuy is allowed with at most the starting stack (%(stack)s chips)."),
                stack=rules.starting_stack,
            )
    if (
        facts.state == "busted"
        and rules.declare_before_next_hand
        and facts.hands_after_bust is not None
        and facts.hands_after_bust > 0
    ):
        return PurchaseError(
            "rebuy_too_late",
            N_("Too late: a hand has been dealt at the table since the bust-out."),
        )
    return None


def addon_refusal(
    rules: AddonRules,
    facts: EntryFacts,
    *,
    state: ClockState,
    periods: Sequence[Period],
    now_ms: int,
) -> PurchaseError | None:
    """Why entry `facts` may not take the add-on now (None: it may)."""
    if rules.level is None:
        return PurchaseError("no_addons", N_("This tournament has no add-on."))
    window = addon_window(state, periods, now_ms, rules.level)
    if window.status != "open":
        if window.status == "before":
            template = (
                N_("The add-on is taken during the break after level %(level)s.")
                if window.is_break
                else N_("The add-on is taken during level %(next)s, after level %(level)s.")
            )
        else:
            template = N_("The add-on period after level %(level)s is over.")
        return PurchaseError("addon_closed", template, level=rules.level, next=rules.level + 1)
    if facts.state != "playing":
        return PurchaseError(
            "entry_not_playing", N_("Only a player still in the tournament takes the add-on.")
        )
    if facts.addons:
        return PurchaseError("addon_twice", N_("This entry has taken its add-on already."))
    return None


@dataclass(frozen=True)
class MoneySettings:
    """The rebuy, add-on and guarantee settings of a new tournament (prices in money)."""

    rebuy_until_level: int | None = None
    rebuy_max: int = 0
    rebuy_condition: str = "at_most_start"
    rebuy_buy_in: int = 0
    rebuy_fee: int = 0
    rebuy_chips: int = 0
    addon_level: int | None = None
    addon_buy_in: int = 0
    addon_fee: int = 0
    addon_chips: int = 0
    guarantee: int = 0


MONEY_FIELDS = tuple(MoneySettings.__dataclass_fields__)


def money_settings_refusal(s: MoneySettings, periods: Sequence[Period]) -> PurchaseError | None:
    """Why these settings cannot be saved (None: they can): negative amounts, a level the
    structure does not have, no chips for a rebuy or add-on that is on, an unknown condition."""
    for name in (
        "rebuy_max",
        "rebuy_buy_in",
        "rebuy_fee",
        "rebuy_chips",
        "addon_buy_in",
        "addon_fee",
        "addon_chips",
        "guarantee",
    ):
        if getattr(s, name) < 0:
            return PurchaseError(
                f"invalid_{name}",
                N_("%(field)s cannot be negative."),
                field=name.replace("_", " "),
            )
    levels = level_count(periods)
    if s.rebuy_until_level is not None:
        if not 1 <= s.rebuy_until_level <= levels:
            return PurchaseError(
                "invalid_rebuy_until_level",
                N_("Rebuys must end at a level of the structure (1 to %(n)s)."),
                n=levels,
            )
        if s.rebuy_chips <= 0:
            return PurchaseError(
                "invalid_rebuy_chips", N_("A rebuy must give chips: set the rebuy chips.")
            )
    if s.rebuy_condition not in ("at_most_start", "busted"):
        return PurchaseError(
            "invalid_rebuy_condition",
            N_("A rebuy is allowed when the stack is at most the starting stack, or busted."),
        )
    if s.addon_level is not None:
        index = level_index(periods, s.addon_level)
        if index is None or index + 1 >= len(periods):
            return PurchaseError(
                "invalid_addon_level",
                N_("The add-on must follow a level that has a period after it (1 to %(n)s)."),
                n=max(levels - (1 if periods and periods[-1].kind == "level" else 0), 0),
            )
        if s.addon_chips <= 0:
            return PurchaseError(
                "invalid_addon_chips", N_("An add-on must give chips: set the add-on chips.")
            )
    return None
