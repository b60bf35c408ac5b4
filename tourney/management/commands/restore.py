"""`manage.py restore PATH`: bring the database back to a backup, then migrate it to this
version's schema (docs/backups.md). The database it replaces is backed up first."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from tourney.backups.operations import BackupError, backup_restore, database_summary
from tourney.backups.usecases import backup_restored


class Command(BaseCommand):
    help = "Restore the database from a backup made by `manage.py backup` (or automatically)."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)
        parser.add_argument(
            "--noinput", "--no-input", action="store_true", help="do not ask for confirmation"
        )

    def handle(self, *args, path: Path, noinput: bool, **options):
        database = connection.settings_dict["NAME"]
        if not noinput:
            answer = input(
                f"This replaces the database {database} with {path} (the present one is backed "
                "up first). Stop Tourney's server and workers before. Type 'yes' to go on: "
            )
            if answer.strip().lower() != "yes":
                raise CommandError("Nothing was restored.")
        try:
            safety = backup_restore(path)
        except (BackupError, OSError) as exc:
            raise CommandError(str(exc)) from exc
        backup_restored(actor=None, path=path, safety=safety)
        if safety is not None:
            self.stderr.write(f"The database it replaced is backed up in {safety}")
        summary = ", ".join(f"{key} {value}" for key, value in database_summary().items())
        self.stdout.write(f"Restored {path} into {database}: {summary}")
