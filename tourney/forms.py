"""Page forms; they only parse input, the services decide what is allowed."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.models import Structure
from tables.models import Room
from tourney.domain.house_rules import PROFILES
from tourney.form_fields import IdField
from tourney.models import LedgerEntry, RebuyCondition


class NewPlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    nickname = forms.CharField(label=_("Nickname"), max_length=60, required=False)
    phone = forms.CharField(label=_("Phone"), max_length=40, required=False)
    email = forms.EmailField(label=_("E-mail"), required=False)
    method = forms.ChoiceField(
        label=_("Paid by"), choices=LedgerEntry.Method.choices, initial="cash"
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
    player_id = forms.IntegerField(min_value=1)
    method = forms.ChoiceField(choices=LedgerEntry.Method.choices, initial="cash")


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    scheduled_start = forms.DateTimeField(
        label=_("Start"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    max_entries = forms.IntegerField(
        label=_("Entry cap"),
        min_value=1,
        required=False,
        help_text=_(
            "Players in play at once; past it entries wait on the waiting list (or are "
            "refused without one). Empty = the seats of the tables."
        ),
    )
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
    # Rebuys, add-on, re-entries and the guarantee (tourney.domain.purchases checks them).
    reentry_max = forms.IntegerField(
        label=_("Re-entries per player"),
        min_value=0,
        required=False,
        help_text=_("Empty = the house rules' number (0 = no re-entry)."),
    )
    rebuy_until_level = forms.IntegerField(
        label=_("Rebuys until the end of level"),
        min_value=1,
        required=False,
        help_text=_("Empty = no rebuys."),
    )
    rebuy_max = forms.IntegerField(
        label=_("Rebuys per entry"),
        min_value=0,
        initial=0,
        required=False,
        help_text=_("0 = no limit."),
    )
    rebuy_condition = forms.ChoiceField(
        label=_("Rebuy allowed when"), choices=RebuyCondition.choices, initial="at_most_start"
    )
    rebuy_buy_in = forms.IntegerField(
        label=_("Rebuy price (prize pool)"), min_value=0, initial=0, required=False
    )
    rebuy_fee = forms.IntegerField(label=_("Rebuy fee"), min_value=0, initial=0, required=False)
    rebuy_chips = forms.IntegerField(label=_("Rebuy chips"), min_value=0, initial=0, required=False)
    addon_level = forms.IntegerField(
        label=_("Add-on at the break after level"),
        min_value=1,
        required=False,
        help_text=_("Empty = no add-on. Without a break there, during the next level."),
    )
    addon_buy_in = forms.IntegerField(
        label=_("Add-on price (prize pool)"), min_value=0, initial=0, required=False
    )
    addon_fee = forms.IntegerField(label=_("Add-on fee"), min_value=0, initial=0, required=False)
    addon_chips = forms.IntegerField(
        label=_("Add-on chips"), min_value=0, initial=0, required=False
    )
    guarantee = forms.IntegerField(
        label=_("Guaranteed prize pool"),
        min_value=0,
        initial=0,
        required=False,
        help_text=_("0 = none; the house pays what the entries do not cover."),
    )

    MONEY_FIELDS = (
        "reentry_max",
        "rebuy_until_level",
        "rebuy_max",
        "rebuy_condition",
        "rebuy_buy_in",
        "rebuy_fee",
        "rebuy_chips",
        "addon_level",
        "addon_buy_in",
        "addon_fee",
        "addon_chips",
        "guarantee",
    )

    def basic_fields(self) -> list:
        return [f for f in self if f.name not in self.MONEY_FIELDS]

    def money_fields(self) -> list:
        return [f for f in self if f.name in self.MONEY_FIELDS]

    def money_errors(self) -> bool:
        return any(self.errors.get(name) for name in self.MONEY_FIELDS)

    def clean_table_numbers(self) -> list[int]:
        raw = self.cleaned_data["table_numbers"].replace(" ", "")
        if not raw:
            return []
        try:
            return [int(part) for part in raw.split(",") if part]
        except ValueError as exc:
            raise forms.ValidationError(_("Use table numbers separated by commas.")) from exc
