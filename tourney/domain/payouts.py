"""Prize pool, payout structures and the amounts paid by place (docs/rules.md §12, [INF]).

Units: money is an integer number of the smallest currency unit (forints, cents); ``unit`` is
the amount payouts are rounded to (e.g. 1,000 forints). Shares of the pool are integers in
millionths (``SHARE_SCALE`` = 1,000,000 = 100 %, so one step is 0.0001 %): fine enough for a
10,000-entry field's min-cash, exact to add up.

A :class:`PayoutStructure` holds one share table per bracket of entries; the bracket that
contains the number of entries is used. Invariants of a valid structure: brackets start at 1
entry, follow each other without gap or overlap; in each, the shares are positive,
non-increasing by place, sum to exactly 100 %, and pay no more places than the bracket's
fewest entries.

Invariants of :func:`payouts_for` (tested with hypothesis): the amounts sum to the pool
exactly, are non-increasing by place, and each is a multiple of ``unit`` except 1st place,
which also takes the part of the pool smaller than one unit.
"""

from __future__ import annotations

import bisect
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import NamedTuple

from tourney.domain.places import shared_prize
from tourney.domain.refusal import N_, RuleError

__all__ = [
    "DEFAULT_TEMPLATE",
    "PAYOUT_TEMPLATES",
    "SHARE_SCALE",
    "PayoutBracket",
    "PayoutError",
    "PayoutStructure",
    "PrizePool",
    "payouts_for",
    "percent_text",
    "prize_pool",
    "shares_from_percents",
    "tie_shares",
    "validate_shares",
    "validate_structure",
]

SHARE_SCALE = 1_000_000
"""100 % in share units (millionths of the pool)."""
_PERCENT_STEP = Decimal(100) / SHARE_SCALE


class PayoutError(RuleError):
    """Refused payout input; ``code`` for the API, ``template``/``params`` for translation,
    ``message`` in English; ``bracket`` = the first entry count of the share table at fault,
    when a structure was checked."""

    def __init__(
        self, code: str, template: str, *, bracket: int | None = None, **params: object
    ) -> None:
        super().__init__(code, template, **params)
        self.bracket = bracket


# --- Prize pool --------------------------------------------------------------------------------


class PrizePool(NamedTuple):
    pool: int
    """What is paid out: the money collected for prizes, or the guarantee if larger."""
    overlay: int
    """What the house adds to reach the guarantee (0 when the field covers it)."""


def prize_pool(buy_ins_total: int, guarantee: int = 0) -> PrizePool:
    """The pool from ``buy_ins_total`` (the prize part of every buy-in, re-entry, rebuy and
    add-on, fees excluded) and a ``guarantee`` (0: none)."""
    if buy_ins_total < 0 or guarantee < 0:
        raise PayoutError("negative", N_("Money amounts cannot be negative."))
    overlay = max(0, guarantee - buy_ins_total)
    return PrizePool(buy_ins_total + overlay, overlay)


# --- Structures --------------------------------------------------------------------------------


@dataclass(frozen=True)
class PayoutBracket:
    """The share table used for ``min_entries`` .. ``max_entries`` entries."""

    min_entries: int
    max_entries: int | None
    """None: no upper bound."""
    shares: tuple[int, ...]
    """Share of the pool by place (1st first), in millionths."""

    @property
    def places_paid(self) -> int:
        return len(self.shares)

    def contains(self, entries: int) -> bool:
        return self.min_entries <= entries and (
            self.max_entries is None or entries <= self.max_entries
        )


@dataclass(frozen=True)
class PayoutStructure:
    """Named share tables by number of entries (brackets in ascending order)."""

    name: str
    brackets: tuple[PayoutBracket, ...]
    _starts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_starts", tuple(b.min_entries for b in self.brackets))

    def bracket_for(self, entries: int) -> PayoutBracket:
        """The bracket containing ``entries``; ``no_bracket`` if none does."""
        index = bisect.bisect_right(self._starts, entries) - 1
        if index < 0 or not self.brackets[index].contains(entries):
            raise PayoutError(
                "no_bracket",
                N_("The payout structure has no table for %(entries)s entries."),
                entries=entries,
            )
        return self.brackets[index]


