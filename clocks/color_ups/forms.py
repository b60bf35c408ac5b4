"""The color-up page's forms, with the limits of the API's ColorUpIn and ColorUpFoundIn (from
infra/web/schema_types.py); what is allowed the use cases decide."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.models import ColorUp
from infra.web.form_fields import IdField, WholeNumberField
from infra.web.schema_types import CHIPS_MAX, SEAT_MAX

# The cards typed for one seat ("Kh 9d"): a race deals a seat a handful at most.
CARDS_TEXT_MAX = 200
WHOLE = {"invalid": _("The number must be a whole number.")}


class ColorUpChoiceForm(forms.Form):
    """Confirm or undo: the color-up named (none: the use case refuses)."""

    color_up = IdField(required=False)


class ColorUpForm(forms.Form):
    """The dealer's counts for the table's seats: `odd_<seat>`, `zero_<seat>`, `stack_<seat>`
    and `cards_<seat>`."""

    method = forms.ChoiceField(required=False, choices=[("", ""), *ColorUp.Method.choices])
    mode = forms.ChoiceField(
        required=False, choices=[(m, m) for m in ("", "virtual", "cards", "confirm")]
    )
    entry_mode = forms.ChoiceField(
        required=False, choices=[(m, m) for m in ("", "virtual", "cards")]
    )
    override = forms.BooleanField(required=False)

    def __init__(self, data, seats: list[int]) -> None:
        super().__init__(data)
        self.seats = seats
        for seat in seats:
            for name in ("odd", "stack"):
                self.fields[f"{name}_{seat}"] = WholeNumberField(
                    required=False, min_value=0, max_value=CHIPS_MAX, error_messages=WHOLE
                )
            self.fields[f"zero_{seat}"] = forms.BooleanField(required=False)
            self.fields[f"cards_{seat}"] = forms.CharField(
                required=False, max_length=CARDS_TEXT_MAX
            )


class ColorUpFoundForm(ColorUpChoiceForm):
    seat = WholeNumberField(min_value=1, max_value=SEAT_MAX)
    value = WholeNumberField(min_value=1, max_value=CHIPS_MAX)

    def __init__(self, data) -> None:
        super().__init__(data)
        say = _("Say the seat and the value of the chips found.")
        for name in ("seat", "value"):
            self.fields[name].error_messages |= {"required": say, "invalid": say}
        self.fields["value"].error_messages["min_value"] = say
