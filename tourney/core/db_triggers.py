"""Columns the database keeps itself, with triggers, because reading them is on the hot path:

- `tables.Seat`: a row (entry, tournament, table, seat) for each playing entry, kept from the
  entry's own columns. It holds the seat's uniqueness and serves the reads by table and the
  count of the players without a seat, so that no index of the entry table holds a table or
  a seat: the draw's UPDATE of 25,000 entries then changes no indexed column and PostgreSQL
  updates each row in its page without writing its indexes (docs/benchmarks.md).
- `TournamentTable.players`: the playing entries seated at the table. The floor compares the
  tables' counts after every bust-out; counting the entries of 1,112 tables took PostgreSQL
  3-4 ms per bust-out in a 10,000-player field (docs/benchmarks.md). Every change of an
  entry's table, seat or status counts that table's rows of `tables.Seat` again (a range of
  its unique index), so the value is exact whatever writes the row (the ORM, the draw's bulk
  UPDATE, a raw statement, a cascade) and in whatever order a bulk write goes.
  On PostgreSQL an UPDATE syncs the seats and recounts once per statement, over the rows it
  changed (SQLite has only row triggers).
- `Tournament.playing`: the tournament's playing entries (its rows of `tables.Seat`), one more
  or one fewer as an entry comes into play or leaves it. Registration compares it with the
  seats instead of counting the field: 0.4 ms of PostgreSQL's time per registration at 1,000
  entries, growing with the field (docs/benchmarks.md). An entry stays in its tournament.
- `Tournament.version`: the version of the tournament's latest event, set when the event is
  inserted (one statement per event less for every service), and by nothing else: the
  tournament's `save` leaves the column alone, and `(tournament, version)` is unique on the
  events.

The triggers are created by a migration (`tourney/migrations/0013_triggers_in_migrations.py`,
the `TriggersInstall` operation below), so `sqlmigrate tourney 0013` shows them. SQLite drops
a table's triggers when a migration rebuilds the table (and refuses to rename a table that
another trigger names), so on SQLite only `pre_migrate` drops them and `post_migrate` creates
them again (tourney/apps.py); PostgreSQL alters tables in place and keeps them.
`tests/tables/test_table_players.py` checks they are installed.
"""

from django.db import migrations
from django.db.backends.base.base import BaseDatabaseWrapper

ENTRY = "tourney_entry"
SEAT = "tables_seat"
TABLE = "tables_tournamenttable"
EVENT = "tourney_tournamentevent"
TOURNAMENT = "tourney_tournament"
ACTIVE = "active"  # Entry.Status.ACTIVE (this module must not import models)
# A transaction-local setting: while it is 'on', an UPDATE or INSERT of entries leaves the
# tables' counts to its writer (the seats' rows are kept all the same; PostgreSQL only). The
# draw sets it around its one UPDATE of 25,000 entries (an INSERT honours it as well) and
# writes each table's count with the table's opening: recounting 2,778 tables in the trigger
# took 80 ms of the draw's server time, and wrote each table row twice (docs/benchmarks.md).
PLAYERS_WRITTEN = "tourney.players_written"

TRIGGER_TABLES = {
    "entry_table_players_insert": ENTRY,
    "entry_table_players_update": ENTRY,
    "entry_table_players_delete": ENTRY,
    "entry_playing_insert": ENTRY,
    "entry_playing_delete": ENTRY,
    "event_tournament_version": EVENT,
}


def _playing(ref: str) -> str:
    """Whether the entry row `ref` has a row of its own in the seats table."""
    return f"{ref}.status = '{ACTIVE}'"


def _recount(ref: str) -> str:
    return (
        f"UPDATE {TABLE} SET players = (SELECT COUNT(*) FROM {SEAT}"
        f" WHERE tournament_table_id = {ref}.tournament_table_id)"
        f" WHERE id = {ref}.tournament_table_id"
    )


_SEAT_COLUMNS = "entry_id, tournament_id, tournament_table_id, seat"


def _seat_insert(ref: str) -> str:
    return (
        f"INSERT INTO {SEAT} ({_SEAT_COLUMNS}) SELECT {ref}.id, {ref}.tournament_id,"
        f" {ref}.tournament_table_id, {ref}.seat WHERE {_playing(ref)}"
    )


def _seat_delete(ref: str) -> str:
    return f"DELETE FROM {SEAT} WHERE entry_id = {ref}.id"


def _playing_add(ref: str, step: int) -> str:
    return f"UPDATE {TOURNAMENT} SET playing = playing + ({step}) WHERE id = {ref}.tournament_id"


_SET_VERSION = (
    f"UPDATE {TOURNAMENT} SET version = NEW.version"
    " WHERE id = NEW.tournament_id AND version < NEW.version"
)