def validate_shares(shares: Sequence[int], min_entries: int | None = None) -> None:
    """Refuse a share table that is empty (``no_places``), has a share of 0 or less
    (``share_positive``), rises from one place to the next (``share_order``), does not sum to
    100 % (``percent_sum``), or pays more places than ``min_entries`` (``too_many_places``)."""
    if not shares:
        raise PayoutError("no_places", N_("A payout table must pay at least one place."))
    for place, share in enumerate(shares, 1):
        if not isinstance(share, int) or share <= 0:
            raise PayoutError(
                "share_positive",
                N_("Place %(place)s must get more than 0 %%."),
                place=place,
            )
    for place in range(1, len(shares)):
        if shares[place] > shares[place - 1]:
            raise PayoutError(
                "share_order",
                N_("Place %(place)s gets more than place %(better)s."),
                place=place + 1,
                better=place,
            )
    total = sum(shares)
    if total != SHARE_SCALE:
        raise PayoutError(
            "percent_sum",
            N_("The percentages add up to %(total)s %%, not 100 %%."),
            total=percent_text(total),
        )
    if min_entries is not None and len(shares) > min_entries:
        raise PayoutError(
            "too_many_places",
            N_("%(places)s places are paid but there may be only %(entries)s entries."),
            places=len(shares),
            entries=min_entries,
        )


def validate_structure(structure: PayoutStructure) -> None:
    """Refuse a structure whose brackets do not cover 1, 2, ... entries in order without gaps
    or overlaps (``bracket_range``, ``bracket_gap``, ``bracket_overlap``), or whose share tables
    fail :func:`validate_shares` (the error's ``bracket`` names the table)."""
    if not structure.brackets:
        raise PayoutError("no_brackets", N_("The payout structure has no tables."))
    expected_start = 1
    for number, bracket in enumerate(structure.brackets, 1):
        if bracket.max_entries is not None and bracket.max_entries < bracket.min_entries:
            raise PayoutError(
                "bracket_range",
                N_("Table %(number)s ends at %(last)s entries, before it starts (%(first)s)."),
                number=number,
                first=bracket.min_entries,
                last=bracket.max_entries,
            )
        if bracket.min_entries != expected_start:
            raise PayoutError(
                "bracket_gap" if bracket.min_entries > expected_start else "bracket_overlap",
                N_("Table %(number)s should start at %(expected)s entries, not %(first)s."),
                number=number,
                expected=expected_start,
                first=bracket.min_entries,
            )
        try:
            validate_shares(bracket.shares, bracket.min_entries)
        except PayoutError as error:
            error.bracket = bracket.min_entries
            raise
        if bracket.max_entries is None:
            if number != len(structure.brackets):
                raise PayoutError(
                    "bracket_overlap",
                    N_("Only the last table can be open-ended (table %(number)s is not)."),
                    number=number,
                )
            break
        expected_start = bracket.max_entries + 1


# --- Percent text ------------------------------------------------------------------------------


def shares_from_percents(percents: Sequence[str | int | Decimal]) -> tuple[int, ...]:
    """Percent values as typed ("50", "12.5", "0.0150") -> shares in millionths, exactly.
    Refused: not a number from 0 to 100 (``bad_percent``), finer than 0.0001 %
    (``percent_precision``)."""
    shares = []
    for place, text in enumerate(percents, 1):
        try:
            value = Decimal(str(text).strip().replace(",", "."))
        except InvalidOperation:
            value = None
        # A share is a part of 100 %: "1e999999" is a finite Decimal whose millionths overflow.
        if value is None or not value.is_finite() or not 0 <= value <= 100:
            raise PayoutError(
                "bad_percent",
                N_("Place %(place)s: %(text)s is not a percentage."),
                place=place,
                text=str(text),
            )
        share = value / _PERCENT_STEP
        if share != share.to_integral_value():
            raise PayoutError(
                "percent_precision",
                N_("Place %(place)s: percentages have at most 4 decimals."),
                place=place,
            )
        shares.append(int(share))
    return tuple(shares)


