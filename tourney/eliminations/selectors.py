"""What a bust-out reads before it writes (docs/rules.md §11): the busting entries checked as"""

import functools
from collections.abc import Sequence
from dataclasses import dataclass

from django.db import connection
from django.utils.translation import gettext as _

from tables.floor.selectors import (
    TABLE_TOTALS_SQL,
    FieldShape,
    field_shape_after_bust,
    field_shape_params,
    field_shape_select,
    table_totals_params,
)
from tables.models import FloorAction, Seat, TournamentTable
from tourney.core.errors import Conflict, InvalidInput
from tourney.models import Elimination, Entry, Player, Tournament
from tourney.tournaments.selectors import entry_of


@dataclass(frozen=True, slots=True)
class BustContext:
    """What a bust-out needs to know about the field, read in one statement."""

    remaining: int
    """Players still in before these busts."""
    last_group: int
    """The highest bust group of the standing bust-outs (0: none yet)."""
    pending_moves: int
    """Pending floor moves of the players busting now (void once they are out)."""
    waiting: int = 0
    """Entries on the waiting list: the freed seats go to them (docs/rules.md §2.1)."""


# Players left: the tables' stored counts (kept by the database, tables migration 0006) plus
# any playing entry without a table (a range of the seats' `seat_unseated` index, usually
# empty); counting 10,000 entries took PostgreSQL about 1 ms.
_SEATED_SQL = f"""
    (SELECT COALESCE(SUM(players), 0) FROM {TournamentTable._meta.db_table}
        WHERE tournament_id = %s)
"""


_UNSEATED_SQL = f"""
    (SELECT COUNT(*) FROM {Seat._meta.db_table}
        WHERE tournament_table_id IS NULL AND tournament_id = %s)
"""


_REMAINING_SQL = f"{_SEATED_SQL} + {_UNSEATED_SQL}"


_LAST_GROUP_SQL = f"""
    (SELECT COALESCE(MAX(bust_group), 0) FROM {Elimination._meta.db_table}
        WHERE tournament_id = %s AND undone_at IS NULL)
"""


_WAITING_SQL = f"""
    (SELECT COUNT(*) FROM {Entry._meta.db_table} WHERE tournament_id = %s AND status = %s)
"""


_PENDING_MOVES_SQL = f"""
    (SELECT COUNT(*) FROM {FloorAction._meta.db_table}
        WHERE tournament_id = %s AND kind = %s AND status = %s AND entry_id IN ({{ids}}))
"""


def _unseated_params(tid: int) -> list:
    return [tid]


def _remaining_params(tid: int) -> list:
    return [tid, *_unseated_params(tid)]


def _pending_params(tid: int) -> list:
    return [tid, FloorAction.Kind.MOVE, FloorAction.Status.PENDING]


def bust_context(tournament: Tournament, entry_ids: Sequence[int]) -> BustContext:
    """The players left, the last bust group and the busting players' pending moves: one
    statement instead of three ORM queries (each costs more to build than to run)."""
    tid = tournament.pk
    pending = _PENDING_MOVES_SQL.format(ids=", ".join(["%s"] * len(entry_ids)) or "NULL")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {_REMAINING_SQL}, {_LAST_GROUP_SQL}, {pending}, {_WAITING_SQL}",
            [
                *_remaining_params(tid),
                tid,
                *_pending_params(tid),
                *entry_ids,
                tid,
                Entry.Status.WAITING,
            ],
        )
        remaining, last_group, pending_moves, waiting = cursor.fetchone()
    return BustContext(int(remaining), int(last_group), int(pending_moves), int(waiting))


# What a bust-out reads and writes of an entry (the snapshot, the audit, the elimination row):
# the rest of the three rows (a table's button-draw JSON...) would only cost time to load.
BUSTED_COLUMNS = (
    "id",
    "tournament_id",
    "player_id",
    "number",
    "status",
    "tournament_table_id",
    "seat",
    "place",
    "ended_at",
    "absent_since",
    "waits_for_button",
)


