"""The public page of a tournament (docs/rules.md §15.6): no login, no contact details, read
by players' friends and the room's website through the proxy's cache."""

import hashlib

from django.conf import settings
from django.core import signing
from django.db.models import Q

from clocks.clock.selectors import clock_view
from tables.seating.selectors import seated_players_by_name, tournament_tables_layout
from tourney.cancelling.selectors import cancel_reason
from tourney.chip_counts.selectors import chip_leaderboard
from tourney.core.errors import Conflict
from tourney.flights.selectors import flight_rows
from tourney.models import Tournament
from tourney.payouts.selectors import tournament_payouts, tournament_results
from tourney.tournaments.selectors import tournament_summary

LEADERS = 10


def public_token(tournament: Tournament) -> str:
    """The token of the tournament's current public link (revoking bumps its generation)."""
    return signing.dumps(
        {"t": tournament.pk, "g": tournament.public_link_generation},
        salt=settings.PUBLIC_LINK_SALT,
        compress=True,
    )


def public_tournament(token: str) -> Tournament | None:
    """The tournament a public token shows, or None (forged, malformed or revoked)."""
    try:
        data = signing.loads(token, salt=settings.PUBLIC_LINK_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    tournament_id, generation = data.get("t"), data.get("g")
    if not isinstance(tournament_id, int) or not isinstance(generation, int):
        return None
    return Tournament.objects.filter(pk=tournament_id, public_link_generation=generation).first()


def public_etag(token: str, language: str) -> str | None:
    """What the page shows changes only with an event of the tournament or of one of its
    flights (the clock's changes are events too): their versions make the ETag, one query."""
    tournament = public_tournament(token)
    if tournament is None:
        return None
    versions = Tournament.objects.filter(
        Q(pk=tournament.pk) | Q(main_event_id=tournament.pk)
    ).values_list("pk", "version", "status")
    raw = f"{language}:{sorted(versions)}:{tournament.public_link_generation}"
    return hashlib.sha256(raw.encode()).hexdigest()[:32]


def _safe(read, default):
    try:
        return read()
    except Conflict:
        return default


def public_state(tournament: Tournament) -> dict:
    """What the page shows: the clock, the field, the chip leaders, payouts, results, the
    flights of a main event and the Day-2 seats by name. Names only: no contact details."""
    summary = tournament_summary(tournament)
    main = tournament.is_main_event
    results = _safe(lambda: tournament_results(tournament).rows, [])
    return {
        "clock": clock_view(tournament),
        # Cancelled (docs/rules.md §18): why, as every screen says it.
        "cancel_reason": cancel_reason(tournament),
        "summary": summary,
        # a flight over: its players bagged for Day 2 are its players left
        "players_left": summary.players_remaining
        + (summary.bagged if tournament.main_event_id else 0),
        "leaders": chip_leaderboard(tournament, limit=LEADERS),
        "payouts": []
        if tournament.main_event_id
        else _safe(lambda: tournament_payouts(tournament), []),
        "results": [
            {"place": r["place"], "name": r["player_name"], "prize": r["prize"]} for r in results
        ],
        "flights": flight_rows(tournament) if main else [],
        "seats": (
            seated_players_by_name(tournament_tables_layout(tournament))
            if main and tournament.seats_drawn_at
            else []
        ),
    }
