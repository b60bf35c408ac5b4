"""A sit-and-go series (docs/rules.md §19): one-table events dealt one after another from the
same settings, each starting itself when its last seat is taken."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tourney.models.games import Game, GameLimit


class SitAndGoSeries(models.Model):
    name = models.CharField(_("name"), max_length=120)
    room = models.ForeignKey("tables.Room", on_delete=models.PROTECT, related_name="sng_series")
    structure = models.ForeignKey(
        "clocks.Structure", on_delete=models.PROTECT, related_name="sng_series"
    )
    starting_stack = models.PositiveBigIntegerField(_("starting stack"))
    buy_in = models.PositiveBigIntegerField(_("buy-in"))
    fee = models.PositiveBigIntegerField(_("fee"), default=0)
    currency = models.CharField(_("currency"), max_length=8, default="HUF")
    seats = models.PositiveSmallIntegerField(_("seats"))  # 2..10: the table it fills
    game = models.CharField(_("game"), max_length=12, choices=Game.choices, default=Game.HOLDEM)
    game_limit = models.CharField(
        _("betting"), max_length=12, choices=GameLimit.choices, default=GameLimit.NO_LIMIT
    )
    house_rules = models.CharField(_("house rules"), max_length=20, default="tda2024")
    rules_overrides = models.JSONField(default=dict, blank=True)
    payout_structure = models.ForeignKey(
        "PayoutStructure", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Seconds between the last seat taken and the start (the players sit down, the dealer
    # draws the button by high card).
    countdown_seconds = models.PositiveIntegerField(_("countdown before the start"), default=60)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(  # as `AuditEntry.actor`: no constraint
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,
    )

    class Meta:
        ordering = ["name", "pk"]

    def __str__(self) -> str:
        return self.name
