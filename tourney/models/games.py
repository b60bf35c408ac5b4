"""The game an event deals and its betting (docs/api.md `game`: {kind, limit})."""

from django.db import models
from django.utils.translation import gettext_lazy as _


class Game(models.TextChoices):
    """The game dealt (Mirage 000 deals Hold'em and Omaha; a mixed event rotates games)."""

    HOLDEM = "holdem", _("Hold'em")
    OMAHA = "omaha", _("Omaha")
    OMAHA_HILO = "omaha_hilo", _("Omaha Hi-Lo")
    OMAHA_5 = "omaha5", _("5-card Omaha")
    SHORT_DECK = "short_deck", _("Short Deck Hold'em")
    STUD = "stud", _("Seven-card Stud")
    MIXED = "mixed", _("Mixed games")


class GameLimit(models.TextChoices):
    NO_LIMIT = "no_limit", _("No-limit")
    POT_LIMIT = "pot_limit", _("Pot-limit")
    LIMIT = "limit", _("Limit")
    MIXED = "mixed", _("Mixed limits")


def game_name(kind: str, limit: str) -> str:
    """ "No-limit Hold'em", "Pot-limit Omaha", "Mixed games": in the reader's language."""
    from django.utils.translation import gettext

    if kind == Game.MIXED:
        return str(Game(kind).label)
    return gettext("%(limit)s %(game)s") % {
        "limit": GameLimit(limit).label,
        "game": Game(kind).label,
    }
