"""Every house-rules parameter changes what some rule does (issue 31; docs/rules.md §0.3).

For each parameter: the tests that play a rule with a value other than the TDA profile's and
check what changes. This test holds the index honest: every parameter is listed; every test
named exists; and each names the parameter, plays a profile whose value differs, or shows the
`evidence` given (the domain's own name for the value, e.g. the chip race's "from_pool").
Parameters with a single choice fix their rule; their test plays it."""

import ast
import pathlib
import re

import pytest

from tourney.domain.house_rules_params import PARAMETER_CHOICES, PARAMETER_KEYS
from tourney.domain.house_rules_profiles import PROFILES

ROOT = pathlib.Path(__file__).resolve().parent.parent
EFFECTS = "tourney/test_house_rules_effects.py"
ABSENCE = "tourney/test_absence.py"
HOUSE = (
    "clocks/test_house_structure.py::test_the_settings_page_compares_the_structure_with_the_house"
)
CALLS = "tables/test_clock_calls.py::test_mirage_final_table_clock_is_60_seconds_then_check_without_a_bet"
LATE = "tables/test_floor_late_registration_api.py"
FLOOR = "tables/test_domain_floor.py"
RACE = "clocks/test_domain_chip_race.py::test_example_3_from_the_pool_seat_7_is_paid_first_and_not_dealt"
PENALTIES = "tourney/test_domain_penalties.py"

# parameter -> [(test under tests/, evidence regex or None)]
SHOWN_BY: dict[str, list[tuple[str, str | None]]] = {
    "level_minutes": [(HOUSE, None)],
    "break_every": [(HOUSE, None)],
    "break_minutes": [(HOUSE, None)],
    "after_last_level": [("clocks/test_structure_extend.py::test_the_structure_runs_out_and_the_tournament_plays_on", None)],
    "late_registration": [("tourney/test_late_registration.py::test_without_late_registration_entries_close_when_the_clock_starts", None)],
    "late_refund_levels": [("tourney/test_late_refund.py::test_a_late_entry_is_refunded_within_the_houses_levels", None)],
    "membership_required": [("tourney/test_membership.py::test_a_non_member_is_refused_until_his_membership_is_recorded", None)],
    "absent_policy": [(f"{ABSENCE}::test_the_policy_and_the_wait_decide_when_he_is_out", None)],
    "absent_eliminate_after_levels": [(f"{ABSENCE}::test_the_policy_and_the_wait_decide_when_he_is_out", None)],
    "live_checkpoint": [("tables/test_dealer_links.py::test_the_dealer_link_names_a_seat_away_and_the_houses_live_hand_rule", None)],
    "absent_bb_exception": [("tables/test_dealer_links.py::test_the_dealer_link_names_a_seat_away_and_the_houses_live_hand_rule", None)],
    "absent_itm_forfeit": [(f"{ABSENCE}::test_doyle_a_player_away_when_the_money_is_reached_wins_nothing", None)],
    "rebuy_declare_before_next_hand": [(f"{EFFECTS}::test_a_rebuy_after_the_next_hand", None)],
    "reentry_max": [("tourney/test_purchases.py::test_reentry_is_a_new_entry_with_a_new_seat_and_full_price", None)],
    "alternates_new_table": [(f"{LATE}::test_the_house_opens_a_broken_table_for_the_waiting_list", None)],
    "table_thresholds": [("tables/test_domain_seating.py::test_tables_needed_above_the_last_threshold_never_drops_below_its_table_count", None)],
    "seats_per_table": [(f"{LATE}::test_six_max_final_table_forms_seven_handed_in_every_profile", None)],
    "single_table_seats": [("tables/test_domain_seating.py::test_tables_needed_above_the_last_threshold_never_drops_below_its_table_count", None)],
    "button_draw": [(f"{LATE}::test_a_table_opened_for_a_late_entry_draws_for_its_button", None)],
    "dead_button": [("tables/test_moving_button.py::test_the_button_after_the_small_blind_busts", None)],
    "not_dealt": [(f"{FLOOR}::test_moved_player_sitting_out_under_doyles_rule", None)],
    "balance_threshold": [(f"{FLOOR}::test_rules_5_example_2_ten_ten_seven", None)],
    "halt_threshold": [("tables/test_domain_late_registration_floor.py::test_the_planner_forms_a_seven_handed_final_table_from_two_tables_of_four", None)],
    "source_tiebreak": [(f"{FLOOR}::test_source_and_destination_ties", r"source_order=\"highest_first\"")],
    "late_reg_hold": [(f"{LATE}::test_the_house_holds_table_breaks_while_late_registration_is_open", None)],
    "break_order": [(f"{FLOOR}::test_break_order_choices", None)],
    "break_tiebreak": [(f"{FLOOR}::test_rules_6_example_2_six_six_six_highest_first", None)],
    "final_table_size": [(f"{FLOOR}::test_rules_7_example_2_doyle_final_table_at_ten", None)],
    "short_handed_final_table_size": [(f"{LATE}::test_short_handed_final_table_size_is_a_house_rule_the_tournament_overrides", None)],
    "ft_redraw": [(f"{FLOOR}::test_final_table_without_redraw_breaks_down_to_one_table", None)],
    "color_up_method": [("clocks/test_color_ups.py::test_example_1_round_up_to_500", r"method=\"round_up\"")],
    "race_rounding": [("clocks/test_color_ups.py::test_example_4_rounding_of_the_race_chips", None)],
    "zero_stack_chip": [(RACE, r"\"from_pool\"")],
    "race_start_seat": [(RACE, r"EXAMPLE_HELD, 5,")],
    "clock_min_elapsed_seconds": [(CALLS, None)],
    "clock_seconds": [(f"{EFFECTS}::test_the_clock_calls_time_and_expiry", None)],
    "ft_clock_seconds": [(CALLS, None)],
    "countdown_seconds": [("tables/test_clock_calls.py::test_tda_clock_has_a_closing_countdown_and_expires", r"countdown_seconds")],
    "expiry_no_bet": [(f"{EFFECTS}::test_the_clock_calls_time_and_expiry", None)],
    "round_size": [(f"{PENALTIES}::test_example_1_nine_players_two_rounds_is_18_hands", None)],
    "fixed_hands": [(f"{PENALTIES}::test_missed_hands_uses_the_house_fixed_hands_unless_given", None)],
    "penalty_rounds_max": [(f"{PENALTIES}::test_the_rounds_maximum_is_inclusive_and_named_in_the_message", r"rounds_max=4")],
    "dq_forfeits_prize": [("tourney/test_domain_results.py::test_a_disqualified_player_forfeits_and_nobody_else_gets_more", None)],
    "dealer_penalties": [("tables/test_dealer_links.py::test_a_dealer_penalises_from_his_link_only_where_the_house_allows_it", None)],
    "penalty_follows_moves": [("tourney/test_penalties.py::test_a_house_whose_penalty_does_not_follow_moves_ends_it_at_the_move", None)],
    "penalty_seconds_per_hand": [(f"{PENALTIES}::test_time_estimate_when_the_table_does_not_report", r"penalty_time_estimate\(3, 100\.5\)")],
    "same_hand_order": [("tourney/test_domain_places.py::test_example_2_equal_stacks_tie_and_split_14th_and_15th", None)],
    "equal_stack": [("tourney/test_payouts_api.py::test_rules_11_example_2_equal_stacks_share_14th_and_15th", None)],
    "h4h_mode": [("tables/test_hand_for_hand.py::test_wsop_mode_orders_busts_at_one_table_by_stack", None)],
    "h4h_seconds_per_hand": [(f"{EFFECTS}::test_each_hand_for_hand_hand_takes_the_houses_time_off", None)],
    "money_rounding": [("tourney/test_payouts_api.py::test_payouts_follow_the_entries_and_sum_to_the_pool", None)],
    "cancel_settlement": [("tourney/test_cancelling.py::test_after_the_start_each_settlement_balances_the_ledger", r"\"equal\"")],
    "flight_survivor": [("tourney/test_festival.py::test_refuse_after_bag_keeps_a_bagged_player_out_of_later_flights", None)],
    "day2_draw": [("tourney/test_domain_festival.py::test_worked_example_the_biggest_stacks_sit_at_different_tables", r"draw_spread")],
}  # fmt: skip


