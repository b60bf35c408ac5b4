"""`manage.py backup [--to DIR] [--auto]`: a consistent copy of the database while Tourney runs;
prints its path on standard output (docs/backups.md). `--auto` (the systemd timer's) makes an
automatic backup and rotates the folder's automatic backups."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tourney.backups.operations import BackupError, backup_make, backups_rotate


class Command(BaseCommand):
    help = "Back up the database (SQLite or PostgreSQL) while Tourney runs; print the file's path."

    def add_arguments(self, parser):
        parser.add_argument(
            "--to", type=Path, default=None, help="folder (default: TOURNEY_BACKUP_DIR)"
        )
        parser.add_argument(
            "--auto",
            action="store_true",
            help="an automatic backup; older automatic ones are rotated out (a timer's)",
        )

    def handle(self, *args, to: Path | None, auto: bool, **options):
        try:
            path = backup_make("auto" if auto else "tourney", to=to)
            if auto:
                backups_rotate(path.parent)
        except (BackupError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(str(path))
