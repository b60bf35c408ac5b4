from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class TourneyConfig(AppConfig):
    name = "tourney"
    verbose_name = _("Tournaments")
