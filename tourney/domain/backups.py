"""Backups: their names, when the embedded default makes one, and which it keeps
(docs/backups.md).

A backup is one file named `<kind>-YYYYMMDD-HHMMSS.<ext>` in UTC: `kind` is `tourney` for one
made on demand (`manage.py backup`), `auto` for one the server makes itself and `before-restore`
for the copy `manage.py restore` takes of the database it replaces. Only `auto` backups are
ever deleted, by `backups_to_remove`.

Units: instants are Unix epoch seconds (int) in UTC; nothing here reads the clock.
"""

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

KINDS = ("tourney", "auto", "before-restore")
EXTENSIONS = ("sqlite3", "pgdump")
# While a tournament is played: a backup at least this often, and at every level change.
AUTO_EVERY_S = 15 * 60
# Not two automatic backups closer than this, however often the levels change (turbo levels).
AUTO_MIN_GAP_S = 60
# Automatic backups kept: the newest ones, and the newest of each of the last days.
KEEP_RECENT = 24
KEEP_DAYS = 30

_NAME = re.compile(
    r"^(?P<kind>tourney|auto|before-restore)-(?P<stamp>\d{8}-\d{6})\.(?P<ext>sqlite3|pgdump)$"
)


@dataclass(frozen=True)
class BackupName:
    """A backup file's name, read: its kind, the instant it was made (epoch s) and engine."""

    name: str
    kind: str
    made_at_s: int
    extension: str


def backup_name(kind: str, made_at_s: int, extension: str) -> str:
    """The file name of a backup of `kind` made at `made_at_s` (epoch s, UTC)."""
    if kind not in KINDS or extension not in EXTENSIONS:
        raise ValueError(f"no backup of kind {kind!r} and extension {extension!r}")
    stamp = datetime.fromtimestamp(made_at_s, UTC).strftime("%Y%m%d-%H%M%S")
    return f"{kind}-{stamp}.{extension}"


def backup_parse(name: str) -> BackupName | None:
    """`name` read as a backup's file name, None when it is not one (any other file)."""
    match = _NAME.match(name)
    if match is None:
        return None
    try:
        made = datetime.strptime(match["stamp"], "%Y%m%d-%H%M%S").replace(tzinfo=UTC)
    except ValueError:  # 20261399-...: digits, but no date
        return None
    return BackupName(name, match["kind"], int(made.timestamp()), match["ext"])


def auto_backup_due(now_s: int, last_at_s: int | None, playing: bool, levels_changed: bool) -> bool:
    """Whether the server makes an automatic backup now: only while a tournament is played
    (`playing`: a clock running or paused), at every level change (`levels_changed` since the
    last backup) and every AUTO_EVERY_S, never two within AUTO_MIN_GAP_S."""
    if not playing:
        return False
    if last_at_s is None:
        return True
    since = now_s - last_at_s
    if since < AUTO_MIN_GAP_S:
        return False
    return levels_changed or since >= AUTO_EVERY_S


def backups_to_remove(
    names: Iterable[str], keep_recent: int = KEEP_RECENT, keep_days: int = KEEP_DAYS
) -> list[str]:
    """The automatic backups to delete: all but the `keep_recent` newest and the newest of
    each of the `keep_days` newest days (UTC) that have one. Backups of other kinds and files
    that are not backups are never listed. Invariant: the newest automatic backup is kept."""
    autos = sorted(
        (b for b in map(backup_parse, names) if b is not None and b.kind == "auto"),
        key=lambda b: (b.made_at_s, b.name),
        reverse=True,
    )
    keep = {b.name for b in autos[:keep_recent]}
    days: dict[str, str] = {}
    for b in autos:
        day = datetime.fromtimestamp(b.made_at_s, UTC).strftime("%Y-%m-%d")
        if day not in days and len(days) < keep_days:
            days[day] = b.name
    keep |= set(days.values())
    return [b.name for b in autos if b.name not in keep]


def newest(names: Sequence[str]) -> BackupName | None:
    """The most recent backup of any kind among `names`, None when there is none."""
    found = [b for b in map(backup_parse, names) if b is not None]
    return max(found, key=lambda b: (b.made_at_s, b.name), default=None)
