"""The new tournament form."""

from django import forms
from django.utils.translation import gettext_lazy as _

from clocks.models import Structure
from infra.text.collation import sorted_by_name
from infra.web.form_fields import number_field, number_list
from infra.web.schema_types import (
    Chips,
    Entries,
    Level,
    LevelFromStart,
    Money,
    PoolMoney,
    Purchases,
    TableNumber,
    TableSeats,
    bounded,
)
from tables.models import Room
from tourney.domain.house_rules_profiles import PROFILES
from tourney.models import Game, GameLimit, RebuyCondition, Tournament


class TournamentForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=160)
    scheduled_start = forms.DateTimeField(
        label=_("Start"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    max_entries = number_field(
        Entries,
        label=_("Entry cap"),
        required=False,
        help_text=_(
            "Players in play at once; past it entries wait on the waiting list (or are "
            "refused without one). Empty = the seats of the tables."
        ),
    )
    structure = forms.ModelChoiceField(label=_("Blind structure"), queryset=Structure.objects.all())
    # Not required: a form (or a script) without them deals no-limit Hold'em.
    game = forms.ChoiceField(
        label=_("Game"), choices=Game.choices, initial=Game.HOLDEM, required=False
    )
    game_limit = forms.ChoiceField(
        label=_("Betting"), choices=GameLimit.choices, initial=GameLimit.NO_LIMIT, required=False
    )
    room = forms.ModelChoiceField(label=_("Room"), queryset=Room.objects.all())
    house_rules = forms.ChoiceField(
        label=_("House rules"),
        choices=[(key, p.name) for key, p in PROFILES.items()],
        initial="tda2024",
    )
    starting_stack = number_field(Chips, least=1, label=_("Starting stack"), initial=40_000)
    buy_in = number_field(Money, label=_("Buy-in (to the prize pool)"), initial=10_000)
    fee = number_field(Money, label=_("Fee (to the house)"), initial=2_000)
    seats_per_table = number_field(TableSeats, label=_("Seats per table"), required=False)
    table_numbers = forms.CharField(
        label=_("Tables in opening order"),
        required=False,
        help_text=_("Comma-separated table numbers; empty = every table of the room."),
    )
    late_registration_level = number_field(
        LevelFromStart,
        label=_("Late registration until the end of level"),
        required=False,
        help_text=_("Empty = open while the tournament runs; 0 = closes at the start."),
    )
    waiting_list = forms.BooleanField(
        label=_("Waiting list when full"), required=False, initial=True
    )
    # Rebuys, add-on, re-entries and the guarantee (tourney.domain.purchases checks them).
    reentry_max = number_field(
        Purchases,
        label=_("Re-entries per player"),
        required=False,
        help_text=_("Empty = the house rules' number (0 = no re-entry)."),
    )
    rebuy_until_level = number_field(
        Level,
        label=_("Rebuys until the end of level"),
        required=False,
        help_text=_("Empty = no rebuys."),
    )
    rebuy_max = number_field(
        Purchases,
        label=_("Rebuys per entry"),
        initial=0,
        required=False,
        help_text=_("0 = no limit."),
    )
    rebuy_condition = forms.ChoiceField(
        label=_("Rebuy allowed when"), choices=RebuyCondition.choices, initial="at_most_start"
    )
    rebuy_buy_in = number_field(
        Money, label=_("Rebuy price (prize pool)"), initial=0, required=False
    )
    rebuy_fee = number_field(Money, label=_("Rebuy fee"), initial=0, required=False)
    rebuy_chips = number_field(Chips, label=_("Rebuy chips"), initial=0, required=False)
    addon_level = number_field(
        Level,
        label=_("Add-on at the break after level"),
        required=False,
        help_text=_("Empty = no add-on. Without a break there, during the next level."),
    )
    addon_buy_in = number_field(
        Money, label=_("Add-on price (prize pool)"), initial=0, required=False
    )
    addon_fee = number_field(Money, label=_("Add-on fee"), initial=0, required=False)
    addon_chips = number_field(Chips, label=_("Add-on chips"), initial=0, required=False)
    guarantee = number_field(
        PoolMoney,
        label=_("Guaranteed prize pool"),
        initial=0,
        required=False,
        help_text=_("0 = none; the house pays what the entries do not cover."),
    )
    # A bounty tournament (docs/rules.md §16): part of the buy-in on each player's head.
    bounty_kind = forms.ChoiceField(
        label=_("Bounty"),
        required=False,
        choices=[
            ("", _("No bounty")),
            ("knockout", _("Knockout")),
            ("progressive", _("Progressive knockout")),
            ("mystery", _("Mystery bounty")),
        ],
    )
    bounty_amount = number_field(
        Money,
        label=_("Bounty (part of the buy-in)"),
        required=False,
        help_text=_("Of the buy-in above: the rest is the prize pool."),
    )
    bounty_cash_percent = number_field(
        bounded(0, 100),
        label=_("Progressive: the eliminator's share in cash (percent)"),
        initial=50,
        required=False,
        help_text=_("The rest goes onto his own head."),
    )
    bounty_phase_players = number_field(
        bounded(1, 100_000),
        label=_("Mystery: envelopes drawn from this many players left"),
        required=False,
        help_text=_("Or from the level below, whichever comes first; neither: from the start."),
    )
    bounty_phase_level = number_field(
        bounded(1, 1_000), label=_("Mystery: envelopes drawn from level"), required=False
    )

    # A satellite (docs/rules.md §17): its prize pool buys seats of the target event.
    satellite_target = forms.TypedChoiceField(
        label=_("Satellite to"),
        required=False,
        coerce=int,
        empty_value=None,
        help_text=_("Its prize pool buys seats of this event; empty: not a satellite."),
    )
    satellite_seat_value = number_field(
        Money,
        label=_("A seat is worth"),
        required=False,
        help_text=_("Empty: the target's buy-in plus fee."),
    )
    satellite_leftover = forms.ChoiceField(
        label=_("What is left over after the seats"),
        required=False,
        choices=[
            ("next_place", _("Cash to the next place")),
            ("shared", _("Shared among the seat winners")),
            ("partial_seat", _("A partial seat (a ticket) to the next place")),
        ],
    )
    satellite_seat_holder = forms.ChoiceField(
        label=_("A player who holds a seat of the target already"),
        required=False,
        choices=[
            ("cash", _("Plays for the seat's value in cash")),
            ("refuse", _("Cannot enter this satellite")),
        ],
    )
    SATELLITE_FIELDS = (
        "satellite_target",
        "satellite_seat_value",
        "satellite_leftover",
        "satellite_seat_holder",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["satellite_target"].choices = satellite_targets()

    MONEY_FIELDS = (
        "bounty_kind",
        "bounty_amount",
        "bounty_cash_percent",
        "bounty_phase_players",
        "bounty_phase_level",
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
        aside = (*self.MONEY_FIELDS, *self.SATELLITE_FIELDS)
        return [f for f in self if f.name not in aside]

    def satellite_fields(self) -> list:
        return [self[name] for name in self.SATELLITE_FIELDS]

    def money_fields(self) -> list:
        return [f for f in self if f.name in self.MONEY_FIELDS]

    def money_errors(self) -> bool:
        return any(self.errors.get(name) for name in self.MONEY_FIELDS)

    def clean_table_numbers(self) -> list[int]:
        return number_list(
            self.cleaned_data["table_numbers"],
            TableNumber,
            _("Use table numbers separated by commas."),
        )


def satellite_targets(excluding: int | None = None) -> list[tuple[str, str]]:
    """The events a satellite can award seats of: not over, by name in the page's language."""
    open_events = Tournament.objects.exclude(
        status__in=(Tournament.Status.FINISHED, Tournament.Status.CANCELLED)
    ).exclude(pk=excluding)
    named = sorted_by_name(open_events.only("name"), key=lambda t: t.name)
    return [("", _("Not a satellite")), *((str(t.pk), t.name) for t in named[:200])]


def satellite_terms(data: dict) -> dict | None:
    """The form's satellite as the service takes it (None: not a satellite)."""
    if not data.get("satellite_target"):
        return None
    return {
        "target_id": data["satellite_target"],
        "seat_value": data.get("satellite_seat_value"),
        "leftover": data.get("satellite_leftover") or "next_place",
        "seat_holder": data.get("satellite_seat_holder") or "cash",
    }
