"""The seat draw, late seating, opening tables and manual seat assignment."""

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.gc_pause import collector_paused
from infra.randomness import BufferedSystemRandom
from tables.draw.operations import seats_draw_locked
from tables.models import TournamentTable
from tables.seating.operations import moves_void_for, seat_held_from, table_open
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.core.locks import tournament_lock
from tourney.events.log import event_append
from tourney.models import Entry, Tournament


def seats_draw(*, actor, tournament_id: int, rng: random.Random | None = None) -> list[dict]:
    """Draw random seats for every registered player and the button at each table."""
    rng = rng or BufferedSystemRandom()
    with collector_paused(), transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        if tournament.is_main_event:  # its registered Day-2 entries carry their bags' chips
            raise Conflict(
                "day2_draw_only",
                _("A main event's Day 2 is drawn from its flights: use Draw Day 2 seats."),
            )
        return seats_draw_locked(actor, tournament, rng)


def _draw_undoable(tournament: Tournament) -> None:
    if tournament.seats_drawn_at is None:
        raise Conflict("draw_not_done", _("The seats have not been drawn."))
    if tournament.started_at is not None or tournament.status != Tournament.Status.REGISTERING:
        raise Conflict(
            "tournament_started", _("The tournament has started: its seats stay as drawn.")
        )
    if tournament.is_main_event or tournament.sng_series_id is not None:
        raise Conflict(
            "draw_not_undoable",
            _("A Day 2 or a sit-and-go keeps its draw: correct single seats instead."),
        )


@transaction.atomic(durable=True)
def seats_draw_undo(*, actor, tournament_id: int) -> Tournament:
    """Take the seat draw back before the start (issue 32: a draw made by mistake): every
    entry unseated, the tables out of play with no button, the draw to be made again."""
    tournament = tournament_lock(tournament_id)
    _draw_undoable(tournament)
    seated = Entry.objects.filter(tournament=tournament, tournament_table__isnull=False)
    count = seated.update(tournament_table=None, seat=None, seated_at=None, waits_for_button=False)
    tables = TournamentTable.objects.filter(tournament=tournament).exclude(
        status=TournamentTable.Status.IDLE
    )
    opened = sorted(tables.values_list("number", flat=True))
    tables.update(  # as before the draw: out of play, no button, no cards drawn for it
        status=TournamentTable.Status.IDLE,
        opened_at=None,
        closed_at=None,
        button_seat=None,
        small_blind_seat=None,
        big_blind_seat=None,
        dead_small_blind_seat=None,
        button_draw=[],
    )
    drawn_at = tournament.seats_drawn_at
    tournament.seats_drawn_at = None
    tournament.save(update_fields=["seats_drawn_at"])
    audit_record(
        actor=actor,
        action="seating.draw_undo",
        summary=audit_text(
            "Seat draw undone: %(n)s players unseated, tables: %(t)s",
            {"n": count, "t": len(opened)},
        ),
        tournament=tournament,
        target=tournament,
        before={"seats_drawn_at": drawn_at.isoformat(), "tables": opened},
        after={"seats_drawn_at": None},
    )
    event_append(tournament, "seating", {"reason": "draw_undone"})
    return tournament


@transaction.atomic(durable=True)
def entry_seat_assign(
    *, actor, tournament_id: int, entry_id: int, table_number: int, seat: int
) -> Entry:
    """Put a playing entry in a chosen free seat (e.g. a reserved wheelchair seat)."""
    tournament = tournament_lock(tournament_id)
    entry = Entry.objects.filter(tournament=tournament, pk=entry_id).first()
    if entry is None:
        raise NotFound("entry_not_found", _("There is no entry %(id)s.") % {"id": entry_id})
    if entry.status != Entry.Status.ACTIVE:
        raise Conflict("entry_not_playing", _("Only a playing entry can be given a seat."))
    if tournament.seats_drawn_at is None:
        raise Conflict("draw_not_done", _("Draw the seats first."))
    table = (
        TournamentTable.objects.filter(tournament=tournament, number=table_number)
        .exclude(status=TournamentTable.Status.CLOSED)
        .first()
    )
    if table is None:
        raise NotFound("table_not_found", _("Table %(n)s is not in play.") % {"n": table_number})
    if not 1 <= seat <= table.table.seats:
        raise InvalidInput("invalid_seat", _("That table has no seat %(s)s.") % {"s": seat})
    if (
        Entry.objects.filter(
            seat_row__tournament_table=table, seat=seat, status=Entry.Status.ACTIVE
        )
        .exclude(pk=entry.pk)
        .exists()
    ) or seat_held_from(tournament, entry, table.number, seat):
        raise Conflict("seat_taken", _("Somebody sits in that seat."))
    before = {
        "table": entry.tournament_table.number if entry.tournament_table else None,
        "seat": entry.seat,
    }
    now = timezone.now()
    if table.status == TournamentTable.Status.IDLE:
        table_open(table, now)
    table.seats = max(table.seats, seat)
    table.save(update_fields=["seats", "status", "opened_at", "closed_at"])
    entry.tournament_table = table
    entry.seat = seat
    entry.seated_at = now
    entry.waits_for_button = False
    entry.save(update_fields=["tournament_table", "seat", "seated_at", "waits_for_button"])
    after: dict = {"table": table.number, "seat": seat}
    void = moves_void_for(actor, tournament, entry)
    if void:
        after["moves_void"] = void
    audit_record(
        actor=actor,
        action="seating.assign",
        summary=audit_text(
            "%(name)s seated at table %(t)s seat %(s)s",
            {"name": entry.player.name, "t": table.number, "s": seat},
        ),
        tournament=tournament,
        target=entry,
        before=before,
        after=after,
    )
    event_append(tournament, "seating", {"reason": "assign", "entry_id": entry.pk, **after})
    return entry
