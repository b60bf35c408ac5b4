"""The embedded default's automatic backups (docs/backups.md): while a tournament is played,
a backup at every level change and every 15 minutes, in a thread of the server's own (a backup
never holds up the clock loop), the older ones rotated out."""

import logging
import threading
import time
from pathlib import Path

from django.db import close_old_connections

from tourney.backups.operations import backup_make, backups_rotate
from tourney.backups.selectors import backup_dir, backups_listed
from tourney.domain.backups import auto_backup_due, newest

logger = logging.getLogger(__name__)

CHECK_EVERY_S = 5.0


class AutoBackups:
    """What the loop remembers between looks: when it last backed up and the levels then."""

    def __init__(self, directory: Path | None = None) -> None:
        self.directory = Path(directory) if directory is not None else backup_dir()
        last = newest([n for n in backups_listed(self.directory) if n.startswith("auto-")])
        self.last_at_s: int | None = last.made_at_s if last else None
        self.levels: tuple | None = None

    @staticmethod
    def levels_played() -> tuple:
        """(tournament, period) of every clock being played (past the structure's end too): a
        change is a level change."""
        from clocks.models import Clock

        played = ("running", "paused", "overtime")
        rows = Clock.objects.filter(status__in=played).order_by("tournament_id")
        return tuple(rows.values_list("tournament_id", "period_index"))

    def tick(self, now_s: int) -> Path | None:
        """Back up if one is due now; returns the new backup's path."""
        levels = self.levels_played()
        changed = self.levels is not None and levels != self.levels
        if not auto_backup_due(now_s, self.last_at_s, bool(levels), changed):
            self.levels = levels if self.levels is None else self.levels
            return None
        path = backup_make("auto", to=self.directory, now_s=now_s)
        self.last_at_s, self.levels = now_s, levels
        backups_rotate(self.directory)
        logger.info("automatic backup %s", path)
        return path


def run_backup_loop(stop: threading.Event, directory: Path | None = None) -> None:
    backups = AutoBackups(directory)
    while not stop.wait(CHECK_EVERY_S):
        try:
            backups.tick(int(time.time()))
        except Exception:  # a full disk must not stop the server; the next look retries
            logger.exception("automatic backup failed")
        finally:
            close_old_connections()


def start_backup_thread(directory: Path | None = None) -> threading.Event:
    """Start the loop in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(
        target=run_backup_loop, args=(stop, directory), name="tourney-backups", daemon=True
    ).start()
    return stop
