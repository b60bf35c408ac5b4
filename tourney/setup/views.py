"""The tournament settings page: edit a tournament after creating it (director)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from clocks.clock.selectors import structure_periods
from clocks.domain.structures import house_differences
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
from tourney.tournaments.selectors import tournament_rules


def _house_structure(tournament: Tournament) -> list[str]:
    """Where the tournament's structure departs from the house's usual one (docs/rules.md
    §1.7): a sentence each, for the director; the clock plays the structure."""
    rules = tournament_rules(tournament)
    texts = {
        "level_minutes": _("Levels of %(s)s minutes; the house plays %(h)s."),
        "break_every": _("A break after %(s)s levels; the house breaks after every %(h)s."),
        "break_minutes": _("A break of %(s)s minutes; the house's are %(h)s."),
    }
    return [
        texts[d.what] % {"s": d.structure, "h": d.house}
        for d in house_differences(
            structure_periods(tournament.structure_id),
            rules.level_minutes,
            rules.break_every,
            rules.break_minutes,
        )
    ]


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
            "house_structure": _house_structure(tournament),
        },
        status=status,
    )
