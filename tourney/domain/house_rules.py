"""House-rules parameters and the named profiles (docs/rules.md, "Profile values" of each section).

A :class:`HouseRules` value holds every configurable rule parameter of docs/rules.md
(house_rules_params.py: the parameters, their bounds and their validation). A tournament picks
a profile (``tda2024`` or one of the five rooms; house_rules_profiles.py) and may override any
value; :func:`resolve_house_rules` merges and validates the two. Pure Python: no Django imports.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping

from tourney.domain.house_rules_params import (
    INT_BOUNDS,
    INVALID_HOUSE_RULE,
    PARAMETER_CHOICES,
    PARAMETER_KEYS,
    UNKNOWN_HOUSE_RULES,
    AbsentPolicy,
    BreakOrder,
    ButtonDraw,
    ColorUpMethod,
    EqualStack,
    ExpiryNoBet,
    H4HMode,
    HouseRules,
    HouseRulesError,
    LiveCheckpoint,
    NotDealt,
    RaceRounding,
    RoundSize,
    SameHandOrder,
    TableOrder,
    ZeroStackChip,
    describe,
    final_table_players,
)
from tourney.domain.house_rules_profiles import DEFAULT_PROFILE, PROFILES, HouseRulesProfile

__all__ = [
    "DEFAULT_PROFILE",
    "INT_BOUNDS",
    "PARAMETER_CHOICES",
    "PARAMETER_KEYS",
    "PROFILES",
    "AbsentPolicy",
    "BreakOrder",
    "ButtonDraw",
    "ColorUpMethod",
    "EqualStack",
    "ExpiryNoBet",
    "H4HMode",
    "HouseRules",
    "HouseRulesError",
    "HouseRulesProfile",
    "LiveCheckpoint",
    "NotDealt",
    "RaceRounding",
    "RoundSize",
    "SameHandOrder",
    "TableOrder",
    "ZeroStackChip",
    "describe",
    "final_table_players",
    "resolve_house_rules",
]


# --- Resolution ---------------------------------------------------------------------------------


def resolve_house_rules(
    profile_key: str, overrides: Mapping[str, object] | None = None
) -> HouseRules:
    """The profile's rules with ``overrides`` applied and validated.

    Accepts JSON-style input (a list for ``table_thresholds``). Raises
    :class:`HouseRulesError` for an unknown profile, an unknown parameter or a bad value.
    """
    profile = PROFILES.get(profile_key) if isinstance(profile_key, str) else None
    if profile is None:
        known = ", ".join(PROFILES)
        raise HouseRulesError(
            UNKNOWN_HOUSE_RULES,
            f"Unknown house-rules profile {profile_key!r}; expected one of: {known}.",
        )
    if not overrides:
        return profile.rules
    changes: dict[str, object] = {}
    for name, value in overrides.items():
        if name not in PARAMETER_KEYS:
            close = difflib.get_close_matches(str(name), PARAMETER_KEYS, n=1)
            hint = f"; did you mean '{close[0]}'?" if close else "."
            raise HouseRulesError(
                INVALID_HOUSE_RULE, f"Unknown house rule {name!r}{hint}", str(name)
            )
        if name == "table_thresholds" and isinstance(value, list):
            value = tuple(value)
        changes[name] = value
    return dataclasses.replace(profile.rules, **changes)
