"""Seats pending moves hold, and calling a pending move off: to seat a newcomer in its place,"""

import json
import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

from django.db import connection, models
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.domain.button import first_hand_blinds, restored_blinds
from tables.domain.seating import (
    LateTable,
    PendingMove,
    choose_late_place,
    draw_button,
    held_by_moves,
)
from tables.floor.selectors import floor_actions_out
from tables.floor_actions.operations import floor_moves_supersede
from tables.models import FloorAction, TournamentTable
from tables.seating.selectors import (
    blinds_fields,
    occupied_seats,
    table_blinds,
    unavailable_seats,
)
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict
from tourney.domain.house_rules_params import HouseRules
from tourney.events.log import event_append
from tourney.models import Entry, Tournament


def pending_moves(tournament: Tournament) -> list[PendingMove]:
    """The tournament's moves the floor has not confirmed: one statement, whatever their
    number. `charted`: the chart shows a named mover in the seat his move gives him (so
    calling it off puts things back as they really are)."""
    rows = (
        FloorAction.objects.filter(
            tournament=tournament,
            kind=FloorAction.Kind.MOVE,
            status=FloorAction.Status.PENDING,
        )
        .order_by("pk")
        .values_list(
            "pk",
            "parent_id",
            "entry_id",
            "from_table",
            "from_seat",
            "to_table",
            "to_seat",
            "entry__tournament_table__number",
            "entry__seat",
        )
    )
    return [
        PendingMove(
            entry_id,
            from_table,
            from_seat,
            to_table,
            to_seat,
            pk,
            parent_id is None,
            charted=entry_id is None or tuple(at) == (to_table, to_seat),
        )
        for pk, parent_id, entry_id, from_table, from_seat, to_table, to_seat, *at in rows
    ]


def held_seats(tournament: Tournament) -> dict[int, set[int]]:
    """Seats nobody else may be given, per table number, though the chart shows nobody in
    them (`held_by_moves`)."""
    return held_by_moves(pending_moves(tournament))


CALL_OFF_REFUSED = {
    "move_confirmed": gettext_noop(
        "The floor has confirmed this move: the player has moved, it cannot be called off."
    ),
    "move_not_pending": gettext_noop("This move is no longer pending: it cannot be called off."),
    "mover_moved_on": gettext_noop(
        "This move cannot be called off: its player is no longer in the seat it gave him, or "
        "the seat he left is not free."
    ),
}


def call_off_refusal(tournament: Tournament, action: FloorAction | None) -> str | None:
    """Why `action` cannot be called off (a `CALL_OFF_REFUSED` code), or None. Only a move
    still pending can be: a confirmed one has happened (TDA: the player has moved). Its named
    mover must still be charted in the seat it gives him, and the seat he has not left must be
    free at a table in play, or calling it off would tell one seat to two people, or leave
    him none."""
    if action is None or action.kind != FloorAction.Kind.MOVE:
        return "move_not_pending"
    if action.status == FloorAction.Status.DONE:
        return "move_confirmed"
    if action.status != FloorAction.Status.PENDING:
        return "move_not_pending"
    if action.entry_id is None:
        return None
    position = action.payload.get("before", {}).get(str(action.entry_id))
    mover = Entry.objects.filter(pk=action.entry_id, status=Entry.Status.ACTIVE).first()
    if position is None or mover is None or mover.seat != action.to_seat:
        return "mover_moved_on"
    table_pk, seat, _waits = position
    at_destination = TournamentTable.objects.filter(
        pk=mover.tournament_table_id, number=action.to_table
    ).exists()
    source_open = TournamentTable.objects.filter(
        pk=table_pk, status=TournamentTable.Status.OPEN
    ).exists()
    taken = (
        Entry.objects.filter(
            seat_row__tournament_table_id=table_pk, seat=seat, status=Entry.Status.ACTIVE
        )
        .exclude(pk=mover.pk)
        .exists()
    )
    if not at_destination or not source_open or taken:
        return "mover_moved_on"
    return None


