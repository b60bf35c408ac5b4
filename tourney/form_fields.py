"""Form fields the pages share, with the limits of the API's schema types (defined once, in
tourney/schema_types.py)."""

import re

from django import forms

from tourney.schema_types import INT64_MAX

_SEPARATORS = re.compile(r"[\s,.'\u00a0\u202f]")


class WholeNumberField(forms.IntegerField):
    """A whole number as a person types it ("12 000", "12,000", "12.000")."""

    def to_python(self, value):
        if isinstance(value, str):
            value = _SEPARATORS.sub("", value)
        return super().to_python(value)


class IdField(forms.IntegerField):
    """An object's id, as the API's `Id` (1 to 2**63 - 1)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(min_value=1, max_value=INT64_MAX, **kwargs)


def first_error(form: forms.Form) -> str:
    """The first refusal of a form, in its fields' order."""
    return next(iter(form.errors.values()))[0]
