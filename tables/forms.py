"""Page forms of rooms and seats."""

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from tables.models import SeatRestriction

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
            if last < first or last - first > 500:
                raise forms.ValidationError(_("The table range %(p)s is not valid.") % {"p": part})
            result.extend({"number": n, "seats": seats} for n in range(first, last + 1))
        return result


class SeatRestrictionForm(forms.Form):
    table = forms.IntegerField(label=_("Table"), min_value=1)
    seat = forms.IntegerField(label=_("Seat"), min_value=1, max_value=12)
    kind = forms.ChoiceField(label=_("Kind"), choices=SeatRestriction.Kind.choices)
    note = forms.CharField(label=_("Note"), max_length=200, required=False)
