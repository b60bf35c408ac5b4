"""Which bans apply where: a general ban everywhere, a season ban in that season only."""

from datetime import datetime

from django.db.models import Q

from tourney.models import Player, PlayerBan, Tournament
from tourney.selectors import active_bans


def tournament_bans(tournament: Tournament, now: datetime):
    """Bans in force at `now` that keep a player out of `tournament`: those without a season,
    and those of the tournament's season (Rimóc's exclusion from the championship, docs/rules.md
    §10.5)."""
    scope = Q(season=None)
    if tournament.season_id is not None:
        scope |= Q(season_id=tournament.season_id)
    return active_bans(now).filter(scope)


def player_tournament_ban(
    player: Player, tournament: Tournament, now: datetime
) -> PlayerBan | None:
    return (
        tournament_bans(tournament, now)
        .filter(player=player)
        .select_related("season")
        .order_by("-starts_at")
        .first()
    )


def players_tournament_bans(
    players: list[Player], tournament: Tournament, now: datetime
) -> dict[int, PlayerBan]:
    """`player_tournament_ban` of many players in one query: player id -> the newest ban."""
    found: dict[int, PlayerBan] = {}
    for ban in (
        tournament_bans(tournament, now)
        .filter(player__in=players)
        .select_related("season")
        .order_by("starts_at")
    ):
        found[ban.player_id] = ban
    return found


def player_bans(player: Player) -> list[PlayerBan]:
    """Every ban of a player, newest first, lifted and ended ones included."""
    return list(
        PlayerBan.objects.filter(player=player)
        .select_related("season", "created_by")
        .order_by("-starts_at", "-id")
    )