# The rows an UPDATE statement changed the seat of (status, table or seat), old and new.
_CHANGED = (
    "old_rows AS o JOIN new_rows AS n ON n.id = o.id"
    " WHERE (o.status, o.tournament_table_id, o.seat)"
    " IS DISTINCT FROM (n.status, n.tournament_table_id, n.seat)"
)

_POSTGRES = [
    f"""
    CREATE OR REPLACE FUNCTION tournamenttable_players_recount() RETURNS trigger AS $$
    BEGIN
        {_seat_delete("OLD")};
        IF OLD.tournament_table_id IS NOT NULL THEN
            {_recount("OLD")};
        END IF;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
    """,
    # Once per INSERT statement, over the rows it made, as the UPDATE's: the Day-2 draw
    # inserts 5,000 entries already seated, and a trigger per row took 80 ms of its 400
    # (tests/benchmarks/bench_festival.py). A registration's one row costs the same either way.
    f"""
    CREATE OR REPLACE FUNCTION tournamenttable_players_inserted() RETURNS trigger AS $$
    BEGIN
        INSERT INTO {SEAT} ({_SEAT_COLUMNS})
            SELECT n.id, n.tournament_id, n.tournament_table_id, n.seat
            FROM new_rows AS n WHERE {_playing("n")};
        IF current_setting('{PLAYERS_WRITTEN}', true) = 'on' THEN
            RETURN NULL;
        END IF;
        UPDATE {TABLE} AS t SET players = (
            SELECT COUNT(*) FROM {SEAT} AS s WHERE s.tournament_table_id = t.id)
        WHERE t.id = ANY (ARRAY(
            SELECT DISTINCT n.tournament_table_id FROM new_rows AS n
            WHERE {_playing("n")} AND n.tournament_table_id IS NOT NULL));
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql SET jit = off
    """,
    f"""
    CREATE TRIGGER entry_table_players_insert AFTER INSERT ON {ENTRY}
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournamenttable_players_inserted()
    """,
    # Once per UPDATE statement, over the rows it changed: their seats' rows out, the new
    # ones in (so a statement may swap two players' seats), then the tables' counts unless
    # the statement's writer has set `PLAYERS_WRITTEN` (the draw, which writes every table's
    # count itself). The draw seats 25,000 entries in one statement, and a trigger per row
    # doubled its time (1.1 s -> 2.2 s). The tables by their primary key (a join with `IN`
    # scanned every tournament's tables), and no JIT: the planner cannot size the changed
    # rows, and compiling took 0.7 s of a 1.2 s recount.
    f"""
    CREATE OR REPLACE FUNCTION tournamenttable_players_recount_changed() RETURNS trigger AS $$
    DECLARE
        gone bigint;
        came bigint;
        first_tournament bigint;
        several boolean := false;
    BEGIN
        DELETE FROM {SEAT} WHERE entry_id = ANY (ARRAY(
            SELECT o.id FROM {_CHANGED} AND {_playing("o")}));
        GET DIAGNOSTICS gone = ROW_COUNT;
        INSERT INTO {SEAT} ({_SEAT_COLUMNS})
            SELECT n.id, n.tournament_id, n.tournament_table_id, n.seat
            FROM {_CHANGED} AND {_playing("n")};
        GET DIAGNOSTICS came = ROW_COUNT;
        -- In one tournament, the count in play changes by the seats' rows in less those out
        -- (none for the draw's 25,000 moves, one out for a bust-out); a statement over
        -- several tournaments counts each one's own.
        IF gone > 0 OR came > 0 THEN
            SELECT tournament_id INTO first_tournament FROM new_rows LIMIT 1;
            several := EXISTS (
                SELECT 1 FROM new_rows WHERE tournament_id <> first_tournament);
        END IF;
        IF NOT several AND gone <> came THEN
            UPDATE {TOURNAMENT} SET playing = playing + (came - gone)
            WHERE id = first_tournament;
        ELSIF several THEN
            UPDATE {TOURNAMENT} AS t SET playing = t.playing + d.step FROM (
                SELECT moves.tournament_id, SUM(moves.step) AS step FROM (
                    SELECT o.tournament_id, -1 AS step FROM {_CHANGED} AND {_playing("o")}
                    UNION ALL
                    SELECT n.tournament_id, 1 FROM {_CHANGED} AND {_playing("n")}
                ) AS moves GROUP BY moves.tournament_id HAVING SUM(moves.step) <> 0
            ) AS d WHERE t.id = d.tournament_id;
        END IF;
        IF current_setting('{PLAYERS_WRITTEN}', true) = 'on' THEN
            RETURN NULL;
        END IF;
        UPDATE {TABLE} AS t SET players = (
            SELECT COUNT(*) FROM {SEAT} AS s WHERE s.tournament_table_id = t.id)
        WHERE t.id = ANY (ARRAY(
            SELECT DISTINCT changed.id FROM (
                SELECT UNNEST(ARRAY[o.tournament_table_id, n.tournament_table_id]) AS id
                FROM {_CHANGED}
            ) AS changed
            WHERE changed.id IS NOT NULL));
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql SET jit = off
    """,
    f"""
    CREATE TRIGGER entry_table_players_update AFTER UPDATE ON {ENTRY}
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournamenttable_players_recount_changed()
    """,
    f"""
    CREATE TRIGGER entry_table_players_delete AFTER DELETE ON {ENTRY}
    FOR EACH ROW WHEN ({_playing("OLD")})
    EXECUTE FUNCTION tournamenttable_players_recount()
    """,
    # The count in play once per statement, per tournament: a bulk insert of 25,000 entries
    # (the simulation, the benchmarks' fields) updated the tournament's row once per entry
    # with a row trigger, and the draw that followed read the row through its 25,000 dead
    # versions (90 ms).
    f"""
    CREATE OR REPLACE FUNCTION tournament_playing_count() RETURNS trigger AS $$
    BEGIN
        IF TG_OP = 'INSERT' THEN
            UPDATE {TOURNAMENT} AS t SET playing = t.playing + n.entries FROM (
                SELECT tournament_id, COUNT(*) AS entries FROM new_rows
                WHERE {_playing("new_rows")} GROUP BY tournament_id
            ) AS n WHERE t.id = n.tournament_id;
        ELSE
            UPDATE {TOURNAMENT} AS t SET playing = t.playing - o.entries FROM (
                SELECT tournament_id, COUNT(*) AS entries FROM old_rows
                WHERE {_playing("old_rows")} GROUP BY tournament_id
            ) AS o WHERE t.id = o.tournament_id;
        END IF;
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql SET jit = off
    """,
    f"""
    CREATE TRIGGER entry_playing_insert AFTER INSERT ON {ENTRY}
    REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_playing_count()
    """,
    f"""
    CREATE TRIGGER entry_playing_delete AFTER DELETE ON {ENTRY}
    REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION tournament_playing_count()
    """,
    f"""
    CREATE OR REPLACE FUNCTION tournament_version_from_event() RETURNS trigger AS $$
    BEGIN
        {_SET_VERSION};
        RETURN NULL;
    END
    $$ LANGUAGE plpgsql
    """,
    f"""
    CREATE TRIGGER event_tournament_version AFTER INSERT ON {EVENT}
    FOR EACH ROW EXECUTE FUNCTION tournament_version_from_event()
    """,
]

