"""The new sit-and-go series form (docs/rules.md §19)."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.models import Structure
from infra.web.form_fields import number_field
from infra.web.schema_types import Chips, Money, bounded
from tables.models import Room
from tourney.domain.house_rules_profiles import PROFILES
from tourney.models import Game, GameLimit


class SeriesForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    room = forms.ModelChoiceField(label=_("Room"), queryset=Room.objects.all())
    structure = forms.ModelChoiceField(label=_("Blind structure"), queryset=Structure.objects.all())
    seats = forms.TypedChoiceField(
        label=_("Seats"),
        choices=[(n, str(n)) for n in (6, 8, 9, 10)],
        coerce=int,
        initial=9,
    )
    game = forms.ChoiceField(label=_("Game"), choices=Game.choices, initial=Game.HOLDEM)
    game_limit = forms.ChoiceField(
        label=_("Betting"), choices=GameLimit.choices, initial=GameLimit.NO_LIMIT
    )
    house_rules = forms.ChoiceField(
        label=_("House rules"),
        choices=[(key, p.name) for key, p in PROFILES.items()],
        initial="tda2024",
    )
    starting_stack = number_field(Chips, least=1, label=_("Starting stack"), initial=5_000)
    buy_in = number_field(Money, label=_("Buy-in (to the prize pool)"), initial=9_000)
    fee = number_field(Money, label=_("Fee (to the house)"), initial=1_000)
    countdown_seconds = number_field(
        bounded(0, 900),
        label=_("Countdown before the start (seconds)"),
        initial=60,
        help_text=_("From the last seat taken: the players sit down, the button is drawn."),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        # The room and the structure most rooms have only one of: chosen already.
        self.fields["room"].initial = Room.objects.order_by("pk").first()
        self.fields["structure"].initial = Structure.objects.order_by("pk").first()


class SeriesEntryForm(forms.Form):
    """The desk's one step: a player found (`player_id`) or a new name, and how he paid."""

    player_id = forms.IntegerField(required=False, min_value=1, max_value=2**63 - 1)
    name = forms.CharField(required=False, max_length=120)
    method = forms.ChoiceField(
        choices=[("cash", _("Cash")), ("card", _("Card")), ("other", _("Other"))],
        initial="cash",
        required=False,
    )

    def clean(self):
        data = super().clean()
        if not data.get("player_id") and not " ".join((data.get("name") or "").split()):
            raise forms.ValidationError(_("Find a player or type a new name."))
        return data
