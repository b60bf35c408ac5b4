"""The tournament settings page's form: the create form's fields, the start and the entry cap,
and one field per house rule (empty = the profile's value, shown beside it)."""

import copy
from typing import Any

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from infra.web.form_fields import number_list
from infra.web.schema_types import INT32_MAX, Count32, TableNumber
from tourney.domain.house_rules import (
    INT_BOUNDS,
    PARAMETER_CHOICES,
    PARAMETER_KEYS,
    PROFILES,
    HouseRulesError,
    resolve_house_rules,
)
from tourney.domain.purchases import MONEY_FIELDS
from tourney.forms import TournamentForm
from tourney.models import PayoutStructure, Tournament
from tourney.setup.strings import CHOICES, LABELS, SECTIONS, rule_value_text

NULLABLE_RULES = ("table_thresholds", "fixed_hands", "penalty_rounds_max")
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
        "starting_stack",
        "buy_in",
        "fee",
        "table_numbers",
        "late_registration_level",
        "waiting_list",
        *MONEY_FIELDS,
    )
    BASIC = (
        "name",
        "scheduled_start",
        "max_entries",
        "waiting_list",
        "late_registration_level",
        "structure",
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
            "payout_structure": t.payout_structure_id,
            "starting_stack": t.starting_stack,
            "buy_in": t.buy_in,
            "fee": t.fee,
            "currency": t.currency,
            "table_numbers": ", ".join(map(str, table_numbers)),
            **{field: getattr(t, field) for field in MONEY_FIELDS},
        }
        for key, value in t.rules_overrides.items():
            initial[rule_field_name(key)] = _rule_initial(key, value)
        return initial

    # -- what the page lays out --

    def lock(self, locks: dict[str, Exception]) -> None:
        """Show the settings the state of play fixes read-only, with the reason."""
        for field, refusal in locks.items():
            name = FORM_FIELD.get(field, field)
            if field.startswith("rules."):
                name = rule_field_name(field.removeprefix("rules."))
            if name in self.fields:
                self.fields[name].disabled = True
                self.fields[name].help_text = refusal.detail

    def basic_fields(self) -> list:
        return [self[name] for name in self.BASIC]

    def money_fields(self) -> list:
        return [self[name] for name in MONEY_FIELDS]

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
            "table_numbers": data["table_numbers"],
            "rules": data["rules"],
            **money,
        }


_UNSET = object()
