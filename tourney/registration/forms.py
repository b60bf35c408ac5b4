"""Page forms; they only parse input, the services decide what is allowed."""

from django import forms
from django.utils.translation import gettext_lazy as _

from infra.web.form_fields import IdField
from tourney.models import LedgerEntry


class NewPlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    nickname = forms.CharField(label=_("Nickname"), max_length=60, required=False)
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    email = forms.EmailField(label=_("E-mail"), required=False)
    # Set from the desk's one "Paid by" choice above the search (a second control here was
    # seen on the night); a new player holds no ticket.
    method = forms.ChoiceField(
        label=_("Paid by"),
        choices=[c for c in LedgerEntry.Method.choices if c[0] != LedgerEntry.Method.TICKET],
        initial="cash",
        widget=forms.HiddenInput,
        error_messages={
            "invalid_choice": _("A new player holds no ticket: paid by cash, card or other.")
        },
    )
    # Sent by the duplicates warning's "Create a new player anyway" (templates/tourney/desk.html),
    # never shown in the form (it had no label: a checkbox "Create anyway" in English).
    create_anyway = forms.BooleanField(required=False, widget=forms.HiddenInput)


class RefundForm(forms.Form):
    """The desk's confirmed refund: by `method`, or as paid when none is given."""

    method = forms.ChoiceField(
        required=False,
        choices=[("", ""), *LedgerEntry.Method.choices],
        error_messages={"invalid_choice": _("Payment is cash, card or other.")},
    )


class PlayerChoiceForm(forms.Form):
    """The player to keep when merging a duplicate."""

    into = IdField(
        error_messages={
            "required": _("Choose the player to keep."),
            "invalid": _("Choose the player to keep."),
        }
    )


class RegisterForm(forms.Form):
    player_id = IdField()
    method = forms.ChoiceField(choices=LedgerEntry.Method.choices, initial="cash")


class MembershipForm(forms.Form):
    """A members-only room's question before the first buy-in (docs/rules.md §2.1)."""

    player_id = IdField()
    membership_number = forms.CharField(label=_("Membership number"), max_length=40)
    rules_read = forms.BooleanField(
        label=_("Signed that he has read the house rules"),
        error_messages={"required": _("He must sign that he has read the house rules.")},
    )
