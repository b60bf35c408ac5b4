"""Row locks, always taken in one order: the tournament row first."""

import functools

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.utils.translation import gettext as _

from infra.db.raw_rows import model_columns, model_from_row
from tourney.core.errors import NotFound
from tourney.models import Tournament


@functools.cache
def _lock_query(for_update: bool) -> tuple[str, list[list]]:
    # Every write starts here: plain SQL skips building the ORM query each time (0.42 ms of
    # CPU here, 0.14 ms this way), and reading the row with the columns' own converters skips
    # what `Model.objects.raw` does on each call (the cursor's column names matched to the
    # fields, the converters gathered again: 0.4 ms of a registration's CPU, docs/benchmarks.md).
    columns, converters = model_columns(Tournament, "t")
    # NO KEY UPDATE: writers still go one at a time, but a foreign key's check (KEY SHARE, which
    # Django's deferred constraints take at COMMIT) on the row passes: FOR UPDATE made another
    # write's COMMIT wait on the lock holder while it waited on that write (a deadlock, CI).
    lock = " FOR NO KEY UPDATE" if for_update else ""
    sql = f"SELECT {', '.join(columns)} FROM {Tournament._meta.db_table} t WHERE t.id = %s{lock}"
    return sql, converters


def tournament_lock(tournament_id: int) -> Tournament:
    """Lock and return the tournament (SQLite: the IMMEDIATE transaction already serializes)."""
    return tournament_lock_reading(tournament_id)[0]


def tournament_lock_reading(
    tournament_id: int, sql: str | None = None, params: list | None = None
) -> tuple[Tournament, tuple | None]:
    """Lock the tournament as `tournament_lock` does and then run the read `sql`, which must
    not need the tournament's row (it runs once the lock is held, in the caller's
    transaction); the tournament and the read's first row (None without `sql`). On
    PostgreSQL both go in one round trip (psycopg's pipeline mode), so the reads a write
    makes under the lock wait for no round trip of their own."""
    db = connections[DEFAULT_DB_ALIAS]  # not the proxy, which looks it up on every read
    lock_sql, converters = _lock_query(db.features.has_select_for_update)
    statements = [(lock_sql, [int(tournament_id)])]
    if sql is not None:
        statements.append((sql, params or []))
    row, *read = _first_rows(db, statements)
    if row is None:
        raise NotFound(
            "tournament_not_found",
            _("There is no tournament with id %(id)s.") % {"id": tournament_id},
        )
    return model_from_row(Tournament, row, converters, db), read[0] if read else None


def _first_rows(db, statements: list[tuple[str, list]]) -> list[tuple | None]:  # type: ignore[no-untyped-def]
    """Each statement's first row, the statements sent together on PostgreSQL."""
    if len(statements) == 1 or db.vendor != "postgresql":
        return [_first_row(db, sql, params) for sql, params in statements]
    with db.wrap_database_errors:
        db.ensure_connection()
        if not psycopg.Pipeline.is_supported():
            return [_first_row(db, sql, params) for sql, params in statements]
        cursors = []
        try:
            with db.connection.pipeline():
                for sql, params in statements:
                    cursors.append(db.cursor())
                    cursors[-1].execute(sql, params)
            return [cursor.fetchone() for cursor in cursors]
        finally:
            for cursor in cursors:
                cursor.close()


def _first_row(db, sql: str, params: list) -> tuple | None:  # type: ignore[no-untyped-def]
    with db.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def tournaments_lock(tournament_ids) -> list[Tournament]:  # type: ignore[no-untyped-def]
    """Lock and return several tournaments in one statement, in id order (the order every
    writer of several takes them in, so that two never wait for each other); missing ones are
    left out. For a write that changes many at one instant (the clocks due together)."""
    ids = sorted({int(tournament_id) for tournament_id in tournament_ids})
    if not ids:
        return []
    single, converters = _lock_query(connection.features.has_select_for_update)
    head, lock = single.split(" WHERE t.id = %s")
    places = ", ".join(["%s"] * len(ids))
    with connection.cursor() as cursor:
        cursor.execute(f"{head} WHERE t.id IN ({places}) ORDER BY t.id{lock}", ids)
        rows = cursor.fetchall()
    return [model_from_row(Tournament, row, converters) for row in rows]
