"""Blind structures: chips, levels and breaks."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clocks.domain.structures import TEMPLATES

# The built-in templates' names on screen, in the reader's language (issue 32: Hungarian screens
# showed the English name); the stored name stays as installed (exports, the API).
TEMPLATE_NAMES = {"rimoc-championship": _("Rimóc championship (15-minute levels)")}


class Structure(models.Model):
    name = models.CharField(_("name"), max_length=120)
    description = models.TextField(_("description"), blank=True)
    # [{"value": 100, "color": "grey"}, ...] in ascending value
    chips = models.JSONField(default=list)
    starting_stack = models.PositiveBigIntegerField(_("starting stack"), null=True, blank=True)
    template_key = models.CharField(max_length=60, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return self.display_name

    @property
    def display_name(self) -> str:
        """The name to show: a built-in template's in the active language, else as stored."""
        shipped = TEMPLATES.get(self.template_key)
        if (
            shipped is not None
            and self.name == shipped.name
            and self.template_key in TEMPLATE_NAMES
        ):
            return str(TEMPLATE_NAMES[self.template_key])
        return self.name


class StructureLevel(models.Model):
    """One period of a structure: a blind level or a break (with the chips colored up)."""

    class Kind(models.TextChoices):
        LEVEL = "level", _("level")
        BREAK = "break", _("break")

    structure = models.ForeignKey(Structure, on_delete=models.CASCADE, related_name="levels")
    position = models.PositiveIntegerField()
    kind = models.CharField(max_length=5, choices=Kind.choices)
    small_blind = models.PositiveBigIntegerField(default=0)
    big_blind = models.PositiveBigIntegerField(default=0)
    ante = models.PositiveBigIntegerField(default=0)
    duration_seconds = models.PositiveIntegerField()
    color_up = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["structure_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["structure", "position"], name="level_position_unique"),
        ]


class Clock(models.Model):
    """The stored truth of a tournament's blind clock (see clocks.domain.clock.ClockState).

    Written only through clocks.clock.usecases with a compare-and-set on `version`.
    """

    tournament = models.OneToOneField(
        "tourney.Tournament", on_delete=models.CASCADE, related_name="clock"
    )
    status = models.CharField(max_length=10, default="pending")
    period_index = models.PositiveIntegerField(default=0)
    period_ends_at_ms = models.BigIntegerField(null=True, blank=True, db_index=True)
    paused_remaining_ms = models.BigIntegerField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)


class ColorUp(models.Model):
    """A color-up at one table during a break (docs/rules.md §8.6): round-up or chip race.

    `seats` = [{"seat", "entry_id", "stack_before" | "odd_chips", "cards": [..],
    "awarded": int, "stack_after"}]; `chips_change` is what the chips in play changed by
    (round-up increases; race rounding and extra chips), in chip value.
    """

    class Method(models.TextChoices):
        ROUND_UP = "round_up", _("Round up")
        RACE = "race", _("Chip race")

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        DONE = "done", _("Done")
        UNDONE = "undone", _("Undone")

    tournament = models.ForeignKey(
        "tourney.Tournament", on_delete=models.CASCADE, related_name="color_ups"
    )
    tournament_table = models.ForeignKey(
        "tables.TournamentTable", on_delete=models.PROTECT, related_name="color_ups"
    )
    period_index = models.PositiveIntegerField()
    method = models.CharField(max_length=10, choices=Method.choices)
    removed_values = models.JSONField(default=list)
    denomination = models.PositiveBigIntegerField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.OPEN)
    seats = models.JSONField(default=list)
    cards_recorded = models.BooleanField(default=False)
    chips_change = models.BigIntegerField(default=0)
    # How the table's numbers were reached, for the result page and the log: the odd-chip
    # `unit` and `k`, the race's rules and counts (`rounding`, `zero_stack`, `start_seat`,
    # `total_odd`, `race_chips`, `chips_to_race`, `extra_chips`, `deal_order`), and the
    # chips `found` later and exchanged (TDA 24-C).
    details = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField()
    done_at = models.DateTimeField(null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["tournament_id", "period_index", "tournament_table_id", "id"]