@functools.cache
def _busted_sql(count: int) -> str:
    """The busting entries with their players' names and tables, the `bust_context` and the
    floor's `field_shape_select`: one statement, its SQL built once per number of entries
    (building it with the ORM took longer than running it)."""
    pending = _PENDING_MOVES_SQL.format(ids=", ".join(["%s"] * count))
    extra = [
        "p.name AS player_name",
        "t.status AS table_status",
        "t.number AS table_number",
        "t.players AS table_players",
        f"totals.seated + {_UNSEATED_SQL} AS context_remaining",
        f"{_LAST_GROUP_SQL} AS context_last_group",
        f"{pending} AS context_pending",
        f"{_WAITING_SQL} AS context_waiting",
        *(f"{sql} AS shape_{i}" for i, sql in enumerate(field_shape_select(count, "totals"))),
    ]
    return f"""
        SELECT {", ".join(f"e.{c}" for c in BUSTED_COLUMNS)}, {", ".join(extra)}
        FROM {Entry._meta.db_table} AS e
        JOIN {Player._meta.db_table} AS p ON p.id = e.player_id
        LEFT JOIN {TournamentTable._meta.db_table} AS t ON t.id = e.tournament_table_id
        CROSS JOIN {TABLE_TOTALS_SQL} AS totals
        WHERE e.tournament_id = %s AND e.id IN ({", ".join(["%s"] * count)})
    """


def busted_entries(
    tournament: Tournament, entry_ids: Sequence[int]
) -> tuple[list[Entry], BustContext, FieldShape | None]:
    """The entries busting, checked as playing, the `bust_context` read with them, and the
    floor's field shape once they are out (None: the floor must read it afresh)."""
    if not entry_ids:
        raise InvalidInput("invalid_input", _("Name at least one busted player."))
    if len(set(entry_ids)) != len(entry_ids):
        raise InvalidInput("duplicate_entry", _("A player appears twice in the same bust-out."))
    tid, ids = tournament.pk, list(entry_ids)
    params = [
        *_unseated_params(tid),
        tid,
        *_pending_params(tid),
        *ids,
        tid,
        Entry.Status.WAITING,
        *field_shape_params(tournament, ids),
        *table_totals_params(tournament),
        tid,
        *ids,
    ]
    found = {e.pk: e for e in Entry.objects.raw(_busted_sql(len(ids)), params)}
    entries = []
    for entry_id in entry_ids:
        entry = found.get(entry_id) or entry_of(tournament, entry_id)  # entry_of: the 404
        entry.player = Player(pk=entry.player_id, name=entry.player_name)
        if entry.status == Entry.Status.ELIMINATED:
            raise Conflict(
                "already_eliminated",
                _("%(name)s is already out (place %(place)s).")
                % {"name": entry.player.name, "place": entry.place},
            )
        if entry.status != Entry.Status.ACTIVE or entry.tournament_table_id is None:
            raise Conflict(
                "entry_not_playing",
                _("%(name)s is not playing at a table.") % {"name": entry.player.name},
            )
        entry.tournament_table = TournamentTable(
            pk=entry.tournament_table_id,
            number=entry.table_number,
            status=entry.table_status,
            players=entry.table_players,
        )
        entries.append(entry)
    first = entries[0]
    context = BustContext(
        int(first.context_remaining),
        int(first.context_last_group),
        int(first.context_pending),
        int(first.context_waiting),
    )
    # Without a pending move of the busted to void, the field's shape after the bust follows
    # from this read (one statement less for the floor).
    shape = None
    if not context.pending_moves:
        shape = field_shape_after_bust(
            [e.tournament_table for e in entries],
            [getattr(first, f"shape_{i}") for i in range(len(field_shape_select(1, "totals")))],
        )
    return entries, context, shape
