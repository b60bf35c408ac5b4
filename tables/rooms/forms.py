"""Page forms of rooms and seats."""

import re

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from infra.web.form_fields import WholeNumberField
from infra.web.schema_types import SEAT_MAX, TABLE_MAX
from tables.models import SeatRestriction

SEATS_MIN = 2  # a table of the API's TableIn

TABLE_SPEC = re.compile(r"^\s*(\d+)\s*(?:-\s*(\d+))?\s*[x×]\s*(\d+)\s*$")


class RoomForm(forms.Form):
    name = forms.CharField(label=_("Room name"), max_length=120)
    tables = forms.CharField(
        label=_("Tables"),
        initial="1-8 x 10",
        help_text=_("Table numbers and seats, e.g. “1-8 x 10, 9 x 6”."),
    )

    def clean_tables(self) -> list[dict[str, int]]:
        result: list[dict[str, int]] = []
        for part in self.cleaned_data["tables"].split(","):
            match = TABLE_SPEC.match(part)
            if not match:
                raise forms.ValidationError(
                    _("Write tables as “first-last x seats”, e.g. 1-8 x 10.")
                )
            first, last, seats = int(match[1]), int(match[2] or match[1]), int(match[3])
            in_range = 1 <= first <= last <= TABLE_MAX and SEATS_MIN <= seats <= SEAT_MAX
            if last - first > 500 or not in_range:
                raise forms.ValidationError(_("The table range %(p)s is not valid.") % {"p": part})
            result.extend({"number": n, "seats": seats} for n in range(first, last + 1))
        return result


class SeatRestrictionForm(forms.Form):
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=TABLE_MAX)
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=SEAT_MAX)
    kind = forms.ChoiceField(label=_("Kind"), choices=SeatRestriction.Kind.choices)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)


class SeatReleaseForm(forms.Form):
    """`release`: the seat to free, as "table:seat"."""

    release = forms.RegexField(regex=r"^\d{1,4}:\d{1,2}$")

    def clean(self):
        data = super().clean()
        if "release" in data:
            table, seat = (int(x) for x in data["release"].split(":"))
            if not (1 <= table <= TABLE_MAX and 1 <= seat <= SEAT_MAX):
                raise forms.ValidationError(RegexValidator.message)
            data["table"], data["seat"] = table, seat
        return data


class DealerHandForm(forms.Form):
    """The dealer's hand: a misdeal, or the hand done with the button's seat (or none)."""

    misdeal = forms.BooleanField(required=False)
    button_seat = WholeNumberField(required=False, min_value=1, max_value=SEAT_MAX)


class RoomSettingsForm(forms.Form):
    """The room's gaming day and its operator (receipts and results)."""

    gaming_day_starts = forms.TimeField(
        label=_("The gaming day starts at"),
        help_text=_("A ban for the day ends here, not at midnight (e.g. 06:00)."),
        widget=forms.TimeInput(format="%H:%M", attrs={"type": "time"}),
    )
    operator_name = forms.CharField(label=_("Operator (company)"), max_length=200, required=False)
    operator_address = forms.CharField(
        label=_("Operator's address"), max_length=300, required=False
    )
    operator_tax_number = forms.CharField(label=_("Tax number"), max_length=40, required=False)
