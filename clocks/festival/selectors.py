"""The live tournaments of a room (or of every room) as a festival's screens show them.

Each row names its tournament's event stream: the board's through the tournament's signed
display link (no login), the overview's with the director's session. The screens follow the
streams (static/js/festival.js) and refetch this state on the events that change its figures.
"""

from urllib.parse import urlencode

from django.conf import settings
from django.core import signing

from clocks.clock.selectors import clock_view, clocks_late, now_ms, structure_periods
from clocks.display.selectors import display_periods, display_token
from infra.text.money import money_pattern
from tables.clock_calls.selectors import clock_calls_active
from tables.models import FloorAction, Room
from tourney.models import Tournament
from tourney.sit_and_go.selectors import series_board
from tourney.tournaments.selectors import tournament_summary

LIVE = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)


def live_tournaments(room_id: int | None = None) -> list[Tournament]:
    """Tournaments not finished, by start: a room's (the board) or every room's."""
    rows = Tournament.objects.filter(status__in=LIVE).select_related(
        "room", "structure", "sng_series"
    )
    if room_id is not None:
        rows = rows.filter(room_id=room_id)
    return list(rows.order_by("scheduled_start", "pk"))


def events_url(tournament: Tournament, signed: bool) -> str:
    """The tournament's event stream: through its display link (`signed`), else for staff."""
    url = f"/api/v1/tournaments/{tournament.pk}/events"
    if not signed:
        return url
    token = display_token(tournament.pk, tournament.display_link_generation)
    return f"{url}?{urlencode({'display': token})}"


def board_row(tournament: Tournament, now: int, signed: bool = True) -> dict:
    """What the lobby board shows of one tournament: its clock and public figures."""
    summary = tournament_summary(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "currency": tournament.currency,
        "money": money_pattern(tournament.currency),
        # A sit-and-go filling shows its seats taken of its table's ("7/9", docs/rules.md §19).
        "seats": tournament.sng_series.seats if tournament.sng_series_id else None,
        "events_url": events_url(tournament, signed),
        "clock": clock_view(tournament, now),
        "periods": display_periods(structure_periods(tournament.structure_id)),
        "stats": {
            "entries": summary.entries,
            "players_remaining": summary.players_remaining,
            "average_stack": summary.average_stack,
            "prize_pool": summary.prize_pool,
        },
    }


def board_state(room_id: int | None) -> dict:
    now = now_ms()
    return {
        "tournaments": [board_row(t, now) for t in live_tournaments(room_id)],
        "series": series_board(room_id),  # sit-and-gos: filling, running, last winners
        "server_time_ms": now,
    }


def overview_state() -> dict:
    """Every live tournament with its clock, the floor's pending actions and its alerts
    (timers late, hand-for-hand, clocks called, the floor's to-do list)."""
    now = now_ms()
    late = dict(clocks_late(now))
    rows = []
    for tournament in live_tournaments():
        row = board_row(tournament, now, signed=False)
        pending = FloorAction.objects.filter(
            tournament=tournament, status=FloorAction.Status.PENDING, parent__isnull=True
        ).count()
        calls = len(clock_calls_active(tournament))
        alerts = []
        if tournament.pk in late:
            alerts.append({"kind": "timers_late", "late_ms": late[tournament.pk]})
        if tournament.hand_for_hand:
            alerts.append({"kind": "hand_for_hand"})
        if calls:
            alerts.append({"kind": "clock_calls", "count": calls})
        rows.append(
            row | {"room": tournament.room.name, "pending_actions": pending, "alerts": alerts}
        )
    return {"tournaments": rows, "series": series_board(None), "server_time_ms": now}


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.DISPLAY_LINK_SALT + ".board")


def board_token(room: Room) -> str:
    return _signer().sign_object({"r": room.pk, "g": room.board_link_generation})


def board_room_id(token: str) -> int | None:
    """The room a board token shows, or None (forged, malformed or revoked)."""
    try:
        data = _signer().unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    room_id, generation = data.get("r"), data.get("g")
    if not isinstance(room_id, int) or not isinstance(generation, int):
        return None
    current = Room.objects.filter(pk=room_id, board_link_generation=generation)
    return room_id if current.exists() else None
