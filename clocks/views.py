"""Lobby display pages opened from a signed read-only link."""

from django.http import Http404
from django.shortcuts import get_object_or_404, render

from clocks.display_links import display_token_tournament_id
from tables.selectors import seated_players_by_name, tournament_tables_layout
from tourney.domain.text import search_key
from tourney.models import Tournament
from tourney.selectors import tournament_summary


def _tournament_for(token: str) -> Tournament:
    tournament_id = display_token_tournament_id(token)
    if tournament_id is None:
        raise Http404
    return get_object_or_404(Tournament, pk=tournament_id)


def _seat_rows(tournament: Tournament) -> list[dict]:
    return seated_players_by_name(tournament_tables_layout(tournament))


def _opening_periods(tournament: Tournament, count: int = 5) -> list[dict]:
    """The structure's first periods (levels numbered 1, 2, ..., and breaks), for the lobby
    screen before the clock starts."""
    periods, level = [], 0
    for p in tournament.structure.levels.order_by("position")[:count]:
        level += p.kind == "level"
        periods.append(
            {
                "kind": p.kind,
                "level": level,
                "small_blind": p.small_blind,
                "big_blind": p.big_blind,
                "ante": p.ante,
                "minutes": p.duration_seconds // 60,
            }
        )
    return periods


def display(request, token: str):
    tournament = _tournament_for(token)
    return render(
        request,
        "clocks/display.html",
        {
            "tournament": tournament,
            "summary": tournament_summary(tournament),
            "token": token,
            "seats": _seat_rows(tournament),
            "opening_periods": _opening_periods(tournament),
        },
    )


def display_seats(request, token: str):
    """Find your seat: the rows whose name contains every typed word (accents ignored)."""
    tournament = _tournament_for(token)
    words = search_key(request.GET.get("q", "")).split()
    rows = [r for r in _seat_rows(tournament) if all(w in search_key(r["name"]) for w in words)]
    return render(
        request,
        "clocks/_display_seats.html",
        {"seats": rows[:30], "query": request.GET.get("q", "")},
    )
