"""Tournament writes inside a use case's transaction: its tables, marking it running, late
registration's deadline recorded."""

from collections.abc import Sequence

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.domain.clock import AdvanceResult, ClockState
from clocks.domain.structures import Period
from tables.models import Room, Table, TournamentTable
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput
from tourney.domain.registration import deadline_crossing
from tourney.events.log import event_append
from tourney.models import Game, GameLimit, Tournament
from tourney.tournaments.selectors import registration_deadline_level

# What the audit log says when registration closes or opens again (level 0: at the start).
_REGISTRATION_TEXTS = {
    ("closed", False): gettext_noop("Late registration closed at the end of level %(level)s"),
    ("open", False): gettext_noop(
        "Late registration reopened: the clock went back to level %(level)s"
    ),
    ("closed", True): gettext_noop("Registration closed: the clock started (no late registration)"),
    ("open", True): gettext_noop("Registration reopened: the clock went back before the start"),
}


def game_checked(kind: str, limit: str) -> tuple[str, str]:
    """The game and its betting as stored (docs/api.md `game`), or 422 `invalid_game`."""
    if kind not in Game.values or limit not in GameLimit.values:
        raise InvalidInput(
            "invalid_game",
            _("The game is one of %(games)s; the betting one of %(limits)s.")
            % {"games": ", ".join(Game.values), "limits": ", ".join(GameLimit.values)},
        )
    return kind, limit


def room_tables_chosen(
    room: Room, table_numbers: Sequence[int] | None
) -> tuple[dict[int, Table], list[int]]:
    """The room's tables by number and the numbers chosen (all, by number, when none are
    given), in opening order; refused when a number repeats or the room has no such table."""
    room_tables = {t.number: t for t in Table.objects.filter(room=room)}
    numbers = list(table_numbers) if table_numbers else sorted(room_tables)
    if len(set(numbers)) != len(numbers):
        raise InvalidInput("duplicate_table_number", _("Each table may be listed only once."))
    unknown = [n for n in numbers if n not in room_tables]
    if unknown:
        raise InvalidInput(
            "unknown_table",
            _("The room has no table %(numbers)s.") % {"numbers": ", ".join(map(str, unknown))},
        )
    if not numbers:
        raise InvalidInput("invalid_tables", _("The tournament needs at least one table."))
    return room_tables, numbers


def tournament_tables_create(
    tournament: Tournament, room_tables: dict[int, Table], numbers: list[int], seats: int
) -> None:
    """The tournament's tables in opening order, each with at most `seats` seats in play."""
    TournamentTable.objects.bulk_create(
        TournamentTable(
            tournament=tournament,
            table=room_tables[n],
            number=n,
            open_order=i,
            seats=min(room_tables[n].seats, seats),
        )
        for i, n in enumerate(numbers, start=1)
    )


def tournament_mark_running(*, actor, tournament: Tournament) -> None:
    """Inside the clock's start: registering -> running (late registration from now on)."""
    if tournament.status != Tournament.Status.REGISTERING:
        return
    if tournament.seats_drawn_at is None:
        raise Conflict("draw_not_done", _("Draw the seats before starting."))
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    audit_record(
        actor=actor,
        action="tournament.start",
        summary=audit_text("Started %(name)s", {"name": tournament.name}),
        tournament=tournament,
        target=tournament,
        before={"status": "registering"},
        after={"status": "running"},
    )
    event_append(tournament, "tournament", {"status": tournament.status})


def registration_deadline_record(
    *,
    tournament: Tournament,
    before: ClockState,
    result: AdvanceResult,
    periods: list[Period],
    now_ms: int,
) -> None:
    """Inside a clock change: record late registration closing (or reopening, when the clock
    went back) with a `registration` event and an audit entry, once per crossing."""
    level = registration_deadline_level(tournament)
    if level is None:
        return
    crossing = deadline_crossing(before, result, periods, level, now_ms)
    if crossing is None:
        return
    status, at_ms = crossing
    audit_record(
        actor=None,
        action=f"registration.{status}",
        summary=audit_text(
            _REGISTRATION_TEXTS[status, level == 0],
            {"level": level},
        ),
        tournament=tournament,
        target=tournament,
        after={"status": status, "level": level, "at_ms": at_ms},
    )
    event_append(tournament, "registration", {"status": status, "level": level, "at_ms": at_ms})
