"""Backups and restore (issue 24, docs/backups.md), on the engine the suite runs on (SQLite and
PostgreSQL in CI): the restore drill backs up a running tournament while the desk goes on
registering, restores the backup into a fresh database with `manage.py restore`, starts a
server on it and finds the tournament exactly as it was at the backup's instant."""

import random
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from django.db import connection, connections

from tests.databases import FreshDatabase
from tests.e2e.evening import Evening
from tests.processes import REPO, UvicornProcess, database_url_for_tests, process_env
from tourney.backups.operations import BackupError, backup_make, backup_restore, database_summary
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry
from tourney.players.usecases import player_create
from tourney.purchases.usecases import entry_rebuy
from tourney.registration.usecases import entry_register
from tourney.staff.usecases import api_token_create

pytestmark = pytest.mark.django_db(transaction=True)

TABLES = ["tourney_entry", "tourney_ledgerentry", "tourney_auditentry", "tourney_player"]
RESTORED = "action <> 'backup.restore'"  # the restore writes that it was made, in its copy


def running_evening(director) -> Evening:
    """27 registered, seats drawn, the clock running, a rebuy and three bust-outs."""
    evening = Evening(director, players=27).arrange()
    t = evening.tournament.pk
    evening._clock("start")
    entry_rebuy(actor=director, tournament_id=t, entry_id=evening.entry_ids[0], stack=20_000)
    for entry_id in evening.entry_ids[-3:]:
        eliminations_record(
            actor=director,
            tournament_id=t,
            eliminations=[(entry_id, None)],
            rng=random.Random(entry_id),
        )
    return evening


class Desk(threading.Thread):
    """The desk registering new players one after another until told to stop; `acknowledged`
    holds every entry whose registration returned (committed)."""

    def __init__(self, director, tournament_id: int) -> None:
        super().__init__(daemon=True)
        self.director, self.tournament_id = director, tournament_id
        self.acknowledged: list[int] = []
        self.stop = threading.Event()

    def run(self) -> None:
        try:
            n = 0
            while not self.stop.is_set():
                n += 1
                player = player_create(actor=self.director, name=f"Késői Nevező {n}")
                entry = entry_register(
                    actor=self.director, tournament_id=self.tournament_id, player_id=player.pk
                )
                self.acknowledged.append(entry.pk)
        finally:
            connections.close_all()  # this thread's connection, kept for 10 min on PostgreSQL


def _rows(cursor, table: str, up_to: int | None = None) -> tuple[int, int]:
    """(count, highest id) of a table, up to an id (the audit log: what the backup held)."""
    where = [f"id <= {int(up_to)}"] if up_to is not None else []
    if table == "tourney_auditentry":
        where.append(RESTORED)
    clause = f" WHERE {' AND '.join(where)}" if where else ""
    cursor.execute(f"SELECT count(*), coalesce(max(id), 0) FROM {table}{clause}")
    return tuple(cursor.fetchone())


def _ledger_total(cursor, up_to: int) -> int:
    cursor.execute(f"SELECT coalesce(sum(amount), 0) FROM tourney_ledgerentry WHERE id <= {up_to}")
    return int(cursor.fetchone()[0])


def _clock_row(cursor, tournament_id: int) -> tuple:
    cursor.execute(
        "SELECT status, period_index, period_ends_at_ms, paused_remaining_ms, version "
        f"FROM clocks_clock WHERE tournament_id = {int(tournament_id)}"
    )
    return tuple(cursor.fetchone())


