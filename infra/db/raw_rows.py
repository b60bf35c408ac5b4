"""Model instances from plain SQL rows, converted as the ORM converts them.

For the few reads that every request makes (the bearer token, registration's checks): plain
SQL skips building an ORM query on each call, which cost more CPU than running it
(docs/benchmarks.md), while the rows still become the models' own instances.
"""

from django.db import DEFAULT_DB_ALIAS, connection, connections, models


def model_columns(model: type[models.Model], alias: str) -> tuple[list[str], list[list]]:
    """`alias`-qualified columns of the model's concrete fields, in order, and each column's
    converters (the backend's then the field's, as the SQL compiler gathers them)."""
    quote = connection.ops.quote_name
    columns, converters = [], []
    for field in model._meta.concrete_fields:
        columns.append(f"{alias}.{quote(field.column)}")
        col = field.get_col(alias)
        converters.append(connection.ops.get_db_converters(col) + col.get_db_converters(connection))
    return columns, converters


def converted(values, converters: list[list], db=None) -> list:
    """`values` read from the database, through each column's converters. `db`: the
    connection (`connections[alias]`); `django.db.connection` is a proxy that looks it up again
    on every attribute read (about 1.5 us each, a dozen per row's converters)."""
    db = db or connections[DEFAULT_DB_ALIAS]
    out = []
    for value, convs in zip(values, converters, strict=True):
        for convert in convs:
            value = convert(value, None, db)
        out.append(value)
    return out


def model_from_row(
    model: type[models.Model], values, converters: list[list], db=None
) -> models.Model:
    """The instance of `model` that the ORM would have read from these column values."""
    db = db or connections[DEFAULT_DB_ALIAS]
    return model.from_db(db.alias, None, converted(values, converters, db))
