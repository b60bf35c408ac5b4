"""The tournament settings page's form: the create form's fields, the start and the entry cap,
and one field per house rule (empty = the profile's value, shown beside it)."""

import copy
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from infra.web.form_fields import number_list
from infra.web.schema_types import INT32_MAX, Count32, TableNumber
from tourney.domain.house_rules import resolve_house_rules
from tourney.domain.house_rules_params import (
    INT_BOUNDS,
    PARAMETER_CHOICES,
    PARAMETER_KEYS,
    HouseRulesError,
)
from tourney.domain.house_rules_profiles import PROFILES
from tourney.domain.purchases import MONEY_FIELDS
from tourney.domain.satellites import satellite_data, satellite_from
from tourney.models import PayoutStructure, Tournament
from tourney.tournaments.forms import TournamentForm, satellite_targets, satellite_terms

NULLABLE_RULES = ("table_thresholds", "fixed_hands", "penalty_rounds_max")
# A bounty tournament's settings (docs/rules.md §16), the service's one `bounty`.
BOUNTY_FIELDS = (
    "bounty_kind",
    "bounty_amount",
    "bounty_cash_percent",
    "bounty_phase_players",
    "bounty_phase_level",
)
FORM_FIELD = {
    "structure_id": "structure",
    "payout_structure_id": "payout_structure",
    "waiting_list_enabled": "waiting_list",
}
NONE_TEXT = "-"  # typed into a rule that may be "none" (e.g. no fixed penalty)


def rule_field_name(key: str) -> str:
    return f"rule_{key}"


def _rule_field(key: str, default: Any) -> forms.Field:
    label = LABELS[key]
    shown = rule_value_text(key, default)
    help_text = _("Empty: the house rules' value (%(value)s).") % {"value": shown}
    if key in PARAMETER_CHOICES:
        choices = [("", _("House rules: %(value)s") % {"value": shown})]
        choices += [(c, CHOICES.get(c, c)) for c in PARAMETER_CHOICES[key]]
        return forms.ChoiceField(label=label, choices=choices, required=False)
    if isinstance(default, bool) or key in {
        "absent_bb_exception",
        "absent_itm_forfeit",
        "rebuy_declare_before_next_hand",
        "dead_button",
        "ft_redraw",
        "dq_forfeits_prize",
        "penalty_follows_moves",
    }:
        choices = [("", _("House rules: %(value)s") % {"value": shown})]
        choices += [("yes", _("Yes")), ("no", _("No"))]
        return forms.ChoiceField(label=label, choices=choices, required=False)
    if key in NULLABLE_RULES:
        field = forms.CharField(
            label=label,
            required=False,
            max_length=200,
            help_text=_("Empty: the house rules' value (%(value)s); %(none)s: none.")
            % {"value": shown, "none": NONE_TEXT},
        )
        field.widget.attrs["placeholder"] = shown
        return field
    low, high = INT_BOUNDS[key]
    # A rule without a maximum still fits the 32-bit integers the API takes for counts.
    field = forms.IntegerField(
        label=label,
        required=False,
        min_value=low,
        max_value=INT32_MAX if high is None else high,
        help_text=help_text,
    )
    field.widget.attrs["placeholder"] = shown
    return field


def _rule_initial(key: str, value: Any) -> str:
    if value is None:
        return NONE_TEXT
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list | tuple):
        return ", ".join(str(v) for v in value)
    return str(value)


def _parse_int_list(text: str, kind: Any = Count32) -> list[int]:
    return number_list(text, kind, _("Use whole numbers separated by commas."))