def _called_off(tournament: Tournament, action: FloorAction, summary: str, params: dict) -> dict:
    """Call `action` off (`call_off_refusal` said it can be): its mover, who has not got up,
    stays in his seat (the chart puts him back there); audited as floor.call_off. Returns the
    action's row for the event."""
    before = floor_actions_out([action])[0]
    if action.entry_id is not None:
        table_pk, seat, waits = action.payload["before"][str(action.entry_id)]
        Entry.objects.filter(pk=action.entry_id).update(
            tournament_table_id=table_pk, seat=seat, waits_for_button=waits
        )
    action.status = FloorAction.Status.SUPERSEDED
    action.save(update_fields=["status"])
    row = floor_actions_out([action])[0]
    audit_record(
        actor=None,
        action="floor.call_off",
        summary=audit_text(
            summary,
            {
                "name": row["player_name"] or _("the player who is big blind next"),
                "table": action.to_table,
                "seat": action.to_seat,
                **params,
            },
        ),
        tournament=tournament,
        target=action,
        before=before,
        after=row,
    )
    return row


def move_call_off(tournament: Tournament, action_id: int, newcomer: Entry) -> None:
    """Call off the pending move `action_id` so that `newcomer` takes the seat it promised:
    its mover, who has not got up yet, stays in his seat (the chart puts him back there);
    audited and announced to the floor's pages. Refused (409, nothing changed) when the move
    cannot be called off any more (`call_off_refusal`: confirmed meanwhile, say)."""
    action = (
        FloorAction.objects.select_for_update(no_key=True)
        .filter(pk=action_id, tournament=tournament)
        .first()
    )
    refused = call_off_refusal(tournament, action)
    if action is None or refused is not None:
        code = refused or "move_not_pending"
        raise Conflict(code, _(CALL_OFF_REFUSED[code]))
    row = _called_off(
        tournament,
        action,
        gettext_noop(
            "Move of %(name)s called off: %(newcomer)s takes table %(table)s seat %(seat)s"
        ),
        {"newcomer": newcomer.player.name},
    )
    event_append(tournament, "actions", {"reason": "called_off", "actions": [row]})


def moves_call_off_for_break(
    tournament: Tournament, actions: Sequence[FloorAction]
) -> list[FloorAction]:
    """Call off the pending moves `actions` whose seats a table break the field calls for
    needs (docs/rules.md §3.4, `_call_off_blocking_moves`): each one that can be
    (`call_off_refusal`) is, its mover staying where he sits, audited as floor.call_off; one
    event refreshes the floor's pages. Returns those called off."""
    called, rows = [], []
    for action in actions:
        if call_off_refusal(tournament, action) is not None:
            continue
        rows.append(
            _called_off(
                tournament,
                action,
                gettext_noop(
                    "Move of %(name)s called off for a table break: the player stays at "
                    "table %(from_table)s seat %(from_seat)s"
                ),
                {"from_table": action.from_table, "from_seat": action.from_seat or "?"},
            )
        )
        called.append(action)
    if rows:
        event_append(tournament, "actions", {"reason": "called_off", "actions": rows})
    return called


OPEN = TournamentTable.Status.OPEN


def _seats(tables: Iterable[TournamentTable]) -> dict[int, set[int]]:
    seats: dict[int, set[int]] = defaultdict(set)
    for table_id, seat in Entry.objects.filter(
        seat_row__tournament_table__in=[t.pk for t in tables], status=Entry.Status.ACTIVE
    ).values_list("tournament_table_id", "seat"):
        seats[table_id].add(seat)
    return seats


