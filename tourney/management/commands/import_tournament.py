"""`manage.py import_tournament FILE`: a finished tournament's record, exported by another
Tourney (the backups page's "Record (JSON)"), written into this one (docs/backups.md)."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from infra.web.schema_types import json_loads
from tourney.backups.usecases import RecordError, tournament_record_import


class Command(BaseCommand):
    help = "Import a tournament's record (JSON) exported by another Tourney installation."

    def add_arguments(self, parser):
        parser.add_argument("path", type=Path)

    def handle(self, *args, path: Path, **options):
        try:
            document = json_loads(path.read_text(encoding="utf-8"))
            tournament = tournament_record_import(actor=None, document=document)
        except (OSError, ValueError, RecursionError, RecordError) as exc:
            raise CommandError(f"{path}: {exc}") from exc
        self.stdout.write(json.dumps({"id": tournament.pk, "name": tournament.name}))
