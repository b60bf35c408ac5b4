"""A championship's seasons (docs/rules.md §13)."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Season(models.Model):
    """A championship of rounds (Rimóc; docs/rules.md §13): tournaments whose places earn points
    (`points_formula`: linear, a points table by place, or 10 x sqrt(entries / place)).
    `best_of` counts only a player's best rounds (empty = all)."""

    class Formula(models.TextChoices):
        LINEAR = "linear", _("Entries minus place plus one")
        TABLE = "table", _("Points table by place")
        SQRT = "sqrt", _("10 x square root of entries / place")

    name = models.CharField(_("name"), max_length=160)
    points_formula = models.CharField(
        _("points formula"), max_length=10, choices=Formula.choices, default=Formula.LINEAR
    )
    points_table = models.JSONField(default=list, blank=True)
    best_of = models.PositiveIntegerField(_("best rounds counted"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return self.name
