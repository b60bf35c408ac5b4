"""The bounties page's form: the pot's winners of a bust-out named later."""

from django import forms
from django.utils.translation import gettext as _

from infra.web.form_fields import IdField
from tables.floor.forms import IdListField


class WinnersForm(forms.Form):
    entry = IdField()
    won_by = IdListField()

    def __init__(self, data) -> None:
        super().__init__(data)
        self.fields["entry"].error_messages["invalid"] = _("Choose the bust-out from the list.")
        self.fields["entry"].error_messages["required"] = _("Choose the bust-out from the list.")
        for code in ("invalid", "required"):
            self.fields["won_by"].error_messages[code] = _(
                "Choose the pot's winners from the list."
            )
