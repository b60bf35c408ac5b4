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

import contextlib
import functools
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections, models


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
def _insert_rows_sql(model: type[models.Model], rows: int) -> tuple[str, tuple[models.Field, ...]]:
    """One INSERT of `rows` rows (no primary keys given), their keys returned in the rows'
    order, as Django's `bulk_create` reads them back on PostgreSQL and SQLite."""
    sql, fields = _insert_sql(model)
    head, tail = sql.split(" VALUES ")
    values, returning = tail.split(" RETURNING ")
    return f"{head} VALUES {', '.join([values] * rows)} RETURNING {returning}", fields


@functools.cache
def _update_sql(
    model: type[models.Model], names: tuple[str, ...], guards: tuple[str, ...] = ()
) -> tuple[str, tuple]:
    meta, quote = model._meta, connection.ops.quote_name
    fields = tuple(meta.get_field(name) for name in names)
    sets = ", ".join(f"{quote(f.column)} = %s" for f in fields)
    where = "".join(f" AND {quote(meta.get_field(name).column)} = %s" for name in guards)
    sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s{where}"
    return sql, fields


class WriteBatch:
    """Inserts and updates to send at `flush` (inside the caller's transaction)."""

    def __init__(self) -> None:
        # (sql, params, the object an INSERT gives its primary key to (the objects, in order,
        # of a several-row INSERT), or for a guarded UPDATE the error to raise unless it
        # changed one row)
        self._statements: list[
            tuple[str, list, models.Model | list[models.Model] | Exception | None]
        ] = []
        self._flushing = False

    def insert(self, obj: models.Model) -> None:
        """INSERT `obj` at `flush`, which sets its primary key (or writes the one it has, e.g.
        taken from the sequence beforehand so that rows sent with it can name it)."""
        sql, fields = _insert_sql(type(obj), obj.pk is not None)
        db = connections[DEFAULT_DB_ALIAS]  # not the proxy: each field reads it several times
        params = [f.get_db_prep_save(f.pre_save(obj, add=True), db) for f in fields]
        self._statements.append((sql, params, obj))

    def insert_rows(self, objs: Sequence[models.Model]) -> None:
        """INSERT the rows `objs` (of one model, without primary keys) in one statement at
        `flush`, which sets their primary keys: one statement where each would be one (the
        buy-in and fee of a registration: psycopg's work per statement is most of a write's)."""
        if len(objs) <= 1:
            for obj in objs:
                self.insert(obj)
            return
        sql, fields = _insert_rows_sql(type(objs[0]), len(objs))
        db = connections[DEFAULT_DB_ALIAS]
        params = [f.get_db_prep_save(f.pre_save(obj, add=True), db) for obj in objs for f in fields]
        self._statements.append((sql, params, list(objs)))

    def update(self, obj: models.Model, names: Sequence[str]) -> None:
        """UPDATE the fields `names` of `obj` (as it holds them now) at `flush`."""
        sql, fields = _update_sql(type(obj), tuple(names))
        db = connections[DEFAULT_DB_ALIAS]
        params = [f.get_db_prep_save(f.pre_save(obj, add=False), db) for f in fields]
        self._statements.append((sql, [*params, obj.pk], None))

    def update_guarded(
        self, obj: models.Model, names: Sequence[str], guard: Mapping[str, Any], refused: Exception
    ) -> None:
        """`update`, only where the row still holds `guard`'s values (a compare-and-set):
        `flush` raises `refused` unless the row was changed."""
        sql, fields = _update_sql(type(obj), tuple(names), tuple(guard))
        db = connections[DEFAULT_DB_ALIAS]
        params = [f.get_db_prep_save(f.pre_save(obj, add=False), db) for f in fields]
        self._statements.append((sql, [*params, obj.pk, *guard.values()], refused))

    @contextlib.contextmanager
    def held(self) -> Iterator["WriteBatch"]:
        """Collect writes through the block and send them at its end; any other statement on the
        connection meanwhile (a write of another module, a read) sends those collected so far
        first, so every statement runs in the order it was made. Nothing is sent after an
        error (the caller's transaction rolls back)."""

        def in_order(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
            if self._statements and not self._flushing:
                self.flush()
            return execute(sql, params, many, context)

        with connection.execute_wrapper(in_order):
            yield self
            self.flush()

    def flush(self) -> None:
        statements, self._statements = self._statements, []
        if not statements:
            return
        self._flushing = True
        db = connections[DEFAULT_DB_ALIAS]
        try:
            with db.wrap_database_errors:
                db.ensure_connection()
                if db.vendor == "postgresql" and psycopg.Pipeline.is_supported():
                    with db.connection.pipeline():
                        cursors = [
                            self._execute(db, sql, params) for sql, params, _obj in statements
                        ]
                else:
                    cursors = [self._execute(db, sql, params) for sql, params, _obj in statements]
                for (sql, _params, obj), cursor in zip(statements, cursors, strict=True):
                    self._settle(db, sql, obj, cursor)
        finally:
            self._flushing = False

    @staticmethod
    def _settle(
        db, sql: str, obj: models.Model | list[models.Model] | Exception | None, cursor
    ) -> None:  # type: ignore[no-untyped-def]
        """An INSERT's objects take their primary keys; a guarded UPDATE that changed no row
        raises its error."""
        try:
            if isinstance(obj, Exception):
                if cursor.rowcount != 1:
                    raise obj
            elif obj is not None:
                objs = obj if isinstance(obj, list) else [obj]
                for one, (pk,) in zip(objs, cursor.fetchall(), strict=True):
                    one.pk = pk
                    one._state.adding = False
                    one._state.db = db.alias
        finally:
            cursor.close()

    @staticmethod
    def _execute(db, sql: str, params: list):  # type: ignore[no-untyped-def]
        cursor = db.cursor()
        cursor.execute(sql, params)
        return cursor
