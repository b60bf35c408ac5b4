"""Tickets (docs/rules.md §17.4): a seat won in a satellite, kept in the player's account until
he registers with it in the target event, it is transferred to another event of the same value,
or cashed out. Never deleted: a satellite's finish undone voids its tickets."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Ticket(models.Model):
    class Status(models.TextChoices):
        ACTIVE = "active", _("Not used yet")
        USED = "used", _("Used")
        CASHED_OUT = "cashed_out", _("Cashed out")
        VOID = "void", _("Void")

    player = models.ForeignKey("tourney.Player", on_delete=models.PROTECT, related_name="tickets")
    # Where it was won (the satellite and the entry that won it); the event it enters.
    source = models.ForeignKey(
        "tourney.Tournament", on_delete=models.PROTECT, related_name="tickets_won"
    )
    source_entry = models.ForeignKey(
        "tourney.Entry", on_delete=models.PROTECT, related_name="tickets_won"
    )
    target = models.ForeignKey(
        "tourney.Tournament", on_delete=models.PROTECT, related_name="tickets"
    )
    # In the target's currency units: a whole seat is its buy-in plus fee; less is a partial seat.
    value = models.PositiveBigIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.ACTIVE)
    # The target's entry registered on it (status used).
    entry = models.OneToOneField(
        "tourney.Entry", null=True, blank=True, on_delete=models.PROTECT, related_name="ticket"
    )
    created_at = models.DateTimeField()
    changed_at = models.DateTimeField()
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        db_constraint=False,
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["player", "status"])]

    def __str__(self) -> str:
        return f"ticket {self.pk} ({self.value})"
