"""What the pages show of the backups: the folder's backups, newest first, and the last one
(docs/backups.md)."""

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.db import models

from tourney.domain.backups import AUTO_EVERY_S, backup_parse, newest
from tourney.models import Player, Tournament

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


def record_label(model) -> str:
    return model._meta.label_lower


def _rows(tournament: Tournament) -> dict[str, list]:
    """Every row of the record, by model label."""
    model = apps.get_model
    t = tournament
    tables = model("tables.TournamentTable").objects.filter(tournament=t)
    entries = model("tourney.Entry").objects.filter(tournament=t)
    players = Player.objects.filter(
        models.Q(entries__tournament=t) | models.Q(penalties__tournament=t)
    ).distinct()
    return {
        "tables.room": [t.room],
        "tables.table": list(
            model("tables.Table").objects.filter(pk__in=tables.values("table_id")).order_by("pk")
        ),
        "clocks.structure": [t.structure],
        "clocks.structurelevel": list(t.structure.levels.all()),
        "tourney.payoutstructure": [t.payout_structure] if t.payout_structure_id else [],
        "tourney.player": list(players),
        "tourney.tournament": [t],
        "clocks.clock": list(model("clocks.Clock").objects.filter(tournament=t)),
        "tables.tournamenttable": list(tables),
        "tourney.entry": list(entries),
        "tables.handreport": list(
            model("tables.HandReport").objects.filter(tournament_table__in=tables)
        ),
        **{
            label: list(model(label).objects.filter(tournament=t).order_by("pk"))
            for label in BY_TOURNAMENT
        },
    }


def tournament_record(tournament: Tournament, now: datetime) -> dict[str, Any]:
    """The whole record of `tournament` as a JSON-ready dict."""
    rows = _rows(tournament)
    objects = []
    for label in ORDER:
        objects += json.loads(serializers.serialize("json", rows.get(label, [])))
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": now.astimezone(UTC).isoformat(),
        "tournament": {"id": tournament.pk, "name": tournament.name},
        "objects": objects,
    }


FORMAT = "tourney-tournament-record"


VERSION = 1


# Insert order: everything a row refers to comes before it.
ORDER = [
    "tables.room",
    "tables.table",
    "clocks.structure",
    "clocks.structurelevel",
    "tourney.payoutstructure",
    "tourney.player",
    "tourney.tournament",
    "clocks.clock",
    "tables.tournamenttable",
    "tourney.entry",
    "tourney.elimination",
    "tourney.chippurchase",
    "tourney.ledgerentry",
    "tourney.deal",
    "tourney.penalty",
    "tables.handreport",
    "tables.flooraction",
    "tables.clockcall",
    "clocks.colorup",
    "tourney.auditentry",
]


# The rows that name their tournament themselves (a hand report names its table), in order.
BY_TOURNAMENT = [
    label for label in ORDER[ORDER.index("tourney.elimination") :] if label != "tables.handreport"
]