def manage(*args: str, url: str, backups: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=process_env(DATABASE_URL=url, REDIS_URL="", TOURNEY_BACKUP_DIR=str(backups)),
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_restore_drill_a_running_tournament_comes_back_as_at_the_backups_instant(
    director, tmp_path
):
    evening = running_evening(director)
    tournament_id = evening.tournament.pk
    raw_token, _token = api_token_create(actor=director, user=director)
    desk = Desk(director, tournament_id)
    desk.start()
    while len(desk.acknowledged) < 5:  # the desk is busy before the backup starts
        desk.join(0.01)
    before = set(desk.acknowledged)
    backup = backup_make(to=tmp_path)
    after = set(desk.acknowledged)
    while len(desk.acknowledged) < len(after) + 3:  # and goes on after it
        desk.join(0.01)
    desk.stop.set()
    desk.join()
    assert backup.parent == tmp_path and backup.name.startswith("tourney-")

    fresh = FreshDatabase(tmp_path)
    try:
        restored = manage("restore", str(backup), "--noinput", url=fresh.url, backups=tmp_path)
        assert restored.returncode == 0, restored.stderr
        assert "Restored" in restored.stdout
        theirs, ours = fresh.cursor(), connection.cursor()
        # The entries of the backup's instant: every registration acknowledged before it began,
        # none acknowledged after it ended, and nothing half there.
        theirs.execute("SELECT id FROM tourney_entry")
        entries = {row[0] for row in theirs.fetchall()}
        late = {e for e in entries if e in set(desk.acknowledged)}
        assert before <= late <= after
        for table in TABLES:
            count, highest = _rows(theirs, table)
            assert _rows(ours, table, highest) == (count, highest), table
        ledger_highest = _rows(theirs, "tourney_ledgerentry")[1]
        assert _ledger_total(theirs, ledger_highest) == _ledger_total(ours, ledger_highest)
        assert _clock_row(theirs, tournament_id) == _clock_row(ours, tournament_id)
        theirs.execute("SELECT count(*) FROM tourney_entry WHERE place IS NOT NULL")
        assert theirs.fetchone()[0] == 3
        theirs.execute(f"SELECT count(*) FROM tourney_auditentry WHERE NOT ({RESTORED})")
        assert theirs.fetchone()[0] == 1  # and the restore is in its audit log

        # The restored copy starts and serves the tournament.
        server = UvicornProcess(DATABASE_URL=fresh.url)
        try:
            server.wait_serving()
            request = urllib.request.Request(
                f"{server.base}/api/v1/tournaments/{tournament_id}",
                headers={"Authorization": f"Bearer {raw_token}"},
            )
            with urllib.request.urlopen(request, timeout=10) as answer:
                body = answer.read().decode()
            assert '"status":"running"' in body.replace(" ", "")
        finally:
            server.stop()
    finally:
        fresh.drop()


def test_backup_command_prints_the_path_and_restore_refuses_what_is_no_backup(tmp_path):
    made = manage("backup", "--to", str(tmp_path), url=database_url_for_tests(), backups=tmp_path)
    assert made.returncode == 0, made.stderr
    path = Path(made.stdout.strip())
    assert path.parent == tmp_path and path.is_file()
    assert not list(tmp_path.glob("*.part"))
    garbage = tmp_path / "notes.sqlite3"
    garbage.write_text("not a database")
    refused = manage(
        "restore", str(garbage), "--noinput", url=database_url_for_tests(), backups=tmp_path
    )
    assert refused.returncode != 0 and "not" in refused.stderr


def test_a_backup_of_the_other_engine_is_refused_and_nothing_changes(director, tmp_path):
    other = tmp_path / "other.bin"
    if connection.vendor == "sqlite":
        other.write_bytes(b"PGDMP" + b"\0" * 100)
    else:
        other.write_bytes(b"SQLite format 3\x00" + b"\0" * 100)
    summary = database_summary()
    with pytest.raises(BackupError, match="export"):
        backup_restore(other)
    assert database_summary() == summary


def test_a_restore_backs_up_the_database_it_replaces_first(director, tournament, tmp_path):
    """In place, as an operator restores: the present database is kept as before-restore-*,
    so restoring the wrong file can itself be undone."""
    backup = backup_make(to=tmp_path)
    entry_register(
        actor=director,
        tournament_id=tournament.pk,
        player_id=player_create(actor=director, name="Utolsó Ernő").pk,
    )
    url = database_url_for_tests()
    connection.close()
    restored = manage("restore", str(backup), "--noinput", url=url, backups=tmp_path)
    assert restored.returncode == 0, restored.stderr
    assert not Entry.objects.filter(player__name="Utolsó Ernő").exists()
    safety = restored.stderr.strip().rsplit(" ", 1)[-1]
    assert Path(safety).name.startswith("before-restore-")
    back = manage("restore", safety, "--noinput", url=url, backups=tmp_path)
    assert back.returncode == 0, back.stderr
    assert Entry.objects.filter(player__name="Utolsó Ernő").exists()
    assert Entry.objects.filter(tournament=tournament).count() == 1


def test_the_timers_backup_is_automatic_and_rotates_the_folder(tmp_path):
    """`manage.py backup --auto` (deploy/systemd/tourney-backup.service): 40 automatic backups
    of one day before it, 24 are kept plus the new one; a backup taken by hand stays."""
    from tourney.domain.backups import KEEP_RECENT, backup_name

    extension = "sqlite3" if connection.vendor == "sqlite" else "pgdump"
    # Noon (UTC) of the day before: 40 minutes that never cross a midnight, whose day the rule
    # also keeps one of (CI ran at 23:59 once and found a second day's backup kept).
    yesterday = (int(time.time()) // 86_400 - 1) * 86_400 + 12 * 3_600
    old = [backup_name("auto", yesterday + 60 * i, extension) for i in range(40)]
    by_hand = backup_name("tourney", 1_700_000_000, extension)
    for name in [*old, by_hand]:
        (tmp_path / name).write_bytes(b"")
    made = manage(
        "backup", "--auto", "--to", str(tmp_path), url=database_url_for_tests(), backups=tmp_path
    )
    assert made.returncode == 0, made.stderr
    new = Path(made.stdout.strip())
    assert new.name.startswith("auto-")
    left = {p.name for p in tmp_path.iterdir()}
    assert new.name in left and by_hand in left
    assert len(left) == KEEP_RECENT + 1  # the 23 newest old ones, the new one, by hand
