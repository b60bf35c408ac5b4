"""The penalty pages' forms, with the limits of the API's PenaltyIn and BanIn (from
infra/web/schema_types.py); what is allowed the use cases decide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from infra.web.form_fields import IdField, WholeNumberField
from infra.web.schema_types import BAN_DAYS_MAX, CHIPS_MAX, HANDS_MAX, REASON_MAX
from tourney.penalties.usecases import BAN_CHOICES

KIND_CHOICES = ("missed_rounds", "missed_hands", "warning", "disqualification")


def _choices(values) -> list[tuple[str, str]]:
    return [(v, v) for v in values]


class PenaltyGiveForm(forms.Form):
    entry = IdField(error_messages={"required": _("Choose the player first.")})
    kind = forms.ChoiceField(
        choices=_choices(KIND_CHOICES),
        error_messages={
            "required": _("Choose the penalty."),
            "invalid_choice": _("Choose the penalty."),
        },
    )
    count = WholeNumberField(
        required=False,
        min_value=0,
        max_value=HANDS_MAX,
        error_messages={"invalid": _("The number must be a whole number.")},
    )
    chips = WholeNumberField(
        required=False,
        min_value=0,
        max_value=CHIPS_MAX,
        error_messages={"invalid": _("The chips must be a whole number.")},
    )
    reason = forms.CharField(required=False, max_length=REASON_MAX, strip=False)
    ban = forms.ChoiceField(
        required=False,
        choices=[("", ""), *_choices(BAN_CHOICES)],
        error_messages={
            "invalid_choice": _(
                "A ban (day, days, indefinite or season) goes with a disqualification only."
            )
        },
    )
    ban_days = WholeNumberField(required=False, min_value=0, max_value=BAN_DAYS_MAX)


class PenaltyChoiceForm(forms.Form):
    penalty = IdField(error_messages={"required": _("Choose a penalty.")})


class BanAddForm(forms.Form):
    reason = forms.CharField(required=False, max_length=REASON_MAX, strip=False)
    days = WholeNumberField(required=False, min_value=0, max_value=BAN_DAYS_MAX)
    season = IdField(required=False)


class BanLiftForm(forms.Form):
    ban = IdField(required=False)
