"""Writes that need no answer before the next one, sent together.

A bust-out writes its elimination rows, the entries, the audit entries and the event one after
another; on PostgreSQL each waited a round trip to the server (about 0.3 ms each here, most of
what was left of the decision's time, docs/benchmarks.md). A `WriteBatch` collects such
inserts and updates and sends them in one go: psycopg's pipeline mode on PostgreSQL (one
round trip, the inserts' generated ids read back at the end), one statement after another
elsewhere. The rows are the models' own (defaults, `auto_now`, JSON and date conversion are
the fields'); errors are Django's database errors, raised at `flush`, in the caller's
transaction.
"""

import functools
from collections.abc import Sequence

import psycopg
from django.db import connection, models


@functools.cache
def _insert_sql(
    model: type[models.Model], with_pk: bool = False
) -> tuple[str, tuple[models.Field, ...]]:
    meta, quote = model._meta, connection.ops.quote_name
    fields = tuple(f for f in meta.concrete_fields if with_pk or not f.primary_key)
    columns = ", ".join(quote(f.column) for f in fields)
    values = ", ".join(["%s"] * len(fields))
    sql = (
        f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({values})"
        f" RETURNING {quote(meta.pk.column)}"
    )
    return sql, fields


@functools.cache
def _update_sql(model: type[models.Model], names: tuple[str, ...]) -> tuple[str, tuple]:
    meta, quote = model._meta, connection.ops.quote_name
    fields = tuple(meta.get_field(name) for name in names)
    sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"
    return sql, fields


class WriteBatch:
    """Inserts and updates to send at `flush` (inside the caller's transaction)."""

    def __init__(self) -> None:
        # (sql, params, the object an INSERT gives its primary key to)
        self._statements: list[tuple[str, list, models.Model | None]] = []

    def insert(self, obj: models.Model) -> None:
        """INSERT `obj` at `flush`, which sets its primary key (or writes the one it has, e.g.
        taken from the sequence beforehand so that rows sent with it can name it)."""
        sql, fields = _insert_sql(type(obj), obj.pk is not None)
        params = [f.get_db_prep_save(f.pre_save(obj, add=True), connection) for f in fields]
        self._statements.append((sql, params, obj))

    def update(self, obj: models.Model, names: Sequence[str]) -> None:
        """UPDATE the fields `names` of `obj` (as it holds them now) at `flush`."""
        sql, fields = _update_sql(type(obj), tuple(names))
        params = [f.get_db_prep_save(f.pre_save(obj, add=False), connection) for f in fields]
        self._statements.append((sql, [*params, obj.pk], None))

    def flush(self) -> None:
        statements, self._statements = self._statements, []
        if not statements:
            return
        with connection.wrap_database_errors:
            connection.ensure_connection()
            if connection.vendor == "postgresql" and psycopg.Pipeline.is_supported():
                with connection.connection.pipeline():
                    cursors = [self._execute(sql, params) for sql, params, _obj in statements]
            else:
                cursors = [self._execute(sql, params) for sql, params, _obj in statements]
            for (_sql, _params, obj), cursor in zip(statements, cursors, strict=True):
                if obj is not None:
                    obj.pk = cursor.fetchone()[0]
                    obj._state.adding = False
                    obj._state.db = connection.alias
                cursor.close()

    @staticmethod
    def _execute(sql: str, params: list):
        cursor = connection.cursor()
        cursor.execute(sql, params)
        return cursor
