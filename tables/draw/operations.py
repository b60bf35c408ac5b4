"""The seat draw's reads and writes under the tournament's lock: the seats, the tables it
opens and their buttons, in a few statements; the ordinary draw's (tables/seating/usecases.py)
and Day 2's (tourney/flights/usecases.py, docs/rules.md §15.5)."""

import contextlib
import random
from collections.abc import Sequence

import psycopg
from django.db import connection
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.domain.button import first_hand_blinds
from tables.domain.floor_rules import seating_rules
from tables.domain.seating import (
    SeatAssignment,
    SeatDraw,
    SeatingError,
    TableSpec,
    draw_button,
    draw_seats,
    draw_spread,
    tables_needed,
)
from tables.models import TournamentTable
from tables.seating.operations import table_open, update_rows
from tables.seating.selectors import blinds_fields, tables_layout, unavailable_seats
from tourney.audit.log import audit_record, audit_text
from tourney.core.db_triggers import PLAYERS_WRITTEN
from tourney.core.errors import Conflict
from tourney.events.log import event_append
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import tournament_rules


def _specs(
    tables: Sequence[TournamentTable], seats: dict[int, int], restricted: dict[int, dict[int, str]]
) -> list[TableSpec]:
    """The draw's tables; `restricted`: `unavailable_seats` within the larger of each table's
    seats in play before and after the draw (the draw takes those within both)."""
    return [
        TableSpec(
            number=t.number,
            seats=seats[t.pk],
            unavailable_seats=frozenset(
                s for s in restricted.get(t.pk, {}) if s <= min(t.seats, seats[t.pk])
            ),
        )
        for t in tables
    ]


@contextlib.contextmanager
def _players_written():
    """The entry writes inside leave the tables' player counts to the caller, who writes them
    (PostgreSQL: tourney/core/db_triggers.py `PLAYERS_WRITTEN`; SQLite's row triggers still count).
    Only for a draw: every table it seats at was empty and is opened with its count."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config(%s, 'on', true)", [PLAYERS_WRITTEN])
        yield
        cursor.execute("SELECT set_config(%s, 'off', true)", [PLAYERS_WRITTEN])


@contextlib.contextmanager
def _sent_together():
    """Statements inside are sent without waiting for their answers (psycopg's pipeline mode on
    PostgreSQL; elsewhere one after another): the server writes the draw's 25,000 entries while
    this process opens the tables and builds the chart. Nothing inside may read an answer (a
    row count, a fetch) before the end, where errors are raised as Django's."""
    if connection.vendor != "postgresql" or not psycopg.Pipeline.is_supported():
        yield
        return
    with connection.wrap_database_errors:
        connection.ensure_connection()
        with connection.connection.pipeline():
            yield


def _draw_entries(tournament: Tournament) -> list[tuple[int, str, bool]]:
    """The entries a draw seats, as (id, player's name, waits_for_button) by id (the seating
    chart is built from them), or the reason the draw cannot be made."""
    _draw_allowed(tournament)
    return _enough_players(
        list(
            Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
            .order_by("pk")
            .values_list("pk", "player__name", "waits_for_button")
        )
    )


def _draw_allowed(tournament: Tournament) -> None:
    if tournament.seats_drawn_at is not None:
        raise Conflict("draw_already_done", _("The seats have been drawn already."))
    if tournament.status not in (Tournament.Status.REGISTERING, Tournament.Status.RUNNING):
        raise Conflict(
            "tournament_finished", _("The tournament is over; there is nothing to draw.")
        )


def _enough_players(entries: list[tuple[int, str, bool]]) -> list[tuple[int, str, bool]]:
    if len(entries) < 2:
        raise Conflict(
            "not_enough_players", _("At least two registered players are needed for a draw.")
        )
    return entries


def _drawn_layout(
    tables: list[TournamentTable],
    entries: list[tuple[int, str, bool]],
    assignments: Sequence[SeatAssignment],
    restricted: dict[int, dict[int, str]],
) -> list[dict]:
    """The seating chart after the draw, from what it wrote (what `tournament_tables_layout`
    would read back: 25,000 entries with their names took more than the draw's writes);
    `restricted` as `_specs` takes it."""
    by_number = {t.number: t for t in tables}
    known = {pk: (name, waits) for pk, name, waits in entries}
    players: dict[int, list[dict]] = {}
    for a in sorted(assignments, key=lambda a: a.seat):
        name, waits = known[a.entry_id]
        players.setdefault(by_number[a.table_number].pk, []).append(
            {"seat": a.seat, "entry_id": a.entry_id, "player_name": name, "waits_for_button": waits}
        )
    shown = sorted(
        (t for t in tables if t.status == TournamentTable.Status.OPEN), key=lambda t: t.number
    )
    within = {
        t.pk: {s: kind for s, kind in restricted[t.pk].items() if s <= t.seats}
        for t in shown
        if t.pk in restricted
    }
    return tables_layout(shown, within, players)


