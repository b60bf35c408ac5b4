"""The integer and text types every API input schema is made of.

Each integer is bounded by what its column holds (PostgreSQL `integer` is 32-bit, `bigint`
64-bit; out of range it raised, or with server-side binding was silently truncated) and by
what the floor can mean (a table number, a seat, a level). Booleans are not numbers: JSON
`true` is refused where an integer is expected (pydantic would read it as 1). Text refuses
NUL and other control characters (PostgreSQL cannot store NUL); only multi-line text keeps
tabs and line breaks.
"""

import json
import math
import re
import unicodedata
from typing import Annotated, Any, get_args

from ninja import Schema
from pydantic import AfterValidator, BeforeValidator, ConfigDict, Field

INT32_MAX = 2**31 - 1
INT64_MAX = 2**63 - 1
# One price, fee, payment or prize, in the currency's unit: a 25,000-entry event at this price
# still sums far inside 64 bits.
MONEY_MAX = 10**12
# A prize pool, a guarantee or an amount shared in a deal.
POOL_MAX = 10**15
# A stack, a blind, an ante or a chip's value (all the chips in play fit).
CHIPS_MAX = 10**15
TABLE_MAX = 9_999
SEAT_MAX = 12
# The players busted in one hand: one table's seats at most.
ELIMINATIONS_MAX = SEAT_MAX
ENTRIES_MAX = 100_000
LEVEL_MAX = 1_000
# Re-entries per player, rebuys per entry.
PURCHASES_MAX = 1_000
HANDS_MAX = 10_000
# A penalty's or a ban's reason; a ban of days.
REASON_MAX = 300
BAN_DAYS_MAX = 36_500
# One period, a clock adjustment or a call: a day at most.
SECONDS_MAX = 86_400
# Instants in milliseconds since 1970, up to the end of year 9999.
MS_MAX = 253_402_300_799_999


def _not_bool(value: Any) -> Any:
    if isinstance(value, bool):
        raise ValueError("a number is expected, not true or false")
    return value


def bounded(ge: int, le: int) -> Any:
    """An integer type in [ge, le] that refuses booleans (usable as a field's annotation)."""
    return Annotated[int, Field(ge=ge, le=le), BeforeValidator(_not_bool)]


Id = bounded(1, INT64_MAX)
Int32 = bounded(-INT32_MAX - 1, INT32_MAX)
Count32 = bounded(0, INT32_MAX)
Money = bounded(0, MONEY_MAX)
PoolMoney = bounded(0, POOL_MAX)
SignedMoney = bounded(-POOL_MAX, POOL_MAX)
Chips = bounded(0, CHIPS_MAX)
ChipValue = bounded(1, CHIPS_MAX)
TableNumber = bounded(1, TABLE_MAX)
SeatNumber = bounded(1, SEAT_MAX)
Level = bounded(1, LEVEL_MAX)
# A late-registration level: 0 is the start itself (registration closes when the clock starts).
LevelFromStart = bounded(0, LEVEL_MAX)
PeriodIndex = bounded(0, LEVEL_MAX)
Hands = bounded(0, HANDS_MAX)
Entries = bounded(1, ENTRIES_MAX)
Seconds = bounded(0, SECONDS_MAX)
Instant = bounded(0, MS_MAX)
Version = bounded(0, INT32_MAX)
TableSeats = bounded(2, SEAT_MAX)
Purchases = bounded(0, PURCHASES_MAX)


def type_bounds(kind: Any) -> tuple[int, int]:
    """The (ge, le) of an integer type made by `bounded`, so a page's form field takes exactly
    what the API's schema takes (infra/web/form_fields.py)."""
    for meta in get_args(kind)[1:]:
        for rule in getattr(meta, "metadata", ()):
            if hasattr(rule, "ge"):
                low = rule.ge
            if hasattr(rule, "le"):
                high = rule.le
    return low, high


SEPARATORS = re.compile(r"[\s,.'\u00a0\u202f]")


def whole_number(value: str | None, most: int = INT64_MAX, least: int = 0) -> int | None:
    """A whole number in [least, most] as a person types it ("12 000", "12,000", "12.000"),
    else None. Only ASCII digits count: "²" is a digit to `str.isdigit`, not to `int`; and a
    number past `most` (by default the API's Id, a 64-bit column) is no number, so that a query
    string never reaches the database with what it cannot hold."""
    cleaned = SEPARATORS.sub("", value or "")
    if not (cleaned.isascii() and cleaned.isdigit()) or len(cleaned) > 30:
        return None
    number = int(cleaned)
    return number if least <= number <= most else None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _finite_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):  # 1e999999 reads as infinity
        raise ValueError(f"{text[:20]} is out of range")
    return value


def json_loads(raw: str | bytes) -> Any:
    """JSON as every face reads it: NaN, Infinity and numbers that overflow to them are refused,
    as are integers of more than 4,300 digits (Python's limit); each refusal is a ValueError
    (json.JSONDecodeError is one), a nesting deeper than the stack a RecursionError."""
    return json.loads(raw, parse_constant=_refuse_constant, parse_float=_finite_float)


def bad_character(text: str, multiline: bool = False) -> str | None:
    """The first character text may not hold (control or lone surrogate), else None."""
    allowed = "\t\n\r" if multiline else ""
    for char in text:
        if char in allowed:
            continue
        if unicodedata.category(char) in ("Cc", "Cs"):
            return char
    return None


def _line(value: str) -> str:
    if bad_character(value) is not None:
        raise ValueError("control characters are not allowed")
    return value


def _text(value: str) -> str:
    if bad_character(value, multiline=True) is not None:
        raise ValueError("control characters other than tabs and line breaks are not allowed")
    return value


Line = Annotated[str, AfterValidator(_line)]
Text = Annotated[str, AfterValidator(_text)]


class BodyIn(Schema):
    """A request body: a field it does not know is refused (422 naming it), never dropped, so a
    mistyped money field ({"buyin": 5000}) cannot pass as a request that changed nothing."""

    model_config = ConfigDict(extra="forbid")
