"""The console's summary numbers as a part of their own, so the page refreshes them live.

floor.js refetches it (tourney:console_summary) on the events that change entries, players
left, the prize pool, the chips in play or the average stack.
"""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from tourney import roles
from tourney.models import AuditEntry, Tournament
from tourney.selectors import tournament_summary
from tourney.undo_links import undo_links
from tourney.views_support import role_required


@role_required("read")
def console_summary(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {"tournament": tournament, "summary": tournament_summary(tournament)}
    return render(request, "tourney/_summary_stats.html", context)


def console_activity_rows(request: HttpRequest, tournament: Tournament) -> list[AuditEntry]:
    """The latest 15 actions, each with the undo this user may press."""
    latest = AuditEntry.objects.filter(tournament=tournament).select_related("actor")[:15]
    return undo_links(latest, request.user)


@role_required("read")
def console_activity(request: HttpRequest, tournament_id: int) -> HttpResponse:
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    context = {
        "tournament": tournament,
        "activity": console_activity_rows(request, tournament),
        "can_direct": roles.can(request.user, "director"),
    }
    return render(request, "tourney/_activity.html", context)
