"""House-rules profiles and override resolution (docs/rules.md §0.3 and each section's "Profile
values")."""

from __future__ import annotations

import dataclasses
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.house_rules import resolve_house_rules
from tourney.domain.house_rules_params import (
    INT_BOUNDS,
    PARAMETER_CHOICES,
    PARAMETER_KEYS,
    HouseRules,
    HouseRulesError,
    describe,
)
from tourney.domain.house_rules_profiles import DEFAULT_PROFILE, PROFILES

PROFILE_KEYS = ("tda2024", "mirage", "doyle", "veszprem", "rimoc", "atlas")


def test_exactly_the_expected_profiles_exist() -> None:
    assert set(PROFILES) == set(PROFILE_KEYS)
    assert DEFAULT_PROFILE == "tda2024"
    assert PROFILES["tda2024"].name == "TDA 2024"


@pytest.mark.parametrize("key", PROFILE_KEYS)
def test_every_profile_resolves_to_its_rules(key: str) -> None:
    profile = PROFILES[key]
    assert profile.key == key
    assert resolve_house_rules(key, {}) == profile.rules
    assert resolve_house_rules(key, {}) is profile.rules
    assert set(profile.notes) <= set(PARAMETER_KEYS)
    assert all(reason for reason in profile.notes.values())


@pytest.mark.parametrize("key", PROFILE_KEYS)
def test_describe_is_json_and_round_trips(key: str) -> None:
    rules = PROFILES[key].rules
    described = describe(rules)
    assert list(described) == list(PARAMETER_KEYS)
    decoded = json.loads(json.dumps(described))
    assert decoded == described
    assert resolve_house_rules(key, decoded) == rules
    assert resolve_house_rules(DEFAULT_PROFILE, decoded) == rules


def test_parameter_keys_are_the_dataclass_fields() -> None:
    assert tuple(f.name for f in dataclasses.fields(HouseRules)) == PARAMETER_KEYS
    assert len(PARAMETER_KEYS) == len(set(PARAMETER_KEYS)) == 54


@pytest.mark.parametrize("key", [k for k in PROFILE_KEYS if k != "tda2024"])
def test_seed_profiles_note_every_parameter_taken_from_tda(key: str) -> None:
    tda = PROFILES["tda2024"].rules
    profile = PROFILES[key]
    for name in PARAMETER_KEYS:
        if getattr(profile.rules, name) != getattr(tda, name):
            assert profile.notes.get(name, "") != "seed silent; TDA default", name


def test_tda_2024_values() -> None:
    rules = PROFILES["tda2024"].rules
    assert rules.live_checkpoint == "initial_deal_done"
    assert rules.absent_policy == "blind_off"
    assert rules.seats_per_table == 9
    assert rules.single_table_seats == 10
    assert rules.table_thresholds is None
    assert rules.dead_button is True
    assert rules.not_dealt == "between_btn_sb"
    assert rules.halt_threshold == 3
    assert rules.final_table_size == 9
    assert rules.color_up_method == "race"
    assert rules.zero_stack_chip == "extra"
    assert rules.race_start_seat == 1
    assert (rules.clock_seconds, rules.ft_clock_seconds, rules.countdown_seconds) == (25, 25, 5)
    assert rules.expiry_no_bet == "check"
    assert rules.h4h_mode == "tda_rp8"
    assert rules.h4h_seconds_per_hand == 120


def test_rimoc_values() -> None:
    rules = PROFILES["rimoc"].rules
    assert rules.table_thresholds == (10, 18, 27)
    assert rules.balance_threshold == 3
    assert rules.break_order == "fewest_players"
    assert rules.final_table_size == 9
    assert rules.absent_policy == "eliminate"
    assert rules.absent_eliminate_after_levels == 1
    assert rules.absent_bb_exception is False
    assert (rules.level_minutes, rules.break_every) == (15, 4)
    assert "break_minutes" in PROFILES["rimoc"].notes
    assert describe(rules)["table_thresholds"] == [10, 18, 27]


def test_doyle_values() -> None:
    rules = PROFILES["doyle"].rules
    assert rules.final_table_size == 10
    assert rules.color_up_method == "round_up"
    assert rules.not_dealt == "sb_or_btn_seat"
    assert (rules.clock_seconds, rules.countdown_seconds) == (30, 10)
    assert rules.absent_itm_forfeit is True
    assert rules.penalty_rounds_max == 4


def test_mirage_values() -> None:
    rules = PROFILES["mirage"].rules
    assert (rules.clock_seconds, rules.ft_clock_seconds) == (30, 60)
    assert rules.clock_min_elapsed_seconds == 90
    assert rules.expiry_no_bet == "check"
    assert rules.fixed_hands == 3
    assert rules.live_checkpoint == "first_card"


def test_veszprem_values() -> None:
    rules = PROFILES["veszprem"].rules
    assert (rules.clock_seconds, rules.ft_clock_seconds) == (60, 60)
    assert rules.ft_redraw is True
    assert rules.not_dealt == "between_btn_sb"
    assert rules.penalty_rounds_max == 3


def test_atlas_values() -> None:
    rules = PROFILES["atlas"].rules
    assert rules.absent_bb_exception is True
    assert rules.live_checkpoint == "first_bet_round"
    assert rules.dq_forfeits_prize is True
    assert "round_size" in PROFILES["atlas"].notes


