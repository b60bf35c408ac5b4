"""A backup taken from the backups page, audited (docs/backups.md)."""

from pathlib import Path

from django.db import transaction

from tourney.audit.log import audit_record, audit_text
from tourney.backups.copies import backup_make


def backup_take(*, actor) -> Path:
    """Back up the database now (the copy first: it holds the database as it is, not the audit
    entry that says it was taken) and audit who did it."""
    path = backup_make("tourney")
    with transaction.atomic(durable=True):
        audit_record(
            actor=actor,
            action="backup.make",
            summary=audit_text("Database backed up: %(name)s", {"name": path.name}),
            after={"file": path.name, "bytes": path.stat().st_size},
        )
    return path


def players_export(*, actor) -> list[tuple]:
    """Every player's row with contact details, for the director's CSV; the export is audited
    (contact details leave the system)."""
    from tourney.backups.selectors import players_export_rows

    with transaction.atomic(durable=True):
        rows = players_export_rows()
        audit_record(
            actor=actor,
            action="players.export",
            summary=audit_text(
                "Players exported with their contact details (%(n)s)", {"n": len(rows)}
            ),
            after={"players": len(rows)},
        )
    return rows


def backup_restored(*, actor, path: Path, safety: Path | None) -> None:
    """Write in the restored database that it was restored, from which file, and where the
    database it replaced was kept (the audit log is restored with the rest)."""
    with transaction.atomic(durable=True):
        audit_record(
            actor=actor,
            action="backup.restore",
            summary=audit_text("Database restored from %(name)s", {"name": path.name}),
            after={"file": str(path), "replaced_kept_in": str(safety) if safety else None},
        )