OPENED_FIELDS = (
    "seats",
    "button_seat",
    "small_blind_seat",
    "big_blind_seat",
    "dead_small_blind_seat",
    "button_draw",
)


def _open_drawn_tables(
    tournament: Tournament,
    by_number: dict[int, TournamentTable],
    seated_at: dict[int, list[int]],
    seats: dict[int, int],
    rng: random.Random,
    now,
) -> list[TournamentTable]:
    """Open every table the draw seated players at, its button drawn and its players counted:
    one UPDATE."""
    opened = []
    for number, occupied in seated_at.items():
        table = by_number[number]
        table.seats = seats[table.pk]
        table_open(table, now)
        button = draw_button(sorted(occupied), rng)
        blinds = first_hand_blinds(button.button_seat, occupied, table.seats)
        for name, value in blinds_fields(blinds).items():
            setattr(table, name, value)
        table.button_draw = [{"seat": s, "card": c.code} for s, c in button.cards]
        table.players = len(occupied)
        opened.append(table)
    update_rows(
        TournamentTable,
        (*OPENED_FIELDS, "players"),
        [(t.pk, *(getattr(t, name) for name in OPENED_FIELDS), t.players) for t in opened],
        shared={"status": TournamentTable.Status.OPEN, "opened_at": now, "closed_at": None},
        tournament_id=tournament.pk,
    )
    return opened


def seats_draw_locked(
    actor,
    tournament: Tournament,
    rng: random.Random,
    order: Sequence[int] | None = None,
) -> list[dict]:
    """The seat draw of every playing entry, under the caller's tournament lock: random seats
    and each table's button; `order` (the entries' ids, biggest stack first) deals the players
    to the tables in turn instead (Day 2's spread stacks, docs/rules.md §15.5)."""
    entries = _draw_entries(tournament)
    entry_ids = [pk for pk, _name, _waits in entries]
    rules = tournament_rules(tournament)
    srules = seating_rules(rules)
    tables = list(
        TournamentTable.objects.filter(tournament=tournament)
        .exclude(status=TournamentTable.Status.CLOSED)
        .select_related("table")
        .order_by("open_order")
    )
    single = tables_needed(len(entry_ids), srules) == 1
    seats = {
        t.pk: min(t.table.seats, rules.single_table_seats if single else rules.seats_per_table)
        for t in tables
    }
    # Within the seats in play before and after (the chart shows those after).
    restricted = unavailable_seats(tables, {t.pk: max(t.seats, seats[t.pk]) for t in tables})
    try:
        draw = draw_seats(entry_ids, _specs(tables, seats, restricted), srules, rng)
    except SeatingError as exc:
        raise Conflict(exc.code, _("There are not enough free seats for every player.")) from exc
    if order is not None:
        draw = draw_spread(draw, order, rng)
    now = timezone.now()
    with _sent_together():
        opened, counts = _draw_write(tournament, tables, draw, seats, rng, now)
        layout = _drawn_layout(tables, entries, draw.assignments, restricted)
    tournament.seats_drawn_at = now
    tournament.save(update_fields=["seats_drawn_at"])
    audit_record(
        actor=actor,
        action="seating.draw",
        summary=audit_text(
            "Seats drawn: %(n)s players, tables: %(t)s", {"n": len(entry_ids), "t": len(counts)}
        ),
        tournament=tournament,
        target=tournament,
        after={
            "table_counts": counts,
            "buttons": {str(t.number): t.button_seat for t in opened},
        },
    )
    event_append(tournament, "seating", {"reason": "draw", "table_counts": counts})
    return layout


def _draw_write(
    tournament: Tournament,
    tables: list[TournamentTable],
    draw: SeatDraw,
    seats: dict[int, int],
    rng: random.Random,
    now,
) -> tuple[list[TournamentTable], dict[str, int]]:
    """Seat the drawn entries and open their tables: the tables opened (in opening order) and
    how many players each got, by table number."""
    by_number = {t.number: t for t in tables}
    seated_at: dict[int, list[int]] = {}
    for a in draw.assignments:
        seated_at.setdefault(a.table_number, []).append(a.seat)
    with _players_written():
        update_rows(
            Entry,
            ["tournament_table", "seat"],
            [(a.entry_id, by_number[a.table_number].pk, a.seat) for a in draw.assignments],
            shared={"seated_at": now},
            tournament_id=tournament.pk,
        )
    opened = _open_drawn_tables(tournament, by_number, seated_at, seats, rng, now)
    return opened, {str(n): len(s) for n, s in sorted(seated_at.items())}
