"""Build the director's manual (docs/, mkdocs.yml) into TOURNEY_MANUAL_DIR, served at /manual/."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from django.conf import settings
from django.core.management.base import BaseCommand


def manual_sources() -> list[Path]:
    base = Path(settings.BASE_DIR)
    return [base / "mkdocs.yml", *(p for p in (base / "docs").rglob("*") if p.is_file())]


def manual_is_stale(target: Path) -> bool:
    """True when the built manual is missing or older than a file of docs/ or mkdocs.yml."""
    index = target / "index.html"
    if not index.exists():
        return True
    built = index.stat().st_mtime
    return any(p.stat().st_mtime > built for p in manual_sources())


def build_manual(target: Path, strict: bool = True) -> Path:
    """mkdocs build into a folder beside `target`, then swapped in whole: a server reading the
    old manual, or a second build at the same time, never sees a half-written one."""
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    target = Path(target).resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    fresh = Path(tempfile.mkdtemp(prefix=".manual-", dir=target.parent))
    config = load_config(
        str(Path(settings.BASE_DIR) / "mkdocs.yml"), site_dir=str(fresh), strict=strict
    )
    build(config)
    old = Path(tempfile.mkdtemp(prefix=".manual-old-", dir=target.parent))
    if target.exists():
        os.replace(target, old / "site")
    os.replace(fresh, target)
    shutil.rmtree(old, ignore_errors=True)
    return target


class Command(BaseCommand):
    help = "Build the manual (docs/) into TOURNEY_MANUAL_DIR; the server shows it at /manual/."

    def add_arguments(self, parser):
        parser.add_argument("--to", help="folder to build into (default TOURNEY_MANUAL_DIR)")
        parser.add_argument(
            "--if-stale", action="store_true", help="only when docs/ changed since the last build"
        )

    def handle(self, *args, to: str | None, if_stale: bool, **options):
        target = Path(to) if to else Path(settings.TOURNEY_MANUAL_DIR)
        if if_stale and not manual_is_stale(target):
            self.stdout.write(f"The manual in {target} is up to date.")
            return
        build_manual(target)
        self.stdout.write(f"The manual is built in {target} (served at /manual/).")
