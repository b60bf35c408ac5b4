"""The tournament settings page: edit a tournament after creating it (director)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from tourney.core.errors import TourneyError
from tourney.domain.house_rules_profiles import PROFILES
from tourney.models import Tournament
from tourney.setup.forms import TournamentSettingsForm
from tourney.setup.usecases import (
    settings_token,
    setup_locks,
    setup_values,
    tournament_update,
)
from tourney.system.pages import role_required


@role_required("director")
def tournament_settings(request, tournament_id: int):
    tournament = get_object_or_404(
        Tournament.objects.select_related("room", "structure"), pk=tournament_id
    )
    values = setup_values(tournament)
    form = TournamentSettingsForm(
        request.POST if request.method == "POST" else None,
        tournament=tournament,
        token=settings_token(tournament, values),
        table_numbers=values["table_numbers"],
    )
    form.lock(setup_locks(tournament))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                tournament_update(
                    actor=request.user,
                    tournament_id=tournament.pk,
                    changes=form.changes(),
                    expected_token=form.cleaned_data["settings_token"],
                )
            except TourneyError as exc:
                form.add_error(None, exc.detail)
                status = exc.status_code
            else:
                messages.success(request, _("Settings saved."))
                return redirect("tourney:tournament_settings", tournament.pk)
        else:
            status = 422
    return render(
        request,
        "tourney/tournament_settings.html",
        {
            "tournament": tournament,
            "form": form,
            "profile": PROFILES[tournament.house_rules],
        },
        status=status,
    )
