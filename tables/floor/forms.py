"""The floor pages' forms (bust-out, a floor action done or undone, hand-for-hand, clock calls),
with the limits of the API's EliminationsIn, ActionDoneIn, HandForHandIn, ClockCallIn and
ClockCallEndIn (from infra/web/schema_types.py); what is allowed the use cases decide."""

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _

from infra.web.form_fields import IdField, WholeNumberField
from infra.web.schema_types import CHIPS_MAX, ELIMINATIONS_MAX, SEAT_MAX, TABLE_MAX
from tables.models import ClockCall

INT_ERRORS = ("required", "invalid", "min_value", "max_value")


def _say(form: forms.Form, names: tuple[str, ...], message, errors=INT_ERRORS) -> None:
    """One message for every way the fields `names` can be wrong."""
    for name in names:
        form.fields[name].error_messages |= dict.fromkeys(errors, message)


class IdListField(forms.Field):
    """Ids picked from a list (`entry=3&entry=5`), each as the API's `Id`, in order, once each."""

    widget = forms.MultipleHiddenInput

    def to_python(self, value) -> list[int]:
        ids: list[int] = []
        for raw in value or []:
            try:
                one = IdField().clean(raw)
            except ValidationError:
                raise ValidationError(self.error_messages["invalid"], code="invalid") from None
            if one not in ids:
                ids.append(one)
        return ids


class BustoutForm(forms.Form):
    """Players busted in one hand (`entry`, with `stack_<entry>` their stacks at the start of
    the hand); with `finish_hand`, the hand is then finished at `table`."""

    entry = IdListField()
    table = WholeNumberField(required=False, min_value=1, max_value=TABLE_MAX)
    finish_hand = forms.BooleanField(required=False)
    # A bounty tournament: the pot's winners (docs/rules.md §16.2), for every bust-out of it.
    won_by = IdListField(required=False)

    def __init__(self, data) -> None:
        super().__init__(data)
        _say(self, ("entry",), _("Choose the players who busted from the list."), ("invalid",))
        self.fields["entry"].error_messages["required"] = _(
            "Choose at least one player who busted."
        )
        _say(self, ("table",), _("Say at which table the hand finished."))
        _say(self, ("won_by",), _("Choose the pot's winners from the list."), ("invalid",))

    def clean_entry(self) -> list[int]:
        ids = self.cleaned_data["entry"]
        if len(ids) > ELIMINATIONS_MAX:
            raise ValidationError(
                _("At most %(n)s players can bust in one hand.") % {"n": ELIMINATIONS_MAX}
            )
        return ids

    def clean(self) -> dict:
        data = super().clean()
        stack_field = WholeNumberField(required=False, min_value=1, max_value=CHIPS_MAX)
        busts = []
        for entry_id in data.get("entry") or []:
            try:
                stack = stack_field.clean(self.data.get(f"stack_{entry_id}", "").strip())
            except ValidationError:
                raise ValidationError(
                    _("The stack at the start of the hand must be a whole number of chips.")
                ) from None
            busts.append((entry_id, stack))
        data["busts"] = busts
        won_by = data.get("won_by") or []
        if len(won_by) > ELIMINATIONS_MAX:
            raise ValidationError(_("Choose the pot's winners from the list."))
        data["busted_by"] = {entry_id: won_by for entry_id, _stack in busts} if won_by else {}
        if data.get("finish_hand") and data.get("table") is None and "table" not in self.errors:
            raise ValidationError(_("Say at which table the hand finished."))
        return data


class ActionChoiceForm(forms.Form):
    """Undo: the floor action named."""

    action = IdField()

    def __init__(self, data) -> None:
        super().__init__(data)
        _say(self, ("action",), _("Choose a floor action."))


class ActionDoneForm(ActionChoiceForm):
    """Done: the action, and `entry` the mover when the system could not know (posted empty:
    the floor has to choose one)."""

    entry = IdField(required=False)

    def __init__(self, data) -> None:
        super().__init__(data)
        _say(self, ("entry",), _("Choose the player who moved from the list."))

    def clean_entry(self) -> int | None:
        entry = self.cleaned_data["entry"]
        if entry is None and "entry" in self.data:
            raise ValidationError(_("Say who moved: choose the player."))
        return entry


class HandForHandForm(forms.Form):
    active = forms.TypedChoiceField(choices=[("0", "0"), ("1", "1")], coerce=lambda v: v == "1")

    def __init__(self, data) -> None:
        super().__init__(data)
        say = _("Say whether hand-for-hand starts or ends.")
        _say(self, ("active",), say, ("required", "invalid_choice"))


class ClockCallForm(forms.Form):
    """The seat the clock is called on, at `table`."""

    table = WholeNumberField(min_value=1, max_value=TABLE_MAX)
    seat = WholeNumberField(min_value=1, max_value=SEAT_MAX)
    # Who asked (a player at the table) and that the player has had the house's minimum time.
    caller_seat = WholeNumberField(min_value=1, max_value=SEAT_MAX, required=False)
    minimum_taken = forms.BooleanField(required=False)

    def __init__(self, data) -> None:
        super().__init__(data)
        say = _("Choose the seat of the player the clock is called on.")
        _say(self, ("table", "seat"), say)
        _say(self, ("caller_seat",), _("Choose the seat of the player who called the clock."))


class ClockCallEndForm(forms.Form):
    call = IdField()
    outcome = forms.ChoiceField(choices=ClockCall.Outcome.choices)

    def __init__(self, data) -> None:
        super().__init__(data)
        say = _("Say how the clock call ended.")
        _say(self, ("call",), say)
        _say(self, ("outcome",), say, ("required", "invalid_choice"))