_SQLITE = [
    f"""
    CREATE TRIGGER entry_table_players_insert AFTER INSERT ON {ENTRY}
    WHEN {_playing("NEW")}
    BEGIN {_seat_insert("NEW")}; {_recount("NEW")}; END
    """,
    f"""
    CREATE TRIGGER entry_table_players_update AFTER UPDATE OF status, tournament_table_id, seat
    ON {ENTRY}
    WHEN OLD.status IS NOT NEW.status OR OLD.tournament_table_id IS NOT NEW.tournament_table_id
        OR OLD.seat IS NOT NEW.seat
    BEGIN
        {_seat_delete("OLD")}; {_seat_insert("NEW")}; {_recount("OLD")}; {_recount("NEW")};
        {_playing_add("OLD", -1)} AND {_playing("OLD")} AND NOT {_playing("NEW")};
        {_playing_add("NEW", 1)} AND {_playing("NEW")} AND NOT {_playing("OLD")};
    END
    """,
    f"""
    CREATE TRIGGER entry_table_players_delete AFTER DELETE ON {ENTRY}
    WHEN {_playing("OLD")}
    BEGIN {_seat_delete("OLD")}; {_recount("OLD")}; END
    """,
    f"""
    CREATE TRIGGER entry_playing_insert AFTER INSERT ON {ENTRY} WHEN {_playing("NEW")}
    BEGIN {_playing_add("NEW", 1)}; END
    """,
    f"""
    CREATE TRIGGER entry_playing_delete AFTER DELETE ON {ENTRY} WHEN {_playing("OLD")}
    BEGIN {_playing_add("OLD", -1)}; END
    """,
    f"""
    CREATE TRIGGER event_tournament_version AFTER INSERT ON {EVENT}
    BEGIN {_SET_VERSION}; END
    """,
]

