"""Absolute URLs of a player's page (for the API, the seat card and the receipt)."""

from django.urls import reverse

from tourney.player_page.links import player_token


def player_url(request, token: str) -> str:
    return request.build_absolute_uri(reverse("player_page:page", args=[token]))


def player_url_for(request, tournament_id: int, entry_id: int) -> str:
    return player_url(request, player_token(tournament_id, entry_id))
