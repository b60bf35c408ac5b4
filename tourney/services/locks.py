"""Row locks, always taken in one order: the tournament row first."""

from django.utils.translation import gettext as _

from tourney.errors import NotFound
from tourney.models import Tournament


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock and return the tournament (SQLite: the IMMEDIATE transaction already serializes)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(
            "tournament_not_found",
            _("There is no tournament with id %(id)s.") % {"id": tournament_id},
        )
    return tournament