# What the triggers would have kept, for rows written while they were not installed.
_RECOUNT_ALL = [
    f"DELETE FROM {SEAT}",
    f"INSERT INTO {SEAT} ({_SEAT_COLUMNS}) SELECT e.id, e.tournament_id,"
    f" e.tournament_table_id, e.seat FROM {ENTRY} AS e WHERE {_playing('e')}",
    f"UPDATE {TABLE} SET players = (SELECT COUNT(*) FROM {SEAT}"
    f" WHERE {SEAT}.tournament_table_id = {TABLE}.id)",
    f"UPDATE {TOURNAMENT} SET playing = (SELECT COUNT(*) FROM {SEAT}"
    f" WHERE {SEAT}.tournament_id = {TOURNAMENT}.id)",
    f"UPDATE {TOURNAMENT} SET version = (SELECT MAX(version) FROM {EVENT}"
    f" WHERE {EVENT}.tournament_id = {TOURNAMENT}.id)"
    f" WHERE version < (SELECT COALESCE(MAX(version), 0) FROM {EVENT}"
    f" WHERE {EVENT}.tournament_id = {TOURNAMENT}.id)",
]


def _tables_exist(connection: BaseDatabaseWrapper) -> bool:
    existing = set(connection.introspection.table_names())
    return {ENTRY, SEAT, TABLE, EVENT, TOURNAMENT} <= existing


def _schema_ready(connection: BaseDatabaseWrapper) -> bool:
    """The tables and columns the triggers keep exist: the seats' table (tables migration
    0009) and `Tournament.playing` (tourney migration 0018). The migrations before those
    that reinstall the triggers do nothing on a database that lacks them; the first that
    runs after them installs the triggers and counts everything again."""
    if not _tables_exist(connection):
        return False
    with connection.cursor() as cursor:
        columns = connection.introspection.get_table_description(cursor, TOURNAMENT)
    return any(column.name == "playing" for column in columns)


def _drop_statements(vendor: str) -> list[str]:
    if vendor == "postgresql":
        return [
            f"DROP TRIGGER IF EXISTS {name} ON {table}" for name, table in TRIGGER_TABLES.items()
        ]
    return [f"DROP TRIGGER IF EXISTS {name}" for name in TRIGGER_TABLES]


def _install_statements(vendor: str) -> list[str]:
    if vendor not in ("postgresql", "sqlite"):
        return []
    statements = _POSTGRES if vendor == "postgresql" else _SQLITE
    return [*_drop_statements(vendor), *statements, *_RECOUNT_ALL]


def triggers_drop(connection: BaseDatabaseWrapper) -> None:
    """Drop the triggers (on SQLite, before migrations run)."""
    if not _tables_exist(connection):
        return
    with connection.cursor() as cursor:
        for sql in _drop_statements(connection.vendor):
            cursor.execute(sql)


def triggers_install(connection: BaseDatabaseWrapper) -> None:
    """(Re)create the triggers and recount what they keep (on SQLite, after migrations)."""
    if not _schema_ready(connection):
        return
    with connection.cursor() as cursor:
        for sql in _install_statements(connection.vendor):
            cursor.execute(sql)


class TriggersInstall(migrations.operations.base.Operation):
    """The migration operation that (re)creates the triggers and recounts what they keep; its
    reverse drops them. Through the schema editor, so `sqlmigrate` shows the statements."""

    reduces_to_sql = True
    reversible = True

    def state_forwards(self, app_label, state) -> None:
        pass

    def database_forwards(self, app_label, schema_editor, from_state, to_state) -> None:
        if not _schema_ready(schema_editor.connection):
            return
        for sql in _install_statements(schema_editor.connection.vendor):
            schema_editor.execute(sql, params=None)

    def database_backwards(self, app_label, schema_editor, from_state, to_state) -> None:
        for sql in _drop_statements(schema_editor.connection.vendor):
            schema_editor.execute(sql, params=None)

    def describe(self) -> str:
        return "Create the triggers of tourney/core/db_triggers.py"


def triggers_installed(connection: BaseDatabaseWrapper) -> set[str]:
    """The names of the installed triggers of this module."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")
        else:
            cursor.execute("SELECT tgname FROM pg_trigger WHERE NOT tgisinternal")
        return {row[0] for row in cursor.fetchall()} & set(TRIGGER_TABLES)


class TriggersDrop(TriggersInstall):
    """Drops the triggers, its reverse creates them: a later migration that alters the tables
    they name opens with it and closes with `TriggersInstall` (SQLite rebuilds an altered table
    and refuses while another table's trigger names it)."""

    def database_forwards(self, app_label, schema_editor, from_state, to_state) -> None:
        super().database_backwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state) -> None:
        super().database_forwards(app_label, schema_editor, from_state, to_state)

    def describe(self) -> str:
        return "Drop the triggers of tourney/core/db_triggers.py"