def percent_text(share: int) -> str:
    """A share in millionths as a percent without trailing zeros: 125000 -> "12.5"."""
    text = f"{Decimal(share) * _PERCENT_STEP:f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


# --- Amounts -----------------------------------------------------------------------------------


def payouts_for(
    pool: int, entries: int, structure: PayoutStructure, unit: int = 1
) -> tuple[int, ...]:
    """Amounts by place (1st first) for ``entries`` entries and a ``pool`` of money.

    Each place gets its share of the pool rounded down to a multiple of ``unit``; the units
    left over go one each to the places that lost the most to rounding (the better place on a
    tie), and what is smaller than one unit goes to 1st. So no money is created or lost and
    the amounts never rise from one place to the next.
    """
    if pool < 0:
        raise PayoutError("negative", N_("Money amounts cannot be negative."))
    if not isinstance(unit, int) or unit < 1:
        raise PayoutError(
            "bad_unit", N_("The rounding unit must be at least 1, not %(unit)s."), unit=unit
        )
    if entries < 1:
        raise PayoutError("no_entries", N_("There are no entries to pay."))
    bracket = structure.bracket_for(entries)
    validate_shares(bracket.shares, bracket.min_entries)

    pool_units, below_unit = divmod(pool, unit)
    whole: list[int] = []
    lost: list[int] = []
    for share in bracket.shares:
        q, r = divmod(pool_units * share, SHARE_SCALE)
        whole.append(q)
        lost.append(r)
    leftover = pool_units - sum(whole)
    # Fewer than one unit per place was lost, so leftover < places. A stable sort by lost part
    # (descending) keeps the better place first among equals, which keeps the order.
    for place in sorted(range(len(whole)), key=lambda i: -lost[i])[:leftover]:
        whole[place] += 1
    amounts = [units * unit for units in whole]
    amounts[0] += below_unit
    return tuple(amounts)


def tie_shares(payouts: Sequence[int], place: int, place_to: int, unit: int = 1) -> tuple[int, ...]:
    """Players tied for places ``place`` .. ``place_to`` (1-based) share those places' amounts
    equally (docs/rules.md §11.4); places beyond ``payouts`` pay 0. The shares are multiples of
    ``unit`` except the first, and sum to the amounts shared (see ``places.shared_prize``)."""
    if place < 1 or place_to < place:
        raise PayoutError(
            "bad_places",
            N_("Bad range of places: %(place)s to %(place_to)s."),
            place=place,
            place_to=place_to,
        )
    prizes = {p: payouts[p - 1] for p in range(place, min(place_to, len(payouts)) + 1)}
    return shared_prize(prizes, place, place_to, place_to - place + 1, unit)


# --- Templates ---------------------------------------------------------------------------------

# Small fields: hand-made tables (min entries, max entries, percents by place).
_SMALL: dict[str, tuple[tuple[int, int, tuple[str, ...]], ...]] = {
    "standard": (
        (1, 3, ("100",)),
        (4, 7, ("65", "35")),
        (8, 12, ("50", "30", "20")),
        (13, 18, ("42", "27", "18", "13")),
        (19, 27, ("37", "25", "17", "12", "9")),
        (28, 36, ("34", "23", "15", "11", "9", "8")),
        (37, 45, ("32", "21", "14", "10.5", "8.5", "7.5", "6.5")),
        (46, 54, ("30", "20", "13.5", "10", "8", "7", "6", "5.5")),
        (55, 75, ("29", "19", "13", "9.5", "7.5", "6.5", "5.5", "5", "5")),
    ),
    "flat": (
        (1, 2, ("100",)),
        (3, 5, ("60", "40")),
        (6, 8, ("45", "33", "22")),
        (9, 13, ("38", "27", "20", "15")),
        (14, 19, ("33", "24", "18", "14", "11")),
        (20, 26, ("29", "21", "16", "13", "11", "10")),
        (27, 33, ("26", "19", "15", "12", "10", "9", "9")),
        (34, 40, ("24", "17", "14", "11", "9.5", "8.5", "8", "8")),
        (41, 55, ("22", "16", "13", "10.5", "9", "8", "7.5", "7", "7")),
    ),
    "winner-heavy": (
        (1, 5, ("100",)),
        (6, 10, ("70", "30")),
        (11, 20, ("55", "30", "15")),
        (21, 30, ("50", "27", "15", "8")),
        (31, 40, ("45", "25", "15", "9", "6")),
        (41, 50, ("42", "24", "15", "9", "6", "4")),
        (51, 75, ("40", "23", "14", "9", "6", "4.5", "3.5")),
    ),
}


