"""The named house-rules profiles: ``tda2024`` (the default) and the five rooms'
(docs/rules.md, "Profile values" of each section), each with notes where its source is silent
or had to be interpreted. Pure Python."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass

from tourney.domain.house_rules_params import PARAMETER_KEYS, HouseRules

# --- Profiles -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HouseRulesProfile:
    """A named set of house rules; ``notes`` maps a parameter to why it has its value where
    the source is silent or had to be interpreted."""

    key: str
    name: str
    source: str
    rules: HouseRules
    notes: dict[str, str] = dataclasses.field(default_factory=dict)


DEFAULT_PROFILE = "tda2024"

SEED_SILENT = "seed silent; TDA default"

_TDA_2024 = HouseRules(
    # 1
    level_minutes=15,
    break_every=4,
    break_minutes=10,
    after_last_level="count_up",
    # 2
    late_registration=True,
    late_refund_levels=1,
    membership_required=False,
    absent_policy="blind_off",
    absent_eliminate_after_levels=1,
    live_checkpoint="initial_deal_done",
    absent_bb_exception=False,
    absent_itm_forfeit=False,
    rebuy_declare_before_next_hand=True,
    reentry_max=0,
    alternates_new_table=None,
    # 3
    table_thresholds=None,
    seats_per_table=9,
    single_table_seats=10,
    button_draw="high_card",
    # 4
    dead_button=True,
    not_dealt="between_btn_sb",
    # 5
    balance_threshold=2,
    halt_threshold=3,
    source_tiebreak="lowest_first",
    late_reg_hold=False,
    # 6
    break_order="fixed_list",
    break_tiebreak="highest_first",
    # 7
    final_table_size=9,
    short_handed_final_table_size=7,
    ft_redraw=True,
    # 8
    color_up_method="race",
    race_rounding="half_up",
    zero_stack_chip="extra",
    race_start_seat=1,
    # 9
    clock_min_elapsed_seconds=0,
    clock_seconds=25,
    ft_clock_seconds=25,
    countdown_seconds=5,
    expiry_no_bet="check",
    # 10
    round_size="players_at_table_incl_offender",
    fixed_hands=None,
    penalty_rounds_max=None,
    dq_forfeits_prize=True,
    dealer_penalties=False,
    penalty_follows_moves=True,
    penalty_seconds_per_hand=120,
    # 11
    same_hand_order="start_stack",
    equal_stack="tie_split",
    h4h_mode="tda_rp8",
    h4h_seconds_per_hand=120,
    money_rounding=1,
    cancel_settlement="chip_count",
    # 15
    flight_survivor="keep_bigger",
    day2_draw="random",
)

_TDA_NOTES = {
    "level_minutes": "TDA sets no structure; Rimóc's 15 minutes (docs/rules.md §1.7)",
    "break_every": "TDA sets no structure; Rimóc's every 4 levels (docs/rules.md §1.7)",
    "break_minutes": "[INF] no source gives a break length",
    "after_last_level": "[INF] no source says what the clock shows past the last level",
    "absent_eliminate_after_levels": "only used with absent_policy='eliminate' (Rimóc: 1)",
    "rebuy_declare_before_next_hand": (
        "TDA 27 (a declared rebuy must be completed); docs/rules.md §2.5"
    ),
    "reentry_max": "[INF] no source sets a limit; 0 = re-entry off until the event enables it",
    "late_refund_levels": "[INF] no source; a late entry made by mistake goes back in its level",
    "alternates_new_table": (
        "TDA 8-A seats alternates from the seat pool; no source opens tables for them; [INF] "
        "off (docs/rules.md §2.1)"
    ),
    "late_reg_hold": (
        "[INF] the TDA leaves it to the house (11-D: tables 'more tightly balanced' as the "
        "event progresses); off (docs/rules.md §5.10)"
    ),
    "table_thresholds": "TDA has no table-count rule; [INF] ceil(n / seats_per_table)",
    "button_draw": "TDA has no button-draw rule; high card as at Veszprém and Atlas",
    "balance_threshold": (
        "[INF] TDA sets no trigger; tables kept within one player ('more tightly balanced', 11-D)"
    ),
    "source_tiebreak": "TDA 11-C 'predetermined procedure'; [INF] lowest table number first",
    "break_order": "TDA has no break-order rule; published fixed order (docs/rules.md §6.2)",
    "break_tiebreak": "[INF] highest table number first (Triton, docs/rules.md §6.7 example 2)",
    "short_handed_final_table_size": (
        "RP-9: 7- and 6-handed events go to a 7-handed final table (docs/rules.md §7.1)"
    ),
    "ft_redraw": "TDA 2024 has no redraw rule; [INF] redraw as at Veszprém and Triton",
    "race_rounding": "TDA 2024 silent; [INF] half up (RRoP)",
    "clock_min_elapsed_seconds": "TDA 29: 'reasonable amount of time', floor's judgement",
    "ft_clock_seconds": "TDA 29 has no separate final-table time",
    "fixed_hands": "TDA 71: 'one or more missed hands', no fixed count",
    "penalty_rounds_max": "TDA 71: 'one or more missed rounds', escalating; no maximum",
    "dq_forfeits_prize": "TDA silent on prize forfeiture; [INF] docs/rules.md §10.4",
    "penalty_follows_moves": "[INF] docs/rules.md §10.3",
    "penalty_seconds_per_hand": "[INF] no source; about 30 hands an hour at a full table",
    "equal_stack": "[INF] PokerStars Live rules (docs/rules.md §11.4)",
    "money_rounding": "[INF] no source; whole currency units",
    "cancel_settlement": (
        "[INF] no source says how a cancelled event settles; the chip chop, as a deal (§18)"
    ),
    "flight_survivor": (
        "[INF] no source runs flights; the bigger bag plays Day 2, as most festivals (§15.2)"
    ),
    "day2_draw": "[INF] no source runs a Day 2; a random draw as §3.2 (§15.5)",
}


def _profile(
    key: str,
    name: str,
    source: str,
    stated: Mapping[str, object],
    notes: Mapping[str, str],
) -> HouseRulesProfile:
    """A seed-room profile: ``stated`` holds every parameter the seed decides (even where it
    equals TDA), ``notes`` the interpretations; every other parameter takes the TDA value and
    is noted as silent."""
    unknown = (set(stated) | set(notes)) - set(PARAMETER_KEYS)
    if unknown:  # pragma: no cover - guards future edits
        raise TypeError(f"profile {key!r} names unknown parameters: {sorted(unknown)}")
    all_notes = {
        param: notes.get(param, SEED_SILENT)
        for param in PARAMETER_KEYS
        if param in notes or param not in stated
    }
    return HouseRulesProfile(
        key=key,
        name=name,
        source=source,
        rules=dataclasses.replace(_TDA_2024, **stated),
        notes=all_notes,
    )


_MIRAGE = _profile(
    "mirage",
    "Mirage Poker Club (Budapest)",
    "Mirage Poker Club house rules (KÖKI Terminál, Budapest)",
    stated={
        "absent_policy": "blind_off",
        "live_checkpoint": "first_card",
        "clock_min_elapsed_seconds": 90,
        "clock_seconds": 30,
        "ft_clock_seconds": 60,
        "countdown_seconds": 0,
        "expiry_no_bet": "check",
        "round_size": "players_at_table_incl_offender",
        "fixed_hands": 3,
        "penalty_rounds_max": 1,
    },
    notes={
        "absent_policy": "every stack is dealt; cards live only if the owner is seated",
        "countdown_seconds": "[INF] seed: 30 s / 60 s, then folded; no countdown mentioned",
        "penalty_rounds_max": "[INF] seed lists only 'a button round'",
    },
)

_DOYLE = _profile(
    "doyle",
    "Doyle Kártyaterem",
    "Doyle Kártyaterem house rules (2011 TDA rules as used at the WSOP)",
    stated={
        "membership_required": True,
        "absent_policy": "blind_off",
        "live_checkpoint": "initial_deal_done",
        "absent_itm_forfeit": True,
        "rebuy_declare_before_next_hand": True,
        "dead_button": True,
        "not_dealt": "sb_or_btn_seat",
        "final_table_size": 10,
        "short_handed_final_table_size": 7,
        "color_up_method": "round_up",
        "clock_seconds": 30,
        "ft_clock_seconds": 30,
        "countdown_seconds": 10,
        "expiry_no_bet": "fold",
        "round_size": "players_at_table_incl_offender",
        "penalty_rounds_max": 4,
        "dq_forfeits_prize": True,
    },
    notes={
        "membership_required": (
            "001:3: only members play; each signs that he read the house rules on joining"
        ),
        "absent_policy": "[INF] #5 lets the floor remove an absentee's chips at its discretion",
        "final_table_size": "#8 flop games: 10",
        "short_handed_final_table_size": "#8: 7 at six-handed (short-handed) tables",
        "clock_seconds": "#23: 30 s; 60 s in deep-stack events",
        "ft_clock_seconds": "#23 has no separate final-table time",
        "expiry_no_bet": "[INF] #23 'as if he had folded', no check exception",
        "clock_min_elapsed_seconds": "#23 'thinking for a long time', no number; TDA default",
        "dq_forfeits_prize": "[INF] #49 removes the chips and keeps the buy-in",
    },
)

_VESZPREM = _profile(
    "veszprem",
    "Veszprémi Póker Egyesület",
    "Veszprémi Póker Egyesület house rules",
    stated={
        "late_registration": False,
        "absent_policy": "blind_off",
        "live_checkpoint": "initial_deal_done",
        "rebuy_declare_before_next_hand": True,
        "button_draw": "high_card",
        "dead_button": True,
        "not_dealt": "between_btn_sb",
        "ft_redraw": True,
        "clock_min_elapsed_seconds": 0,
        "clock_seconds": 60,
        "ft_clock_seconds": 60,
        "countdown_seconds": 0,
        "expiry_no_bet": "fold",
        "round_size": "players_at_table_incl_offender",
        "penalty_rounds_max": 3,
        "dq_forfeits_prize": True,
        "same_hand_order": "start_stack",
    },
    notes={
        "absent_policy": (
            "absent seat dealt, blinds taken; 'no later joining' sentence ambiguous "
            "(docs/rules.md §14.2)"
        ),
        "late_registration": (
            "002:234: a registered player absent at the start 'has no possibility of later "
            "joining'; read as no late entry (docs/rules.md §2.2)"
        ),
        "cancel_settlement": (
            "002:264 reserves cancelling 'without harming the players' rights'; silent on how "
            "it settles: [INF] the chip chop (§18)"
        ),
        "live_checkpoint": "[INF] seed: cards play only if the player is present at the deal",
        "dead_button": "seed allows moving or dead button; dead button per docs/rules.md §4.1",
        "clock_min_elapsed_seconds": "seed: any seated player may ask; no minimum",
        "ft_clock_seconds": "seed: +1 min on request, no separate final-table time",
        "countdown_seconds": "warning given inside the minute; no extra countdown",
        "expiry_no_bet": "[INF] seed: cards mucked, no check exception",
        "dq_forfeits_prize": "[INF] seed: a disqualified player's chips are removed",
    },
)

_RIMOC = _profile(
    "rimoc",
    "Rimóci Ifjúsági Egyesület",
    "Rimóci Ifjúsági Egyesület championship rules (chips, structure, tables)",
    stated={
        "level_minutes": 15,
        "break_every": 4,
        "absent_policy": "eliminate",
        "absent_eliminate_after_levels": 1,
        "live_checkpoint": "initial_deal_done",
        "absent_bb_exception": False,
        "table_thresholds": (10, 18, 27),
        "seats_per_table": 9,
        "single_table_seats": 10,
        "balance_threshold": 3,
        "break_order": "fewest_players",
        "final_table_size": 9,
    },
    notes={
        "live_checkpoint": "[INF] seed: absent 'at the deal' means cards folded",
        "table_thresholds": "[INF] 28 players not covered; 'above 28: 4' read as 28+ -> 4",
        "seats_per_table": "[INF] from 18 = 2 x 9 and 27 = 3 x 9",
        "balance_threshold": "'everyone one to the left' unclear (docs/rules.md §14.2)",
    },
)

_ATLAS = _profile(
    "atlas",
    "Atlas Poker Klub Trutnov",
    "Atlas Poker Klub Trutnov general rules (Czech)",
    stated={
        "dealer_penalties": True,
        "dead_button": False,
        "absent_policy": "blind_off",
        "live_checkpoint": "first_bet_round",
        "absent_bb_exception": True,
        "button_draw": "high_card",
        "penalty_rounds_max": 3,
        "dq_forfeits_prize": True,
    },
    notes={
        "dealer_penalties": "004:3, 79: the dealer gives the warning and the three-orbit stop",
        "cancel_settlement": (
            "004:6 'may end any game at any time'; silent on how it settles: [INF] the chip chop"
        ),
        "live_checkpoint": (
            "seed: a player on a short break is folded if not back by the first betting "
            "round; an unannounced absentee's cards are dead at the deal (except the BB)"
        ),
        "dead_button": "004:86: button and blinds move one seat per hand (the moving button)",
        "not_dealt": (
            "[INF] seed's 'not between button and big blind' is the cash-game newcomer rule; "
            "TDA default"
        ),
        "penalty_rounds_max": "[INF] 'tři kola stop' read as 3 orbits; 'kolo' may mean hands",
        "round_size": "[INF] 'kolo' read as an orbit (docs/rules.md §14.2)",
    },
)

PROFILES: dict[str, HouseRulesProfile] = {
    DEFAULT_PROFILE: HouseRulesProfile(
        key=DEFAULT_PROFILE,
        name="TDA 2024",
        source="2024 Poker TDA Rules",
        rules=_TDA_2024,
        notes=_TDA_NOTES,
    ),
    "mirage": _MIRAGE,
    "doyle": _DOYLE,
    "veszprem": _VESZPREM,
    "rimoc": _RIMOC,
    "atlas": _ATLAS,
}
"""Every house-rules profile by key; ``tda2024`` is the default."""
