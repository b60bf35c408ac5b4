"""Backups of the whole database and their restore (docs/backups.md): SQLite through its
online backup API, PostgreSQL through `pg_dump`, each consistent while Tourney runs and writes.

A backup is written under a temporary name and renamed when complete and checked, so a file
that looks like a backup is one. `backup_restore` first backs up the database it replaces
(`before-restore-...`), so a restore of the wrong file can itself be taken back.
"""

import os
import sqlite3
import subprocess
import time
from pathlib import Path

from django.core.management import call_command
from django.db import connection, connections
from django.db.models import Sum

from tourney.backups.selectors import backup_dir, backups_listed
from tourney.domain.backups import backup_name, backups_to_remove

SQLITE_HEADER = b"SQLite format 3\x00"
PGDUMP_HEADER = b"PGDMP"


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why, for the operator."""


def engine_extension() -> str:
    """The backup format of this installation's database: `sqlite3` or `pgdump`."""
    if connection.vendor == "sqlite":
        return "sqlite3"
    if connection.vendor == "postgresql":
        return "pgdump"
    raise BackupError(f"Backups support SQLite and PostgreSQL, not {connection.vendor}.")


def _sqlite_path() -> str:
    return str(connection.settings_dict["NAME"])


def _pg_env() -> dict[str, str]:
    """libpq's variables for the configured database (pg_dump and pg_restore read them)."""
    s = connection.settings_dict
    env = {**os.environ, "PGDATABASE": str(s["NAME"])}
    for key, variable in (("HOST", "PGHOST"), ("PORT", "PGPORT"), ("USER", "PGUSER")):
        if s.get(key):
            env[variable] = str(s[key])
    if s.get("PASSWORD"):
        env["PGPASSWORD"] = str(s["PASSWORD"])
    return env


def _run(command: list[str], env: dict[str, str]) -> None:
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=3600)
    except FileNotFoundError as exc:
        raise BackupError(
            f"{command[0]} is not installed: install PostgreSQL's client tools "
            "(Debian: postgresql-client) of the server's major version."
        ) from exc
    if done.returncode != 0:
        raise BackupError(f"{command[0]} failed: {done.stderr.strip()[-2000:]}")


def _sqlite_copy(source: str, target: str, standalone: bool) -> None:
    """Copy the SQLite database `source` into `target` with the online backup API: one step,
    so the copy is the database as one instant (writers go on meanwhile, in WAL mode).
    `standalone`: the copy is a backup file, one file with no -wal beside it."""
    src = sqlite3.connect(source, timeout=60)
    dst = sqlite3.connect(target, timeout=60)
    try:
        src.backup(dst)
        if standalone:
            dst.execute("PRAGMA journal_mode=DELETE")
    finally:
        dst.close()
        src.close()


def sqlite_check(path: Path) -> None:
    """Refuse a file that is not a sound SQLite database of Tourney's."""
    with open(path, "rb") as f:
        if f.read(16) != SQLITE_HEADER:
            raise BackupError(f"{path} is not a SQLite database.")
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        result = db.execute("PRAGMA integrity_check").fetchone()[0]
        if result != "ok":
            raise BackupError(f"{path} is damaged: {result}")
        tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master")}
    finally:
        db.close()
    if not {"django_migrations", "tourney_tournament"} <= tables:
        raise BackupError(f"{path} is not a Tourney database.")


def _free_name(directory: Path, kind: str, now_s: int, extension: str) -> Path:
    while (directory / backup_name(kind, now_s, extension)).exists():
        now_s += 1  # two backups within a second: the second is named a second later
    return directory / backup_name(kind, now_s, extension)


def backup_make(kind: str = "tourney", to: Path | None = None, now_s: int | None = None) -> Path:
    """Write a consistent copy of the database into `to` (default: the backup folder) and
    return its path. Tourney may run and write meanwhile."""
    directory = Path(to) if to is not None else backup_dir()
    directory.mkdir(parents=True, exist_ok=True)
    extension = engine_extension()
    target = _free_name(
        directory, kind, int(now_s if now_s is not None else time.time()), extension
    )
    partial = target.with_name(target.name + ".part")
    try:
        if extension == "sqlite3":
            _sqlite_copy(_sqlite_path(), str(partial), standalone=True)
            sqlite_check(partial)
        else:
            command = ["pg_dump", "--format=custom", "--no-owner", "--no-privileges"]
            _run([*command, f"--file={partial}"], _pg_env())
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target


def _backup_format(path: Path) -> str:
    with open(path, "rb") as f:
        head = f.read(16)
    if head == SQLITE_HEADER:
        return "sqlite3"
    if head.startswith(PGDUMP_HEADER):
        return "pgdump"
    raise BackupError(f"{path} is not a Tourney backup (neither SQLite nor pg_dump's format).")


def _has_tables() -> bool:
    return "tourney_tournament" in connection.introspection.table_names()


def backup_restore(path: Path) -> Path | None:
    """Bring the database back to the backup `path`, then migrate it to this version's schema.
    Returns the backup taken of the database it replaced (None when that held nothing)."""
    path = Path(path)
    if not path.is_file():
        raise BackupError(f"There is no file {path}.")
    found, extension = _backup_format(path), engine_extension()
    if found != extension:
        engines = {"sqlite3": "SQLite", "pgdump": "PostgreSQL"}
        raise BackupError(
            f"{path} is a {engines[found]} backup and this Tourney runs on "
            f"{engines[extension]}: move a tournament between them with its export."
        )
    if extension == "sqlite3":
        sqlite_check(path)
    safety = backup_make("before-restore") if _has_tables() else None
    connections.close_all()
    if extension == "sqlite3":
        _sqlite_copy(str(path), _sqlite_path(), standalone=False)
    else:
        with connection.cursor() as cursor:
            cursor.execute("DROP SCHEMA public CASCADE; CREATE SCHEMA public")
        connection.close()
        command = ["pg_restore", "--no-owner", "--no-privileges", "--exit-on-error"]
        _run(
            [*command, "--single-transaction", f"--dbname={_pg_env()['PGDATABASE']}", str(path)],
            _pg_env(),
        )
    connections.close_all()
    call_command("migrate", interactive=False, verbosity=0)
    return safety


def database_summary() -> dict[str, int]:
    """What a backup holds, to compare one database with another: counts and money sums."""
    from clocks.models import Clock
    from tourney.models import AuditEntry, Entry, LedgerEntry, Player, Tournament

    ledger = LedgerEntry.objects.aggregate(total=Sum("amount"))["total"] or 0
    return {
        "tournaments": Tournament.objects.count(),
        "players": Player.objects.count(),
        "entries": Entry.objects.count(),
        "places": Entry.objects.filter(place__isnull=False).count(),
        "ledger_lines": LedgerEntry.objects.count(),
        "ledger_total": ledger,
        "audit_entries": AuditEntry.objects.count(),
        "clock_versions": Clock.objects.aggregate(v=Sum("version"))["v"] or 0,
    }


def backups_rotate(directory: Path) -> list[str]:
    """Delete the automatic backups the rotation does not keep (docs/backups.md); returns
    their names."""
    gone = backups_to_remove(backups_listed(directory))
    for name in gone:
        (directory / name).unlink(missing_ok=True)
    return gone
