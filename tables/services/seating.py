"""The seat draw, late seating, opening tables and manual seat assignment."""

import random
from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.domain.button import first_hand_blinds
from tables.domain.seating import (
    LateTable,
    SeatingError,
    SeatingRules,
    TableSpec,
    choose_late_seat,
    draw_button,
    draw_seats,
    tables_needed,
)
from tables.models import TournamentTable
from tables.selectors import blinds_fields, occupied_seats, table_blinds, unavailable_seats
from tourney.domain.house_rules import HouseRules
from tourney.errors import Conflict, InvalidInput, NotFound
from tourney.models import Entry, Tournament
from tourney.selectors import tournament_rules
from tourney.services.audit import audit_record
from tourney.services.events import event_append
from tourney.services.locks import tournament_lock


def seating_rules(rules: HouseRules) -> SeatingRules:
    return SeatingRules(
        table_thresholds=rules.table_thresholds,
        seats_per_table=rules.seats_per_table,
        single_table_seats=rules.single_table_seats,
    )


def _specs(tables: Sequence[TournamentTable], seats: dict[int, int]) -> list[TableSpec]:
    restricted = unavailable_seats(list(tables))
    return [
        TableSpec(
            number=t.number,
            seats=seats[t.pk],
            unavailable_seats=frozenset(s for s in restricted.get(t.pk, {}) if s <= seats[t.pk]),
        )
        for t in tables
    ]


def _open_table(table: TournamentTable, now) -> None:
    table.status = TournamentTable.Status.OPEN
    table.opened_at = now
    table.closed_at = None