def test_overrides_apply_and_leave_the_rest() -> None:
    rules = resolve_house_rules(
        "rimoc",
        {
            "balance_threshold": 2,
            "table_thresholds": [9, 18],
            "color_up_method": "round_up",
            "fixed_hands": None,
            "ft_redraw": False,
        },
    )
    assert rules.balance_threshold == 2
    assert rules.table_thresholds == (9, 18)
    assert rules.color_up_method == "round_up"
    assert rules.ft_redraw is False
    assert rules.final_table_size == PROFILES["rimoc"].rules.final_table_size
    assert PROFILES["rimoc"].rules.balance_threshold == 3  # the profile is untouched


def test_table_thresholds_can_be_cleared_and_given_as_tuple() -> None:
    assert resolve_house_rules("rimoc", {"table_thresholds": None}).table_thresholds is None
    rules = resolve_house_rules("tda2024", {"table_thresholds": (10, 18)})
    assert rules.table_thresholds == (10, 18)


def _error(profile: str, overrides: dict[str, object]) -> HouseRulesError:
    with pytest.raises(HouseRulesError) as caught:
        resolve_house_rules(profile, overrides)
    return caught.value


@pytest.mark.parametrize("profile", ["", "TDA2024", "tda", "unknown", "Mirage"])
def test_unknown_profile(profile: str) -> None:
    error = _error(profile, {})
    assert error.code == "unknown_house_rules"
    assert isinstance(error, ValueError)
    assert repr(profile) in str(error)


def test_unknown_field() -> None:
    error = _error("tda2024", {"clock_second": 30})
    assert error.code == "invalid_house_rule"
    assert error.field == "clock_second"
    assert "'clock_second'" in str(error)
    assert "clock_seconds" in str(error)  # suggestion


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("clock_seconds", "30"),
        ("clock_seconds", 30.0),
        ("clock_seconds", True),
        ("clock_seconds", 0),
        ("clock_seconds", None),
        ("level_minutes", -15),
        ("balance_threshold", 1),
        ("reentry_max", -1),
        ("h4h_seconds_per_hand", 181),
        ("fixed_hands", 0),
        ("penalty_seconds_per_hand", 5),
        ("penalty_rounds_max", "3"),
        ("absent_policy", "eliminate_after_levels:1"),
        ("absent_policy", None),
        ("color_up_method", "Race"),
        ("break_order", 1),
        ("dead_button", "true"),
        ("dead_button", 1),
        ("table_thresholds", []),
        ("table_thresholds", [10, 10, 27]),
        ("table_thresholds", [18, 10]),
        ("table_thresholds", [0, 9]),
        ("table_thresholds", [10, "18"]),
        ("table_thresholds", [10, True]),
        ("table_thresholds", "10,18,27"),
        ("table_thresholds", [10, 18, 28]),  # 28 cannot sit at 3 tables of 9
        ("final_table_size", 11),  # larger than any table
        ("race_start_seat", 11),
        ("seats_per_table", 1),
    ],
)
def test_bad_values_are_rejected(name: str, value: object) -> None:
    error = _error("tda2024", {name: value})
    assert error.code == "invalid_house_rule"
    assert error.field == name
    assert f"'{name}'" in str(error)


def test_cross_field_error_names_the_dependent_field() -> None:
    error = _error("rimoc", {"seats_per_table": 8})
    assert error.code == "invalid_house_rule"
    assert error.field == "table_thresholds"


def test_direct_construction_is_validated() -> None:
    with pytest.raises(HouseRulesError) as caught:
        dataclasses.replace(PROFILES["tda2024"].rules, not_dealt="anywhere")
    assert caught.value.field == "not_dealt"


def test_choice_values_all_resolve() -> None:
    for name, choices in PARAMETER_CHOICES.items():
        for choice in choices:
            assert getattr(resolve_house_rules("tda2024", {name: choice}), name) == choice


# Ranges valid against every profile, so cross-field rules (table sizes, thresholds) hold.
_PROFILE_SAFE_RANGES = {
    "seats_per_table": (9, 30),
    "single_table_seats": (10, 30),
    "final_table_size": (2, 10),
    "short_handed_final_table_size": (2, 10),
    "race_start_seat": (1, 10),
}


@st.composite
def _int_override(draw: st.DrawFn) -> tuple[str, str, int]:
    profile = draw(st.sampled_from(PROFILE_KEYS))
    name = draw(st.sampled_from(sorted(INT_BOUNDS)))
    low, high = _PROFILE_SAFE_RANGES.get(name, INT_BOUNDS[name])
    value = draw(st.integers(min_value=low, max_value=high if high is not None else 10**6))
    return profile, name, value


@given(_int_override())
def test_any_valid_int_override_round_trips(case: tuple[str, str, int]) -> None:
    profile, name, value = case
    rules = resolve_house_rules(profile, {name: value})
    assert getattr(rules, name) == value
    described = describe(rules)
    assert described[name] == value
    assert resolve_house_rules(profile, json.loads(json.dumps(described))) == rules


@given(
    st.sampled_from(sorted(INT_BOUNDS)),
    st.one_of(st.integers(max_value=-1), st.booleans(), st.floats(), st.text(max_size=3)),
)
def test_invalid_int_overrides_raise(name: str, value: object) -> None:
    error = _error("tda2024", {name: value})
    assert error.code == "invalid_house_rule"
    assert error.field == name
