"""The seat draw, late seating, opening tables and manual seat assignment."""

import contextlib
import json
import random
from collections.abc import Sequence
from typing import Any

import psycopg
from django.db import connection, models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from infra.gc_pause import collector_paused
from infra.randomness import BufferedSystemRandom
from tables.domain.button import first_hand_blinds
from tables.domain.floor_rules import seating_rules
from tables.domain.seating import (
    LateTable,
    SeatAssignment,
    SeatDraw,
    SeatingError,
    TableSpec,
    choose_late_place,
    draw_button,
    draw_seats,
    tables_needed,
)
from tables.floor.selectors import floor_actions_out
from tables.floor_actions.operations import floor_moves_supersede
from tables.models import FloorAction, TournamentTable
from tables.seating.operations import held_seats, move_call_off, pending_moves
from tables.seating.selectors import (
    blinds_fields,
    occupied_seats,
    table_blinds,
    tables_layout,
    unavailable_seats,
)
from tourney.audit.log import audit_record, audit_text
from tourney.core.db_triggers import PLAYERS_WRITTEN
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.core.locks import tournament_lock
from tourney.domain.house_rules import HouseRules
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
    """The entry UPDATEs inside leave the tables' player counts to the caller, who writes them
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


def _int_array_literal(values: list[int | None]) -> str:
    """The elements of a PostgreSQL array literal of integers this code produced (ids,
    seats), never of user input: one type check of all, then one join (a call per value
    took 30 ms of a 25,000-player draw)."""
    if not all(type(v) is int or v is None for v in values):
        raise TypeError(f"not all ints: {values[:5]!r}...")
    if None in values:
        return ",".join("NULL" if v is None else str(v) for v in values)
    return ",".join(map(str, values))


def _int_literal(value: int | None) -> str:
    """SQL for an integer this code produced (an id, a seat), never for user input."""
    if value is None:
        return "NULL"
    if type(value) is not int:
        raise TypeError(f"not an int: {value!r}")
    return str(value)


def update_rows(
    model: type[models.Model],
    fields: Sequence[str],
    rows: Sequence[tuple[Any, ...]],
    shared: dict[str, Any] | None = None,
    tournament_id: int | None = None,
) -> None:
    """Set `fields` of many rows, each given as (pk, value, ...), and the `shared` values on all.
    `tournament_id`: every row is that tournament's (the planner then reads only its rows, not
    a scan of every tournament's).

    Not QuerySet.bulk_update: it builds a `CASE WHEN pk = ... THEN ...` expression per row and
    field in Python, which took Django ~40 s for the 25,000 entries of a large draw. This runs
    one `WITH v AS (VALUES ...) UPDATE ... FROM v` per 5,000 rows (PostgreSQL, SQLite >= 3.33).
    Integers (ids, seats: values this code produced) are written inline, as binding tens of
    thousands of parameters cost more than the update itself; other values are parameters,
    prepared as the ORM does. Each per-row column is CAST to its column's type, as PostgreSQL
    types a VALUES list by itself (a column of NULLs as text), so per-row fields may not be
    dates or times (SQLite's CAST makes numbers of them): give those in `shared`.
    """
    shared = shared or {}
    meta, qn = model._meta, connection.ops.quote_name
    columns = [meta.pk, *(meta.get_field(name) for name in fields)]
    if any(isinstance(f, models.DateField | models.TimeField) for f in columns):
        raise ValueError("per-row date or time fields are not supported: pass them in `shared`")
    if connection.vendor == "sqlite" and connection.Database.sqlite_version_info < (3, 33):
        objs = []  # no UPDATE ... FROM before SQLite 3.33
        for pk, *values in rows:
            obj = model(pk=pk, **{f.attname: v for f, v in zip(columns[1:], values, strict=True)})
            for name, value in shared.items():
                setattr(obj, name, value)
            objs.append(obj)
        model.objects.bulk_update(objs, [*fields, *shared])
        return
    if connection.vendor == "postgresql":
        _update_rows_unnest(model, columns, rows, shared, tournament_id)
        return
    inline = [isinstance(getattr(f, "target_field", f), models.IntegerField) for f in columns]
    names = ["pk", *(f"c{i}" for i in range(1, len(columns)))]
    sets = [
        *(
            f"{qn(f.column)} = CAST(v.{name} AS {f.db_type(connection)})"
            for f, name in zip(columns[1:], names[1:], strict=True)
        ),
        *(f"{qn(meta.get_field(name).column)} = %s" for name in shared),
    ]
    shared_params = [meta.get_field(n).get_db_prep_save(v, connection) for n, v in shared.items()]
    table, pk_type = qn(meta.db_table), meta.pk.rel_db_type(connection)
    update = (
        f"UPDATE {table} SET {', '.join(sets)} FROM v"
        f" WHERE {table}.{qn(meta.pk.column)} = CAST(v.pk AS {pk_type})"
    )
    bound = inline.count(False)
    max_params = connection.features.max_query_params or 30_000  # SQLite: 999
    batch = min(5_000, (max_params - len(shared_params)) // bound) if bound else 5_000
    with connection.cursor() as cursor:
        for start in range(0, len(rows), batch):
            values, params = [], []
            for row in rows[start : start + batch]:
                sql = []
                for f, is_int, value in zip(columns, inline, row, strict=True):
                    if is_int:
                        sql.append(_int_literal(value))
                    else:
                        sql.append("%s")
                        params.append(f.get_db_prep_save(value, connection))
                values.append(f"({', '.join(sql)})")
            cursor.execute(
                f"WITH v ({', '.join(names)}) AS (VALUES {', '.join(values)}) {update}",
                [*params, *shared_params],
            )


def _update_rows_unnest(
    model: type[models.Model],
    columns: Sequence[models.Field],
    rows: Sequence[tuple[Any, ...]],
    shared: dict[str, Any],
    tournament_id: int | None,
) -> None:
    """`update_rows` on PostgreSQL: one `UPDATE ... FROM ROWS FROM (unnest(<array>), ...)`, a
    parameter per column (an array; JSON as one document) and the rows in primary-key order.
    No SQL text of 25,000 rows for the client to build and for psycopg and the server to parse
    (the draw: 5 statements of 5,000 rows took 3.2 s of server CPU on a busy machine, this 1.3;
    docs/benchmarks.md), and one statement fires the players-count trigger once
    (tourney/core/db_triggers.py)."""
    meta, qn = model._meta, connection.ops.quote_name
    table = qn(meta.db_table)
    names = ["pk", *(f"c{i}" for i in range(1, len(columns)))]
    types = [
        meta.pk.rel_db_type(connection),
        *(
            f.rel_db_type(connection) if f.is_relation else f.db_type(connection)
            for f in columns[1:]
        ),
    ]
    sets = [
        *(f"{qn(f.column)} = v.{name}" for f, name in zip(columns[1:], names[1:], strict=True)),
        *(f"{qn(meta.get_field(name).column)} = %s" for name in shared),
    ]
    ordered = sorted(rows, key=lambda row: row[0])
    params: list[Any] = [
        meta.get_field(n).get_db_prep_save(v, connection) for n, v in shared.items()
    ]
    sources = []
    for i, (f, db_type) in enumerate(zip(columns, types, strict=True)):
        values = [row[i] for row in ordered]
        if isinstance(getattr(f, "target_field", f), models.IntegerField):
            # integers this code produced, as one array literal (psycopg adapts a list of
            # 25,000 values one by one)
            literal = _int_array_literal(values)
            sources.append(f"unnest(%s::{db_type}[])")
            params.append("{" + literal + "}")
        elif isinstance(f, models.JSONField) and None not in values:
            # one JSON document of every row's value (an array of jsonb escapes each one)
            sources.append("jsonb_array_elements(%s::jsonb)")
            params.append(json.dumps([f.get_prep_value(v) for v in values], cls=f.encoder))
        else:
            sources.append(f"unnest(%s::{db_type}[])")
            params.append([f.get_db_prep_save(v, connection) for v in values])
    scope = "" if tournament_id is None else f" AND {table}.{qn('tournament_id')} = %s"
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {', '.join(sets)}"
            f" FROM ROWS FROM ({', '.join(sources)}) AS v ({', '.join(names)})"
            f" WHERE {table}.{qn(meta.pk.column)} = v.pk{scope}",
            params if tournament_id is None else [*params, int(tournament_id)],
        )


def _open_table(table: TournamentTable, now) -> None:
    table.status = TournamentTable.Status.OPEN
    table.opened_at = now
    table.closed_at = None


def _draw_entries(tournament: Tournament) -> list[tuple[int, str, bool]]:
    """The entries a draw seats, as (id, player's name, waits_for_button) by id (the seating
    chart is built from them), or the reason the draw cannot be made."""
    if tournament.seats_drawn_at is not None:
        raise Conflict("draw_already_done", _("The seats have been drawn already."))
    if tournament.status not in (Tournament.Status.REGISTERING, Tournament.Status.RUNNING):
        raise Conflict(
            "tournament_finished", _("The tournament is over; there is nothing to draw.")
        )
    entries = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .order_by("pk")
        .values_list("pk", "player__name", "waits_for_button")
    )
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
        _open_table(table, now)
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


def seats_draw(*, actor, tournament_id: int, rng: random.Random | None = None) -> list[dict]:
    """Draw random seats for every registered player and the button at each table."""
    rng = rng or BufferedSystemRandom()
    with collector_paused(), transaction.atomic():
        tournament = tournament_lock(tournament_id)
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
            raise Conflict(
                exc.code, _("There are not enough free seats for every player.")
            ) from exc
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


# The TournamentTable fields `_late_tables` reads (via unavailable_seats and table_blinds).
LATE_CHOICE_FIELDS = (
    "id",
    "number",
    "table",
    "seats",
    "button_seat",
    "small_blind_seat",
    "big_blind_seat",
    "dead_small_blind_seat",
)


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
    blind when another seat exists. A seat a pending move holds is not free (`held_seats`):
    when those are the only seats left, a pending balancing move is called off and the entry
    takes the seat it promised (docs/rules.md §3.4). Opens the next table in the opening order
    when full.
    """
    # Only what the choice reads: building every open table in full (its room table, its
    # button-draw JSON) cost more than all the rest of a late registration. The chosen table
    # is then read in full.
    open_tables = list(
        TournamentTable.objects.filter(tournament=tournament, status=TournamentTable.Status.OPEN)
        .only(*LATE_CHOICE_FIELDS)
        .order_by("open_order")
    )
    moves = pending_moves(tournament)
    choice = (
        choose_late_place(_late_tables(tournament, open_tables), moves, rng)
        if open_tables
        else None
    )
    if choice is not None and choice.called_off is not None:
        move_call_off(tournament, choice.called_off, entry)
    if choice is not None:
        chosen = next(t for t in open_tables if t.number == choice.table_number)
        table = TournamentTable.objects.select_related("table").get(pk=chosen.pk)
    else:
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
        choice = choose_late_place(_late_tables(tournament, [table]), moves, rng)
        if choice is None:
            raise Conflict("tournament_full", _("Every seat of every table is taken."))
    entry.tournament_table = table
    entry.seat = choice.seat
    entry.waits_for_button = choice.waits_for_button
    entry.seated_at = now


def _held_from(tournament: Tournament, entry: Entry, table_number: int, seat: int) -> bool:
    """Whether (table_number, seat) is held for or by another player (`held_seats`): the
    mover himself may be put back in the seat he has not left."""
    if seat not in held_seats(tournament).get(table_number, set()):
        return False
    return not FloorAction.objects.filter(
        tournament=tournament,
        kind=FloorAction.Kind.MOVE,
        status=FloorAction.Status.PENDING,
        entry=entry,
        from_table=table_number,
        from_seat=seat,
    ).exists()


def _moves_void(actor, tournament: Tournament, entry: Entry) -> list[int]:
    """The entry's pending moves, void now that the floor has seated him by hand: he is where
    he was put, so they hold no seat any more (docs/rules.md §3.4) and can be neither
    confirmed nor called off; each audited (floor.void) and announced to the floor's pages.
    Their ids."""
    void = floor_moves_supersede(actor, tournament, [entry.pk], "seated_by_hand")
    if void:
        rows = floor_actions_out(void)
        event_append(tournament, "actions", {"reason": "void", "actions": rows})
    return [action.pk for action in void]


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
        Entry.objects.filter(
            seat_row__tournament_table=table, seat=seat, status=Entry.Status.ACTIVE
        )
        .exclude(pk=entry.pk)
        .exists()
    ) or _held_from(tournament, entry, table.number, seat):
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
    after: dict = {"table": table.number, "seat": seat}
    void = _moves_void(actor, tournament, entry)
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
