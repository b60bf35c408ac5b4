"""Row locks, always taken in one order: the tournament row first."""

import functools

from django.db import connection
from django.utils.translation import gettext as _

from tourney.errors import NotFound
from tourney.models import Tournament
from tourney.raw_rows import model_columns, model_from_row


@functools.cache
def _lock_query(for_update: bool) -> tuple[str, list[list]]:
    # Every write starts here: plain SQL skips building the ORM query each time (0.42 ms of
    # CPU here, 0.14 ms this way), and reading the row with the columns' own converters skips
    # what `Model.objects.raw` does on each call (the cursor's column names matched to the
    # fields, the converters gathered again: 0.6 ms of a registration's CPU, docs/benchmarks.md).
    columns, converters = model_columns(Tournament, "t")
    lock = " FOR UPDATE" if for_update else ""
    sql = f"SELECT {', '.join(columns)} FROM {Tournament._meta.db_table} t WHERE t.id = %s{lock}"
    return sql, converters


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock and return the tournament (SQLite: the IMMEDIATE transaction already serializes)."""
    sql, converters = _lock_query(connection.features.has_select_for_update)
    with connection.cursor() as cursor:
        cursor.execute(sql, [int(tournament_id)])
        row = cursor.fetchone()
    if row is None:
        raise NotFound(
            "tournament_not_found",
            _("There is no tournament with id %(id)s.") % {"id": tournament_id},
        )
    return model_from_row(Tournament, row, converters)
