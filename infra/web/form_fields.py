"""Form fields the pages share, with the limits of the API's schema types (defined once, in
infra/web/schema_types.py): a page never takes a number the API would refuse, nor one its
column cannot hold."""

from typing import Any

from django import forms

from infra.web.schema_types import INT64_MAX, SEPARATORS, type_bounds, whole_number


class WholeNumberField(forms.IntegerField):
    """A whole number as a person types it ("12 000", "12,000", "12.000")."""

    def to_python(self, value):
        if isinstance(value, str):
            value = SEPARATORS.sub("", value)
        return super().to_python(value)


def number_field(kind: Any, *, least: int | None = None, **kwargs) -> WholeNumberField:
    """A whole-number field bounded as the API's schema type `kind` (`Money`, `Chips`,
    `Entries` ...); `least` raises its lower bound where the page means more (a stack > 0)."""
    low, high = type_bounds(kind)
    return WholeNumberField(
        min_value=low if least is None else max(least, low), max_value=high, **kwargs
    )


class IdField(forms.IntegerField):
    """An object's id, as the API's `Id` (1 to 2**63 - 1)."""

    def __init__(self, **kwargs) -> None:
        super().__init__(min_value=1, max_value=INT64_MAX, **kwargs)


def number_list(text: str, kind: Any, refusal: str) -> list[int]:
    """Whole numbers typed separated by commas ("1, 2, 5"), each bounded as `kind`; refused
    with `refusal` when one is not such a number."""
    low, high = type_bounds(kind)
    numbers = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        number = whole_number(part, high, low)
        if number is None:
            raise forms.ValidationError(refusal)
        numbers.append(number)
    return numbers


def first_error(form: forms.Form) -> str:
    """The first refusal of a form, in its fields' order."""
    return next(iter(form.errors.values()))[0]