def seats_draw(*, actor, tournament_id: int, rng: random.Random | None = None) -> list[dict]:
    """Draw random seats for every registered player and the button at each table."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if tournament.seats_drawn_at is not None:
            raise Conflict("draw_already_done", _("The seats have been drawn already."))
        if tournament.status not in (Tournament.Status.REGISTERING, Tournament.Status.RUNNING):
            raise Conflict(
                "tournament_finished", _("The tournament is over; there is nothing to draw.")
            )
        entries = list(
            Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("pk")
        )
        if len(entries) < 2:
            raise Conflict(
                "not_enough_players", _("At least two registered players are needed for a draw.")
            )
        rules = tournament_rules(tournament)
        srules = seating_rules(rules)
        tables = list(
            TournamentTable.objects.filter(tournament=tournament)
            .exclude(status=TournamentTable.Status.CLOSED)
            .select_related("table")
            .order_by("open_order")
        )
        single = tables_needed(len(entries), srules) == 1
        seats = {
            t.pk: min(t.table.seats, rules.single_table_seats if single else rules.seats_per_table)
            for t in tables
        }
        try:
            draw = draw_seats([e.pk for e in entries], _specs(tables, seats), srules, rng)
        except SeatingError as exc:
            raise Conflict(
                exc.code, _("There are not enough free seats for every player.")
            ) from exc
        now = timezone.now()
        by_number = {t.number: t for t in tables}
        by_entry = {e.pk: e for e in entries}
        seated_at: dict[int, list[int]] = {}
        for a in draw.assignments:
            entry = by_entry[a.entry_id]
            entry.tournament_table = by_number[a.table_number]
            entry.seat = a.seat
            entry.seated_at = now
            seated_at.setdefault(a.table_number, []).append(a.seat)
        Entry.objects.bulk_update(entries, ["tournament_table", "seat", "seated_at"], 2000)
        opened = []
        for number, occupied in seated_at.items():
            table = by_number[number]
            table.seats = seats[table.pk]
            _open_table(table, now)
            button = draw_button(sorted(occupied), rng)
            blinds = first_hand_blinds(button.button_seat, occupied, table.seats)
            for name, value in blinds_fields(blinds).items():
                setattr(table, name, value)
            table.button_draw = [{"seat": s, "card": c.code} for s, c in button.cards]
            opened.append(table)
        TournamentTable.objects.bulk_update(
            opened,
            [
                "seats",
                "status",
                "opened_at",
                "closed_at",
                "button_seat",
                "small_blind_seat",
                "big_blind_seat",
                "dead_small_blind_seat",
                "button_draw",
            ],
            1000,
        )
        tournament.seats_drawn_at = now
        tournament.save(update_fields=["seats_drawn_at"])
        counts = {str(n): len(s) for n, s in sorted(seated_at.items())}
        audit_record(
            actor=actor,
            action="seating.draw",
            summary=_("Drew seats for %(n)s players at %(t)s tables")
            % {"n": len(entries), "t": len(counts)},
            tournament=tournament,
            target=tournament,
            after={
                "table_counts": counts,
                "buttons": {str(t.number): t.button_seat for t in opened},
            },
        )
        event_append(tournament, "seating", {"reason": "draw", "table_counts": counts})
    from tables.selectors import tournament_tables_layout

    return tournament_tables_layout(tournament)


def _late_tables(tournament: Tournament, tables: list[TournamentTable]) -> list[LateTable]:
    restricted = unavailable_seats(tables)
    occupied = occupied_seats(tournament)
    return [
        LateTable(
            number=t.number,
            seats=t.seats,
            unavailable_seats=frozenset(restricted.get(t.pk, {})),
            occupied=frozenset(occupied.get(t.pk, set())),
            blinds=table_blinds(t),
        )
        for t in tables
    ]


def entry_seat_late(
    tournament: Tournament, entry: Entry, rules: HouseRules, rng: random.Random, now
) -> None:
    """Seat a late registrant (caller holds the tournament lock and saves nothing else).

    A random free seat at a table with the fewest players, never between button and small
    blind when another seat exists; opens the next table in the opening order when full.
    """
    tables = list(
        TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.OPEN)
        .select_related("table")
        .order_by("open_order")
    )
    choice = choose_late_seat(_late_tables(tournament, tables), rng) if tables else None
    if choice is None:
        table = (
            TournamentTable.objects.filter(
                tournament=tournament, status=TournamentTable.Status.IDLE
            )
            .select_related("table")
            .order_by("open_order")
            .first()
        )
        if table is None:
            raise Conflict("tournament_full", _("Every seat of every table is taken."))
        table.seats = min(table.table.seats, rules.seats_per_table)
        _open_table(table, now)
        table.save(update_fields=["seats", "status", "opened_at", "closed_at"])
        choice = choose_late_seat(_late_tables(tournament, [table]), rng)
        if choice is None:
            raise Conflict("tournament_full", _("Every seat of every table is taken."))
        tables = [table]
    entry.tournament_table = next(t for t in tables if t.number == choice.table_number)
    entry.seat = choice.seat
    entry.waits_for_button = choice.waits_for_button
    entry.seated_at = now


@transaction.atomic
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
        Entry.objects.filter(tournament_table=table, seat=seat, status=Entry.Status.ACTIVE)
        .exclude(pk=entry.pk)
        .exists()
    ):
        raise Conflict("seat_taken", _("Somebody sits in that seat."))
    before = {
        "table": entry.tournament_table.number if entry.tournament_table else None,
        "seat": entry.seat,
    }
    now = timezone.now()
    if table.status == TournamentTable.Status.IDLE:
        _open_table(table, now)
    table.seats = max(table.seats, seat)
    table.save(update_fields=["seats", "status", "opened_at", "closed_at"])
    entry.tournament_table = table
    entry.seat = seat
    entry.seated_at = now
    entry.waits_for_button = False
    entry.save(update_fields=["tournament_table", "seat", "seated_at", "waits_for_button"])
    after = {"table": table.number, "seat": seat}
    audit_record(
        actor=actor,
        action="seating.assign",
        summary=_("%(name)s seated at table %(t)s seat %(s)s")
        % {"name": entry.player.name, "t": table.number, "s": seat},
        tournament=tournament,
        target=entry,
        before=before,
        after=after,
    )
    event_append(tournament, "seating", {"reason": "assign", "entry_id": entry.pk, **after})
    return entry