def _sources() -> dict[str, str]:
    """Every test function's source, its decorators included (parametrized values count)."""
    found = {}
    for path in ROOT.rglob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        lines = text.splitlines()
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                key = f"{path.relative_to(ROOT).as_posix()}::{node.name}"
                found[key] = "\n".join(lines[first - 1 : node.end_lineno])
    return found


SOURCES = _sources()
ONE_CHOICE = {k for k, choices in PARAMETER_CHOICES.items() if len(choices) == 1}


def _differing_profiles(param: str) -> set[str]:
    tda = getattr(PROFILES["tda2024"].rules, param)
    return {key for key, p in PROFILES.items() if getattr(p.rules, param) != tda}


def test_every_parameter_is_listed():
    assert list(SHOWN_BY) == list(PARAMETER_KEYS)
    assert {"button_draw", "round_size", "same_hand_order", "equal_stack"} == ONE_CHOICE


@pytest.mark.parametrize("param", PARAMETER_KEYS)
def test_each_plays_a_value_other_than_the_tdas(param):
    profiles = _differing_profiles(param)
    for name, evidence in SHOWN_BY[param]:
        assert name in SOURCES, f"{param}: there is no test {name}"
        body = SOURCES[name]
        shown = (
            re.search(rf"\b{param}\b", body)
            or any(f'"{p}"' in body for p in profiles)
            or (evidence is not None and re.search(evidence, body))
        )
        assert shown or param in ONE_CHOICE, f"{param}: {name} plays only the TDA's value"
