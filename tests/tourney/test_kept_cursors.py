"""infra/db/kept_cursors.py: a statement run again on the same PostgreSQL connection finds the
psycopg cursor that ran it last, its conversions set up; Django still sees every statement."""

import pytest
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.test.utils import CaptureQueriesContext

from infra.db import kept_cursors

SQL = "SELECT %s + 1"


def _run(db, sql: str = SQL, value: int = 1):  # type: ignore[no-untyped-def]
    cursor = kept_cursors.take(db, sql)
    try:
        cursor.execute(sql, [value])
        return cursor.fetchone()[0], cursor.cursor
    finally:
        kept_cursors.give_back(db, sql, cursor)


@pytest.mark.django_db
def test_a_statement_run_again_reuses_its_cursor_and_is_still_logged():
    db = connections[DEFAULT_DB_ALIAS]
    with CaptureQueriesContext(connection) as queries:
        first, first_cursor = _run(db, value=1)
        second, second_cursor = _run(db, value=41)
    assert (first, second) == (2, 42)
    assert [q["sql"] for q in queries] == ["SELECT 1 + 1", "SELECT 41 + 1"]
    if db.vendor == "postgresql":
        assert second_cursor is first_cursor and not first_cursor.closed
    else:
        assert first_cursor is not second_cursor  # SQLite: a cursor each time, as before


@pytest.mark.django_db
def test_a_statement_taken_twice_at_once_gets_two_cursors():
    db = connections[DEFAULT_DB_ALIAS]
    outer = kept_cursors.take(db, SQL)
    inner = kept_cursors.take(db, SQL)
    try:
        assert outer.cursor is not inner.cursor
        outer.execute(SQL, [1])
        inner.execute(SQL, [2])
        assert (outer.fetchone()[0], inner.fetchone()[0]) == (2, 3)
    finally:
        kept_cursors.give_back(db, SQL, inner)
        kept_cursors.give_back(db, SQL, outer)


@pytest.mark.django_db(transaction=True)
def test_a_new_connection_keeps_none_of_the_old_ones_cursors():
    db = connections[DEFAULT_DB_ALIAS]
    _value, old_cursor = _run(db)
    db.close()
    value, new_cursor = _run(db, value=2)
    assert value == 3 and new_cursor is not old_cursor
    if db.vendor == "postgresql":
        assert new_cursor.connection is db.connection
