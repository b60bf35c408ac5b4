"""What the pages call each house rule and each of its choices (docs/rules.md sections 1-11), in
the reader's language. The parameters themselves are in `tourney.domain.house_rules`."""

from django.utils.translation import gettext_lazy as _

SECTIONS = (
    (
        _("Levels and breaks"),
        ("level_minutes", "break_every", "break_minutes", "after_last_level"),
    ),
    (
        _("Registration, absence and re-entry"),
        (
            "absent_policy",
            "absent_eliminate_after_levels",
            "live_checkpoint",
            "absent_bb_exception",
            "absent_itm_forfeit",
            "rebuy_declare_before_next_hand",
            "reentry_max",
            "alternates_new_table",
        ),
    ),
    (
        _("Tables and the seat draw"),
        ("table_thresholds", "seats_per_table", "single_table_seats", "button_draw"),
    ),
    (_("Button and blinds"), ("dead_button", "not_dealt")),
    (
        _("Balancing"),
        ("balance_threshold", "halt_threshold", "source_tiebreak", "late_reg_hold"),
    ),
    (_("Breaking tables"), ("break_order", "break_tiebreak")),
    (
        _("Final table"),
        ("final_table_size", "short_handed_final_table_size", "ft_redraw"),
    ),
    (
        _("Color-up and chip race"),
        ("color_up_method", "race_rounding", "zero_stack_chip", "race_start_seat"),
    ),
    (
        _("Calling the clock"),
        (
            "clock_min_elapsed_seconds",
            "clock_seconds",
            "ft_clock_seconds",
            "countdown_seconds",
            "expiry_no_bet",
        ),
    ),
    (
        _("Penalties"),
        (
            "round_size",
            "fixed_hands",
            "penalty_rounds_max",
            "dq_forfeits_prize",
            "penalty_follows_moves",
            "penalty_seconds_per_hand",
        ),
    ),
    (
        _("Places, hand-for-hand and payouts"),
        ("same_hand_order", "equal_stack", "h4h_mode", "h4h_seconds_per_hand", "money_rounding"),
    ),
)

LABELS = {
    "level_minutes": _("Level length (minutes)"),
    "break_every": _("A break after every … levels"),
    "break_minutes": _("Break length (minutes)"),
    "after_last_level": _("The clock after the last level"),
    "absent_policy": _("Absent players"),
    "absent_eliminate_after_levels": _("Levels an absent player may miss"),
    "live_checkpoint": _("A hand is live for a player seated by"),
    "absent_bb_exception": _("An absent player's big blind hand stays live"),
    "absent_itm_forfeit": _("Absent when reaching the money forfeits the prize"),
    "rebuy_declare_before_next_hand": _("A rebuy is declared before the next hand"),
    "reentry_max": _("Re-entries per player"),
    "alternates_new_table": _("Open a table for the waiting list when this many wait"),
    "table_thresholds": _("Players for 1, 2, 3 … tables"),
    "seats_per_table": _("Seats per table"),
    "single_table_seats": _("Seats when one table holds the field"),
    "button_draw": _("First button"),
    "dead_button": _("Dead button"),
    "not_dealt": _("A new player sits out"),
    "balance_threshold": _("Balance when tables differ by"),
    "halt_threshold": _("Halt a table this many players short"),
    "source_tiebreak": _("Move from equal tables"),
    "late_reg_hold": _("Hold table breaks and extra balancing during late registration"),
    "break_order": _("Which table breaks first"),
    "break_tiebreak": _("Fixed order of tables"),
    "final_table_size": _("Final table size"),
    "short_handed_final_table_size": _("Final table size with 7 or fewer seats a table"),
    "ft_redraw": _("Redraw seats at the final table"),
    "color_up_method": _("Color-up"),
    "race_rounding": _("Chip race rounding"),
    "zero_stack_chip": _("A player raced to zero gets a chip"),
    "race_start_seat": _("Chip race starts at seat"),
    "clock_min_elapsed_seconds": _("Time before a clock may be called (seconds)"),
    "clock_seconds": _("Time to act on a called clock (seconds)"),
    "ft_clock_seconds": _("… at the final table (seconds)"),
    "countdown_seconds": _("Final countdown (seconds)"),
    "expiry_no_bet": _("Time runs out without a bet to face"),
    "round_size": _("Hands in a penalty round"),
    "fixed_hands": _("Fixed missed-hands penalty (hands)"),
    "penalty_rounds_max": _("Most penalty rounds"),
    "dq_forfeits_prize": _("A disqualified player forfeits the prize"),
    "penalty_follows_moves": _("A penalty follows a moved player"),
    "penalty_seconds_per_hand": _("Seconds per hand for penalty estimates"),
    "same_hand_order": _("Out in the same hand: order by"),
    "equal_stack": _("Out in the same hand with equal stacks"),
    "h4h_mode": _("Hand-for-hand"),
    "h4h_seconds_per_hand": _("Seconds off the clock per hand-for-hand hand"),
    "money_rounding": _("Prizes rounded to (currency units)"),
}

CHOICES = {
    "count_up": _("Counts the time played since"),
    "zero": _("Stays at 0:00"),
    "blind_off": _("Blinded off"),
    "eliminate": _("Eliminated after a wait"),
    "first_card": _("the first card"),
    "initial_deal_done": _("the end of the deal"),
    "first_bet_round": _("the first betting round"),
    "high_card": _("High card draw"),
    "between_btn_sb": _("Between button and small blind"),
    "sb_or_btn_seat": _("In the small blind or button seat"),
    "lowest_first": _("Lowest number first"),
    "highest_first": _("Highest number first"),
    "random": _("At random"),
    "fewest_players": _("Fewest players"),
    "fixed_list": _("By the fixed order"),
    "round_up": _("Round every stack up"),
    "race": _("Chip race"),
    "half_up": _("Half up"),
    "up": _("Up"),
    "down": _("Down"),
    "extra": _("An extra chip"),
    "from_pool": _("From the race pool"),
    "check": _("Check"),
    "fold": _("Fold"),
    "players_at_table_incl_offender": _("Players at the table, offender included"),
    "start_stack": _("Stack at the start of the hand"),
    "tie_split": _("They tie and split"),
    "tda_rp8": _("TDA RP-8"),
    "wsop": _("WSOP (busts at different tables tie)"),
}


def rule_value_text(key: str, value) -> str:
    """A rule's value as the page shows it (a choice by its name, yes/no, a list)."""
    if value is None:
        return str(_("none"))
    if isinstance(value, bool):
        return str(_("Yes") if value else _("No"))
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, str):
        return str(CHOICES.get(value, value))
    return str(value)
