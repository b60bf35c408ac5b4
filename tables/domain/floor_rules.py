"""The house rules as the seat draw and the floor's planner read them (docs/rules.md §3, §5-§7)."""

from tables.domain.floor_field import FloorRules
from tables.domain.seating import SeatingRules
from tourney.domain.house_rules_params import HouseRules, final_table_players


def seating_rules(rules: HouseRules) -> SeatingRules:
    return SeatingRules(
        table_thresholds=rules.table_thresholds,
        seats_per_table=rules.seats_per_table,
        single_table_seats=rules.single_table_seats,
    )


def floor_rules(rules: HouseRules) -> FloorRules:
    return FloorRules(
        balance_threshold=rules.balance_threshold,
        halt_threshold=rules.halt_threshold,
        source_order=rules.source_tiebreak,
        break_order=rules.break_order,
        break_tiebreak=rules.break_tiebreak,
        final_table_size=final_table_players(rules),
        seating=seating_rules(rules),
        not_dealt=rules.not_dealt,
        ft_redraw=rules.ft_redraw,
    )
