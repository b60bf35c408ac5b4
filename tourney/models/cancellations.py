"""An event cancelled by the director (docs/rules.md §18)."""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Settlement(models.TextChoices):
    REFUND = "refund", _("Every buy-in and fee refunded")
    CHIP_COUNT = "chip_count", _("The prizes left shared by chip count")
    EQUAL = "equal", _("The prizes left shared equally")


class Cancellation(models.Model):
    """Why and how an event was cancelled, and the status it had (the undo puts it back). One
    standing at a time; an undone one stays, with `undone_at`, for the record."""

    tournament = models.ForeignKey(
        "Tournament", on_delete=models.CASCADE, related_name="cancellations"
    )
    reason = models.CharField(_("reason"), max_length=300)
    settlement = models.CharField(_("settlement"), max_length=12, choices=Settlement.choices)
    status_before = models.CharField(max_length=12)
    at = models.DateTimeField()
    by = models.ForeignKey(  # as `AuditEntry.actor`: no constraint
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,
    )
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["tournament"],
                condition=Q(undone_at__isnull=True),
                name="one_standing_cancellation",
            )
        ]