class TournamentSettingsForm(forms.Form):
    """Every editable setting; `changes()` gives what the service takes."""

    settings_token = forms.CharField(widget=forms.HiddenInput, max_length=64)
    payout_structure = forms.ModelChoiceField(
        label=_("Payout structure"),
        queryset=PayoutStructure.objects.all(),
        required=False,
        empty_label=_("Default (standard template)"),
    )
    currency = forms.CharField(label=_("Currency"), max_length=8)

    COPIED = (
        "name",
        "scheduled_start",
        "max_entries",
        "structure",
        "game",
        "game_limit",
        "starting_stack",
        "buy_in",
        "fee",
        "table_numbers",
        "late_registration_level",
        "waiting_list",
        *MONEY_FIELDS,
        *BOUNTY_FIELDS,
        *TournamentForm.SATELLITE_FIELDS,
    )
    BASIC = (
        "name",
        "scheduled_start",
        "max_entries",
        "waiting_list",
        "late_registration_level",
        "structure",
        "game",
        "game_limit",
        "payout_structure",
        "starting_stack",
        "buy_in",
        "fee",
        "currency",
        "table_numbers",
    )

    def __init__(self, *args, tournament: Tournament, token: str, table_numbers, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        for name in self.COPIED:
            self.fields[name] = copy.deepcopy(TournamentForm.base_fields[name])
        self.fields["table_numbers"].help_text = _("Comma-separated, in opening order.")
        self.fields["satellite_target"].choices = satellite_targets(excluding=tournament.pk)
        defaults = PROFILES[tournament.house_rules].rules
        for key in PARAMETER_KEYS:
            self.fields[rule_field_name(key)] = _rule_field(key, getattr(defaults, key))
        # Also when bound: a field the state of play locks is disabled and keeps this value.
        self.initial = self._initial(token, table_numbers)

    def _initial(self, token: str, table_numbers: list[int]) -> dict[str, Any]:
        t = self.tournament
        initial: dict[str, Any] = {
            "settings_token": token,
            "name": t.name,
            "scheduled_start": timezone.localtime(t.scheduled_start) if t.scheduled_start else None,
            "max_entries": t.max_entries,
            "waiting_list": t.waiting_list_enabled,
            "late_registration_level": t.late_registration_level,
            "structure": t.structure_id,
            "game": t.game,
            "game_limit": t.game_limit,
            "payout_structure": t.payout_structure_id,
            "starting_stack": t.starting_stack,
            "buy_in": t.buy_in,
            "fee": t.fee,
            "currency": t.currency,
            "table_numbers": ", ".join(map(str, table_numbers)),
            **{field: getattr(t, field) for field in MONEY_FIELDS},
            "bounty_kind": t.bounty.get("kind", ""),
            "bounty_amount": t.bounty.get("amount"),
            "bounty_cash_percent": t.bounty.get("cash_percent", 50),
            "bounty_phase_players": t.bounty.get("phase_players"),
            "bounty_phase_level": t.bounty.get("phase_level"),
            "satellite_target": t.satellite.get("target_id"),
            "satellite_seat_value": t.satellite.get("seat_value"),
            "satellite_leftover": t.satellite.get("leftover", "next_place"),
            "satellite_seat_holder": t.satellite.get("seat_holder", "cash"),
        }
        for key, value in t.rules_overrides.items():
            initial[rule_field_name(key)] = _rule_initial(key, value)
        return initial

    # -- what the page lays out --

    def lock(self, locks: dict[str, Exception]) -> None:
        """Show the settings the state of play fixes read-only, with the reason."""
        for field, refusal in locks.items():
            names = (
                BOUNTY_FIELDS
                if field == "bounty"
                else TournamentForm.SATELLITE_FIELDS
                if field == "satellite"
                else (FORM_FIELD.get(field, field),)
            )
            if field.startswith("rules."):
                names = (rule_field_name(field.removeprefix("rules.")),)
            for name in names:
                if name in self.fields:
                    self.fields[name].disabled = True
                    self.fields[name].help_text = refusal.detail

    def basic_fields(self) -> list:
        return [self[name] for name in self.BASIC]

    def money_fields(self) -> list:
        return [self[name] for name in (*BOUNTY_FIELDS, *MONEY_FIELDS)]

    def satellite_fields(self) -> list:
        return [self[name] for name in TournamentForm.SATELLITE_FIELDS]

    def rule_sections(self) -> list[tuple[str, list]]:
        return [(title, [self[rule_field_name(k)] for k in keys]) for title, keys in SECTIONS]

    # -- parsing --

    def clean_table_numbers(self) -> list[int]:
        return _parse_int_list(self.cleaned_data["table_numbers"], TableNumber)

    def _rule_value(self, key: str, raw: Any) -> Any:
        """The override typed for `key`, or `_UNSET` (empty: the profile's value)."""
        if raw in ("", None):
            return _UNSET
        if key in PARAMETER_CHOICES:
            return raw
        if raw in ("yes", "no"):
            return raw == "yes"
        if key in NULLABLE_RULES:
            if raw.strip() == NONE_TEXT:
                return None
            numbers = _parse_int_list(raw)
            if key == "table_thresholds":
                return numbers
            if len(numbers) != 1:
                raise forms.ValidationError(_("Enter a whole number."))
            return numbers[0]
        return raw

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        overrides: dict[str, Any] = {}
        for key in PARAMETER_KEYS:
            name = rule_field_name(key)
            if name not in data:
                continue
            try:
                value = self._rule_value(key, data[name])
            except forms.ValidationError as exc:
                self.add_error(name, exc)
                continue
            if value is not _UNSET:
                overrides[key] = value
        try:
            resolve_house_rules(self.tournament.house_rules, overrides)
        except HouseRulesError as exc:
            field = rule_field_name(exc.field) if exc.field in PARAMETER_KEYS else None
            self.add_error(
                field,
                _("This does not fit the other house rules (%(detail)s).")
                % {"detail": exc.message},
            )
        data["rules"] = overrides
        return data

    def changes(self) -> dict[str, Any]:
        data = self.cleaned_data
        money = {
            name: data[name] if data[name] is not None or name.endswith("_level") else 0
            for name in MONEY_FIELDS
        }
        return {
            "name": data["name"],
            "scheduled_start": data["scheduled_start"],
            "max_entries": data["max_entries"],
            "waiting_list_enabled": data["waiting_list"],
            "late_registration_level": data["late_registration_level"],
            "structure_id": data["structure"].pk,
            "payout_structure_id": data["payout_structure"].pk
            if data["payout_structure"]
            else None,
            "starting_stack": data["starting_stack"],
            "buy_in": data["buy_in"],
            "fee": data["fee"],
            "currency": data["currency"],
            "game": data["game"] or self.tournament.game,
            "game_limit": data["game_limit"] or self.tournament.game_limit,
            "table_numbers": data["table_numbers"],
            "rules": data["rules"],
            **money,
            "bounty": _bounty(data),
            "satellite": satellite_data(satellite_from(satellite_terms(data))),
        }


def _bounty(data: dict[str, Any]) -> dict[str, Any]:
    """The bounty as the tournament stores it (`bounty_data`'s form, so that an unchanged one
    compares equal): {} without one."""
    kind = data.get("bounty_kind")
    if not kind:
        return {}
    bounty = {"kind": kind, "amount": data.get("bounty_amount") or 0}
    if kind == "progressive":
        percent = data.get("bounty_cash_percent")
        bounty["cash_percent"] = 50 if percent is None else percent
    if kind == "mystery":
        bounty["phase_level"] = data.get("bounty_phase_level")
        bounty["phase_players"] = data.get("bounty_phase_players")
    return bounty


_UNSET = object()


SECTIONS = (
    (
        _("Levels and breaks"),
        ("level_minutes", "break_every", "break_minutes", "after_last_level"),
    ),
    (
        _("Registration, absence and re-entry"),
        (
            "late_registration",
            "late_refund_levels",
            "membership_required",
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
            "dealer_penalties",
            "penalty_follows_moves",
            "penalty_seconds_per_hand",
        ),
    ),
    (
        _("Places, hand-for-hand and payouts"),
        (
            "same_hand_order",
            "equal_stack",
            "h4h_mode",
            "h4h_seconds_per_hand",
            "money_rounding",
            "cancel_settlement",
        ),
    ),
    (_("Festivals: flights and Day 2"), ("flight_survivor", "day2_draw")),
)


LABELS = {
    "level_minutes": _("Level length (minutes)"),
    "break_every": _("A break after every … levels"),
    "break_minutes": _("Break length (minutes)"),
    "after_last_level": _("The clock after the last level"),
    "late_registration": _("Late registration after the start"),
    "late_refund_levels": _("A late entry is refunded at the desk for … level(s)"),
    "membership_required": _("Members only (membership number and house rules read)"),
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
    "dealer_penalties": _("The dealer gives warnings and round penalties from his link"),
    "penalty_follows_moves": _("A penalty follows a moved player"),
    "penalty_seconds_per_hand": _("Seconds per hand for penalty estimates"),
    "same_hand_order": _("Out in the same hand: order by"),
    "equal_stack": _("Out in the same hand with equal stacks"),
    "h4h_mode": _("Hand-for-hand"),
    "h4h_seconds_per_hand": _("Seconds off the clock per hand-for-hand hand"),
    "money_rounding": _("Prizes rounded to (currency units)"),
    "cancel_settlement": _("An event cancelled after its start"),
    "flight_survivor": _("A player who bags in two flights"),
    "day2_draw": _("Day-2 seat draw"),
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
    "keep_bigger": _("Plays Day 2 with the bigger bag"),
    "refund": _("Every buy-in and fee refunded"),
    "chip_count": _("The prizes left shared by chip count"),
    "equal": _("The prizes left shared equally"),
    "refuse_after_bag": _("Cannot enter a later flight"),
    "spread_stacks": _("At random, the biggest stacks at different tables"),
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
