"""Staff: their roles and profiles, and the API tokens of scripts."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class StaffRole(models.TextChoices):
    DIRECTOR = "director", _("Director")
    FLOOR = "floor", _("Floor")
    DESK = "desk", _("Desk")
    DISPLAY = "display", _("Display")


class StaffProfile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="staff"
    )
    role = models.CharField(_("role"), max_length=10, choices=StaffRole.choices)
    language = models.CharField(_("language"), max_length=8, blank=True)

    def __str__(self) -> str:
        return f"{self.user} ({self.role})"


class ApiToken(models.Model):
    """A bearer token for scripts; only its SHA-256 is stored."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    name = models.CharField(max_length=80, blank=True)
    token_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
