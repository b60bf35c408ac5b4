"""makemessages that also collects audit summaries (`audit_text("...")`) and the domain's
messages marked `N_("...")` (pure modules cannot import Django's gettext).

References name the file only (`#: tables/seating/api.py`), never the line, and the
catalogues carry no creation date: a change that moves code does not rewrite every catalogue,
and two branches that add strings merge without conflicts.
"""

import re
from pathlib import Path

from django.conf import settings
from django.core.management.commands import makemessages

CREATION_DATE = re.compile(r'^"POT-Creation-Date: [^"]*"\n', re.MULTILINE)


class Command(makemessages.Command):
    xgettext_options = [
        *makemessages.Command.xgettext_options,
        "--keyword=audit_text",
        "--keyword=N_",
    ]

    def handle(self, *args, **options):
        if not options.get("add_location"):
            options["add_location"] = "file"
        super().handle(*args, **options)
        for catalogue in self.catalogues():
            text = catalogue.read_text(encoding="utf-8")
            catalogue.write_text(CREATION_DATE.sub("", text, count=1), encoding="utf-8")

    @staticmethod
    def catalogues() -> list[Path]:
        return [p for root in settings.LOCALE_PATHS for p in Path(root).glob("*/LC_MESSAGES/*.po")]