@dataclass(frozen=True)
class _Curve:
    """Larger fields: ``paid`` of the entries are paid; the last place gets ``min_cash(E)``
    buy-ins and the others ``min + c / place**a`` with ``a`` growing with the places paid
    (bigger fields are steeper at the top)."""

    paid: float
    a0: float
    a_slope: float
    min_cash_top: float

    def exponent(self, places: int) -> float:
        return self.a0 + self.a_slope * math.log10(places)

    def min_cash(self, entries: int) -> float:
        """In buy-ins: about 1.5 in big fields, more in small ones (near the small tables)."""
        return max(1.5, self.min_cash_top - math.log10(entries))


_CURVES = {
    "standard": _Curve(paid=0.125, a0=0.6, a_slope=0.12, min_cash_top=4.5),
    "flat": _Curve(paid=0.18, a0=0.5, a_slope=0.12, min_cash_top=4.6),
    "winner-heavy": _Curve(paid=0.10, a0=0.85, a_slope=0.12, min_cash_top=4.3),
}

_BRACKET_STARTS = (
    76, 100, 125, 150, 200, 250, 300, 400, 500, 600, 700, 800, 1_000, 1_250, 1_500,
    2_000, 2_500, 3_000, 4_000, 5_000, 6_000, 7_500, 10_000,
)  # fmt: skip


def _band_size(place: int) -> int:
    """Places paid the same in big fields, as on printed payout tables."""
    if place <= 9:
        return 1
    if place <= 18:
        return 3
    if place <= 99:
        return 9
    if place <= 299:
        return 25
    if place <= 999:
        return 50
    return 100


def _curve_shares(curve: _Curve, entries: int, places: int) -> tuple[int, ...]:
    """Shares (millionths) for ``places`` paid out of ``entries``: non-increasing, banded,
    summing to 100 % (the rounding remainder goes to 1st)."""
    exponent = curve.exponent(places)
    floor_share = curve.min_cash(entries) * SHARE_SCALE / entries
    weights = [place**-exponent for place in range(1, places + 1)]
    excess = [w - weights[-1] for w in weights]
    scale = (SHARE_SCALE - places * floor_share) / sum(excess)
    ideal = [floor_share + scale * x for x in excess]
    shares: list[int] = []
    place = 1
    while place <= places:
        last = min(places, place + _band_size(place) - 1)
        band = ideal[place - 1 : last]
        shares.extend([math.floor(sum(band) / len(band))] * len(band))
        place = last + 1
    shares[0] += SHARE_SCALE - sum(shares)
    return tuple(shares)


def _template(name: str) -> PayoutStructure:
    small = _SMALL[name]
    brackets = [
        PayoutBracket(first, last, shares_from_percents(percents))
        for first, last, percents in small
    ]
    curve = _CURVES[name]
    after_small = small[-1][1] + 1
    starts = [after_small, *(s for s in _BRACKET_STARTS if s > after_small)]
    places = len(brackets[-1].shares)
    for index, first in enumerate(starts):
        last = starts[index + 1] - 1 if index + 1 < len(starts) else None
        places = max(round(first * curve.paid), places + 1)
        brackets.append(PayoutBracket(first, last, _curve_shares(curve, first, places)))
    return PayoutStructure(name, tuple(brackets))


PAYOUT_TEMPLATES: dict[str, PayoutStructure] = {
    name: _template(name) for name in ("standard", "flat", "winner-heavy")
}
"""Starting points a house copies and edits: ``standard`` pays about 12.5 % of the field,
``flat`` about 18 % with a smaller 1st prize, ``winner-heavy`` about 10 %."""

DEFAULT_TEMPLATE = "standard"
