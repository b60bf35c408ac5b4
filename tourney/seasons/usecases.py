"""Championships (seasons): their points formula, the tournaments that are its rounds, and the
standings across them (`tourney.domain.seasons`). A disqualified player scores 0 in that
round; players still in a running round have no points from it yet."""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.core.locks import tournament_lock
from tourney.domain.seasons import (
    POINT_SCALE,
    PointsRule,
    RoundResult,
    SeasonError,
    points_for,
    standings,
    validate_rule,
)
from tourney.events.log import event_append
from tourney.models import Season, Tournament
from tourney.payouts.selectors import tournament_results
from tourney.tournaments.selectors import tournament_summary

MESSAGES = [
    gettext_noop("The points formula must be linear, table or sqrt."),
    gettext_noop("Give the points of at least 1st place."),
    gettext_noop("At most %(max)s places in a points table."),
    gettext_noop("Place %(place)s: points must be a whole number, 0 or more."),
    gettext_noop("Place %(place)s gets more points than place %(better)s."),
]


def season_rule(season: Season) -> PointsRule:
    return PointsRule(season.points_formula, tuple(season.points_table or ()))


def season_out(season: Season) -> dict:
    return {
        "id": season.pk,
        "name": season.name,
        "points_formula": season.points_formula,
        "points_table": list(season.points_table or []),
        "best_of": season.best_of,
        "tournaments": [
            {"id": t.pk, "name": t.name, "round": t.season_round, "status": t.status}
            for t in season.tournaments.order_by("season_round", "created_at")
        ],
    }


def _clean(name: str, points_formula: str, points_table, best_of) -> tuple:
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput("invalid_name", _("A championship needs a name."))
    table = tuple(points_table or ()) if points_formula == "table" else ()
    try:
        validate_rule(PointsRule(points_formula, table))
    except SeasonError as exc:
        raise refusal(exc, InvalidInput) from exc
    if best_of is not None and best_of < 1:
        raise InvalidInput(
            "invalid_best_of", _("Count at least one round, or leave it empty for all.")
        )
    return name[:160], list(table), best_of


@transaction.atomic(durable=True)
def season_create(
    *, actor, name: str, points_formula: str = "linear", points_table=None, best_of=None
) -> Season:
    name, table, best_of = _clean(name, points_formula, points_table, best_of)
    season = Season.objects.create(
        name=name, points_formula=points_formula, points_table=table, best_of=best_of
    )
    audit_record(
        actor=actor,
        action="season.create",
        summary=audit_text(gettext_noop("Created championship %(name)s"), {"name": name}),
        target=season,
        after=season_out(season),
    )
    return season


@transaction.atomic(durable=True)
def season_update(
    *, actor, season_id: int, name: str, points_formula: str, points_table=None, best_of=None
) -> Season:
    season = Season.objects.select_for_update(no_key=True).filter(pk=season_id).first()
    if season is None:
        raise NotFound("season_not_found", _("There is no such championship."))
    name, table, best_of = _clean(name, points_formula, points_table, best_of)
    before = season_out(season)
    season.name, season.points_formula = name, points_formula
    season.points_table, season.best_of = table, best_of
    season.save(update_fields=["name", "points_formula", "points_table", "best_of"])
    audit_record(
        actor=actor,
        action="season.update",
        summary=audit_text(gettext_noop("Changed championship %(name)s"), {"name": name}),
        target=season,
        before=before,
        after=season_out(season),
    )
    return season


def tournament_season_set(
    *, actor, tournament_id: int, season_id: int | None, season_round: int | None
) -> Tournament:
    """Make the tournament a round of a championship (None: none). Refused: a round number
    another tournament of the season has (`round_taken`), a round below 1."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        season = None
        if season_id is not None:
            season = Season.objects.filter(pk=season_id).first()
            if season is None:
                raise NotFound("season_not_found", _("There is no such championship."))
            if season_round is None:
                season_round = (
                    max(
                        (
                            r
                            for r in season.tournaments.exclude(pk=tournament.pk).values_list(
                                "season_round", flat=True
                            )
                            if r
                        ),
                        default=0,
                    )
                    + 1
                )
            if season_round < 1:
                raise InvalidInput("invalid_round", _("Rounds are numbered from 1."))
            if (
                season.tournaments.exclude(pk=tournament.pk)
                .filter(season_round=season_round)
                .exists()
            ):
                raise Conflict(
                    "round_taken",
                    _("Round %(n)s of this championship is another tournament.")
                    % {"n": season_round},
                )
        else:
            season_round = None
        before = {"season_id": tournament.season_id, "round": tournament.season_round}
        tournament.season, tournament.season_round = season, season_round
        tournament.save(update_fields=["season", "season_round"])
        audit_record(
            actor=actor,
            action="tournament.season",
            summary=audit_text(
                gettext_noop("Round %(round)s of championship %(season)s")
                if season
                else gettext_noop("No longer a championship round"),
                {"round": season_round, "season": season.name if season else ""},
            ),
            tournament=tournament,
            target=tournament,
            before=before,
            after={"season_id": season_id, "round": season_round},
        )
        event_append(
            tournament, "tournament", {"season_id": season_id, "season_round": season_round}
        )
        return tournament


def round_points(season: Season, tournament: Tournament) -> list[dict]:
    """The points of each finished player of one round: {player_id, player_name, place,
    place_to, points (hundredths)}."""
    rule = season_rule(season)
    results = tournament_results(tournament)
    entries = tournament_summary(tournament).entries
    paid = len(results.payouts)
    return [
        {
            "player_id": r["player_id"],
            "player_name": r["player_name"],
            "place": r["place"],
            "place_to": r["place_to"],
            "points": 0
            if r["disqualified"]
            else points_for(rule, r["place"], r["place_to"], entries, paid),
        }
        for r in results.rows
    ]


def season_standings(season: Season) -> dict:
    """{season, rounds: [{tournament_id, name, round, status}], standings: [{rank, player_id,
    player_name, points, counted: [tournament ids], rounds: {tournament id: points}}]};
    points as numbers with up to 2 decimals."""
    rounds = list(season.tournaments.order_by("season_round", "created_at"))
    results, names = [], {}
    for tournament in rounds:
        for row in round_points(season, tournament):
            names[row["player_id"]] = row["player_name"]
            results.append(RoundResult(row["player_id"], tournament.pk, row["points"]))
    table = standings(results, season.best_of, names)
    return {
        "season": season_out(season),
        "rounds": [
            {"tournament_id": t.pk, "name": t.name, "round": t.season_round, "status": t.status}
            for t in rounds
        ],
        "standings": [
            {
                "rank": s.rank,
                "player_id": s.player,
                "player_name": names[s.player],
                "points": s.total / POINT_SCALE,
                "counted": list(s.counted),
                "rounds": {str(k): v / POINT_SCALE for k, v in s.rounds.items()},
            }
            for s in table
        ],
    }