def new_tables_button_draw(actor, tournament: Tournament, rng: random.Random) -> list[int]:
    """Every open table without a button and with at least two players (opened for a late
    entry or the waiting list, then filled by balancing) draws for it by high card, as at the
    start of play (§3.3); everyone there is new, so everyone is dealt in. Returns the numbers
    of the tables that drew."""
    tables = list(
        TournamentTable.objects.filter(
            tournament=tournament, status=OPEN, button_seat__isnull=True, players__gte=2
        )
    )
    if not tables:
        return []
    seats = _seats(tables)
    drawn = []
    for table in tables:
        occupied = sorted(seats[table.pk])
        if len(occupied) < 2:
            continue
        button = draw_button(occupied, rng)
        blinds = first_hand_blinds(button.button_seat, occupied, table.seats)
        table.button_draw = [{"seat": s, "card": c.code} for s, c in button.cards]
        for name, value in blinds_fields(blinds).items():
            setattr(table, name, value)
        table.save(update_fields=["button_draw", *blinds_fields(blinds)])
        Entry.objects.filter(seat_row__tournament_table=table, status=Entry.Status.ACTIVE).update(
            waits_for_button=False
        )
        audit_record(
            actor=actor,
            action="seating.button_draw",
            summary=audit_text(
                gettext_noop("Table %(t)s drew for the button: seat %(s)s"),
                {"t": table.number, "s": blinds.button},
            ),
            tournament=tournament,
            target=table,
            after={"button_draw": table.button_draw, **blinds_fields(blinds)},
        )
        event_append(
            tournament,
            "seating",
            {"reason": "button_draw", "table": table.number, "button_seat": blinds.button},
        )
        drawn.append(table.number)
    return drawn


def restored_tables_positions(actor, tournament: Tournament, table_pks: Iterable[int]) -> None:
    """Tables an undo brought back: where the stored big-blind seat has lost its player, the
    positions are set again as the dead-button rule would have without him (§4.7)."""
    tables = [
        t
        for t in TournamentTable.objects.filter(
            tournament=tournament, status=OPEN, pk__in=list(table_pks)
        )
        if table_blinds(t) is not None
    ]
    if not tables:
        return
    seats = _seats(tables)
    for table in tables:
        stored = table_blinds(table)
        occupied = seats[table.pk]
        if len(occupied) < 2 or stored is None or stored.big_blind in occupied:
            continue
        blinds = restored_blinds(stored, occupied, table.seats)
        TournamentTable.objects.filter(pk=table.pk).update(**blinds_fields(blinds))
        audit_record(
            actor=actor,
            action="seating.positions",
            summary=audit_text(
                gettext_noop("Table %(t)s back in play: big blind seat %(bb)s, button seat %(b)s"),
                {"t": table.number, "bb": blinds.big_blind, "b": blinds.button},
            ),
            tournament=tournament,
            target=table,
            before=blinds_fields(stored),
            after=blinds_fields(blinds),
        )
        event_append(tournament, "seating", {"reason": "positions", "table": table.number})


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
        table_open(table, now)
        table.save(update_fields=["seats", "status", "opened_at", "closed_at"])
        choice = choose_late_place(_late_tables(tournament, [table]), moves, rng)
        if choice is None:
            raise Conflict("tournament_full", _("Every seat of every table is taken."))
    entry.tournament_table = table
    entry.seat = choice.seat
    entry.waits_for_button = choice.waits_for_button
    entry.seated_at = now


def seat_held_from(tournament: Tournament, entry: Entry, table_number: int, seat: int) -> bool:
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


def moves_void_for(actor, tournament: Tournament, entry: Entry) -> list[int]:
    """The entry's pending moves, void now that the floor has seated him by hand: he is where
    he was put, so they hold no seat any more (docs/rules.md §3.4) and can be neither
    confirmed nor called off; each audited (floor.void) and announced to the floor's pages.
    Their ids."""
    void = floor_moves_supersede(actor, tournament, [entry.pk], "seated_by_hand")
    if void:
        rows = floor_actions_out(void)
        event_append(tournament, "actions", {"reason": "void", "actions": rows})
    return [action.pk for action in void]


def table_open(table: TournamentTable, now) -> None:
    table.status = TournamentTable.Status.OPEN
    table.opened_at = now
    table.closed_at = None
