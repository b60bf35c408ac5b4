"""The seating chart and the dealer's table page."""

from django.shortcuts import get_object_or_404, render

from tables.floor.selectors import floor_actions_list, seats_leaving
from tables.models import FloorAction
from tables.seating.selectors import seated_players_by_name, tournament_tables_layout
from tourney.models import Tournament
from tourney.system.pages import role_required


@role_required("read")
def seating_chart(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    tables = tournament_tables_layout(tournament)
    seats_leaving(tables, floor_actions_list(tournament, FloorAction.Status.PENDING))
    return render(
        request,
        "tables/seating_chart.html",
        {"tournament": tournament, "tables": tables, "by_name": seated_players_by_name(tables)},
    )
