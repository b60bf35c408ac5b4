"""Page forms; they only parse input, the services decide what is allowed."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.models import Structure
from tables.models import Room
from tourney.domain.house_rules import PROFILES
from tourney.models import LedgerEntry


class NewPlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    nickname = forms.CharField(label=_("Nickname"), max_length=60, required=False)
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    email = forms.EmailField(label=_("E-mail"), required=False)
    method = forms.ChoiceField(
        label=_("Paid by"), choices=LedgerEntry.Method.choices, initial="cash"
    )


class RegisterForm(forms.Form):
    player_id = forms.IntegerField(min_value=1)
    method = forms.ChoiceField(choices=LedgerEntry.Method.choices, initial="cash")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    structure = forms.ModelChoiceField(label=_("Blind structure"), queryset=Structure.objects.all())
    room = forms.ModelChoiceField(label=_("Room"), queryset=Room.objects.all())
    house_rules = forms.ChoiceField(
        label=_("House rules"),
        choices=[(key, p.name) for key, p in PROFILES.items()],
        initial="tda2024",
    )
    starting_stack = forms.IntegerField(label=_("Starting stack"), min_value=1, initial=40_000)
    buy_in = forms.IntegerField(label=_("Buy-in (to the prize pool)"), min_value=0, initial=10_000)
    fee = forms.IntegerField(label=_("Fee (to the house)"), min_value=0, initial=2_000)
    seats_per_table = forms.IntegerField(
        label=_("Seats per table"), min_value=2, max_value=12, required=False
    )
    table_numbers = forms.CharField(
        label=_("Tables in opening order"),
        required=False,
        help_text=_("Comma-separated table numbers; empty = every table of the room."),
    )
    late_registration_level = forms.IntegerField(
        label=_("Late registration until the end of level"),
        min_value=1,
        required=False,
        help_text=_("Empty = open while the tournament runs."),
    )
    waiting_list = forms.BooleanField(
        label=_("Waiting list when full"), required=False, initial=True
    )

    def clean_table_numbers(self) -> list[int]:
        raw = self.cleaned_data["table_numbers"].replace(" ", "")
        if not raw:
            return []
        try:
            return [int(part) for part in raw.split(",") if part]
        except ValueError as exc:
            raise forms.ValidationError(_("Use table numbers separated by commas.")) from exc
