"""Cursors kept on a PostgreSQL connection for the statements that every request runs.

psycopg sets up a statement's conversions (its Transformer: a dumper for each parameter's type,
a loader for each column) on every new cursor, and again whenever a cursor runs another query
object than its last one; Django makes a new cursor for every statement. For the few statements
a registration runs (the bearer token, the tournament lock and registration's read, the
inserts of `WriteBatch`), each SQL a string cached once per process, a cursor kept on the
connection for that string finds them set up: about 40 us less per statement here
(docs/benchmarks.md). Each use still gets Django's cursor wrapper as `connection.cursor()` gives
it (the execute wrappers, query logging, the broken-transaction check); only psycopg's cursor
underneath is kept. Taken cursors are given back after use; a statement run again while its
kept cursor is taken (a flush inside a read) gets one of its own. SQLite: `cursor()` as before.
"""

from typing import Any

_ATTR = "_tourney_kept_cursors"
MAX_STATEMENTS = 64  # statements with cursors kept per connection
MAX_IDLE = 4  # cursors kept per statement


def take(db, sql: str):  # type: ignore[no-untyped-def]
    """A cursor (Django's wrapper) for running `sql` on `db` (`connections[alias]`), over a
    psycopg cursor that last ran the same string when one is kept; `give_back` it after use."""
    if db.vendor != "postgresql":
        return db.cursor()
    db.close_if_health_check_failed()  # as db.cursor() does
    db.ensure_connection()
    idle = getattr(db.connection, _ATTR, {}).get(sql)
    with db.wrap_database_errors:
        cursor = idle.pop() if idle else db.create_cursor()
    db.validate_thread_sharing()
    return db.make_debug_cursor(cursor) if db.queries_logged else db.make_cursor(cursor)


def give_back(db, sql: str, wrapper: Any) -> None:  # type: ignore[no-untyped-def]
    """Keep the psycopg cursor under `wrapper` for the next run of `sql` on the same
    connection (closed instead when the connection has changed or enough are kept)."""
    cursor = wrapper.cursor
    raw = db.connection
    if db.vendor != "postgresql" or raw is None or cursor.closed or cursor.connection is not raw:
        wrapper.close()
        return
    kept: dict[str, list] | None = getattr(raw, _ATTR, None)
    if kept is None:
        kept = {}
        setattr(raw, _ATTR, kept)
    idle = kept.get(sql)
    if idle is None:
        if len(kept) >= MAX_STATEMENTS:
            wrapper.close()
            return
        idle = kept[sql] = []
    if len(idle) >= MAX_IDLE:
        wrapper.close()
        return
    idle.append(cursor)
