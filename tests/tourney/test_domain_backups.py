"""Backups' names, when the embedded default makes one and which it keeps
(tourney/domain/backups.py, docs/backups.md): worked examples and properties, and the
automatic backups of a played tournament with time passed, not slept."""

import sqlite3

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.clock.usecases import clock_operate
from tourney.backups.tasks import AutoBackups
from tourney.domain.backups import (
    AUTO_EVERY_S,
    KEEP_DAYS,
    KEEP_RECENT,
    auto_backup_due,
    backup_name,
    backup_parse,
    backups_to_remove,
    newest,
)

DAY = 86_400
EVENING = 1_796_590_800  # 2026-12-06 21:00 UTC


def test_a_name_says_its_kind_instant_and_engine():
    name = backup_name("auto", EVENING, "sqlite3")
    assert name == "auto-20261206-210000.sqlite3"
    parsed = backup_parse(name)
    assert (parsed.kind, parsed.made_at_s, parsed.extension) == ("auto", EVENING, "sqlite3")
    assert backup_parse("tourney.sqlite3") is None
    assert backup_parse("auto-20261399-250000.sqlite3") is None  # digits, no date
    assert backup_parse(name + ".part") is None  # a copy still being written is no backup


@pytest.mark.parametrize(
    ("now", "last", "playing", "changed", "due"),
    [
        (EVENING, None, True, False, True),  # the first of the evening
        (EVENING, None, False, False, False),  # nothing played: nothing to keep
        (EVENING + 120, EVENING, True, True, True),  # a level changed
        (EVENING + 30, EVENING, True, True, False),  # turbo levels: a minute apart at least
        (EVENING + 14 * 60, EVENING, True, False, False),
        (EVENING + 15 * 60, EVENING, True, False, True),  # every 15 minutes
    ],
)
def test_when_an_automatic_backup_is_due(now, last, playing, changed, due):
    assert auto_backup_due(now, last, playing, changed) is due


def test_rotation_keeps_the_newest_and_one_a_day():
    # Four backups an hour for three days, one manual backup, one other file.
    autos = [backup_name("auto", EVENING - i * 900, "sqlite3") for i in range(3 * 96)]
    manual = backup_name("tourney", EVENING - 5 * DAY, "sqlite3")
    gone = set(backups_to_remove([*autos, manual, "notes.txt"]))
    kept = [n for n in autos if n not in gone]
    assert manual not in gone and "notes.txt" not in gone
    assert autos[:KEEP_RECENT] == kept[:KEEP_RECENT]
    assert len(kept) == KEEP_RECENT + 3  # and the newest of each of the three days before


stamps = st.lists(st.integers(EVENING - 90 * DAY, EVENING), min_size=0, max_size=80, unique=True)


@given(stamps, st.integers(1, 30), st.integers(0, 40))
def test_rotation_never_removes_the_newest_nor_other_kinds(times, keep_recent, keep_days):
    names = [backup_name("auto", t, "pgdump") for t in times]
    others = [backup_name("tourney", t, "pgdump") for t in times[:3]]
    gone = backups_to_remove([*names, *others], keep_recent, keep_days)
    assert not set(gone) & set(others)
    if names:
        assert newest(names).name not in gone
    assert len(names) - len(gone) <= keep_recent + keep_days
    assert len(names) - len(gone) >= min(len(names), keep_recent)


@given(stamps)
def test_rotation_is_stable(times):
    """Rotating what a rotation kept removes nothing more (a restart rotates again)."""
    names = [backup_name("auto", t, "sqlite3") for t in times]
    kept = [n for n in names if n not in backups_to_remove(names)]
    assert backups_to_remove(kept) == []


@pytest.mark.django_db(transaction=True)
def test_a_played_tournament_is_backed_up_at_each_level_and_every_15_minutes(
    director, seated_tournament, tmp_path
):
    from django.db import connection

    if connection.vendor != "sqlite":
        pytest.skip("the automatic backups are the embedded default's (SQLite)")
    backups = AutoBackups(tmp_path)
    assert backups.tick(EVENING) is None  # not started: nothing played
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    first = backups.tick(EVENING + 10)
    assert first is not None and first.name == "auto-20261206-210010.sqlite3"
    assert backups.tick(EVENING + 200) is None  # same level, not 15 minutes yet
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="next")
    assert backups.tick(EVENING + 210) is not None  # the level changed
    assert backups.tick(EVENING + 210 + AUTO_EVERY_S) is not None
    db = sqlite3.connect(first)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("SELECT status FROM clocks_clock").fetchone()[0] == "running"
    db.close()
    # A restarted server knows when it last backed up.
    assert AutoBackups(tmp_path).last_at_s == EVENING + 210 + AUTO_EVERY_S
    assert len(list(tmp_path.iterdir())) == 3 and KEEP_DAYS > 0
