"""What the pages show of the backups: the folder's backups, newest first, and the last one
(docs/backups.md)."""

from datetime import UTC, datetime
from pathlib import Path

from django.conf import settings

from tourney.domain.backups import AUTO_EVERY_S, backup_parse, newest

# The console warns when a played tournament's last backup is older than this.
STALE_AFTER_S = 2 * AUTO_EVERY_S


def backup_dir() -> Path:
    return Path(settings.TOURNEY_BACKUP_DIR)


def backups_listed(directory: Path | None = None) -> list[str]:
    """The backup files in `directory` (default: the backup folder), any kind."""
    directory = Path(directory) if directory is not None else backup_dir()
    if not directory.is_dir():
        return []
    return [p.name for p in directory.iterdir() if backup_parse(p.name) is not None]


def backups_list() -> list[dict]:
    """Every backup in the folder: name, kind, when it was made and its size, newest first."""
    directory = backup_dir()
    rows = []
    for name in backups_listed(directory):
        parsed = backup_parse(name)
        try:
            size = (directory / name).stat().st_size
        except OSError:  # rotated away meanwhile
            continue
        made = datetime.fromtimestamp(parsed.made_at_s, UTC)
        rows.append({"name": name, "kind": parsed.kind, "made_at": made, "bytes": size})
    return sorted(rows, key=lambda r: (r["made_at"], r["name"]), reverse=True)


def backup_last(now_s: int) -> dict:
    """The newest backup (`at`, `minutes` ago) and whether it is `stale`: older than
    STALE_AFTER_S, or none at all."""
    last = newest(backups_listed())
    if last is None:
        return {"at": None, "minutes": None, "stale": True, "folder": str(backup_dir())}
    age = max(0, now_s - last.made_at_s)
    return {
        "at": datetime.fromtimestamp(last.made_at_s, UTC),
        "minutes": age // 60,
        "stale": age > STALE_AFTER_S,
        "folder": str(backup_dir()),
    }


PLAYER_COLUMNS = ("id", "name", "nickname", "phone", "email", "entries", "last_played", "since")


def players_export_rows() -> list[tuple]:
    """Every player (merged duplicates aside) with contact details and how often and when he
    last played, in the reader's language's order of names."""
    from django.db.models import Count, Max

    from infra.text.collation import sorted_by_name
    from tourney.models import Player

    players = (
        Player.objects.filter(merged_into__isnull=True)
        .annotate(played=Count("entries"), last=Max("entries__created_at"))
        .values_list("pk", "name", "nickname", "phone", "email", "played", "last", "created_at")
    )
    rows = [
        (pk, name, nick, phone, email, played, last.date().isoformat() if last else "", since)
        for pk, name, nick, phone, email, played, last, since in players
    ]
    return [
        (*row[:7], row[7].date().isoformat()) for row in sorted_by_name(rows, key=lambda r: r[1])
    ]
