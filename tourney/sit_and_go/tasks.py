"""The sit-and-gos' part of the clock timers' tick (clocks/tasks.py, the embedded loop): a
full event whose countdown was never started starts it; one whose countdown is over
starts (docs/rules.md §19). A missed tick only makes a start late, never lost."""

import logging

from django.utils import timezone

from clocks.clock.usecases import tournament_start
from tourney.core.errors import TourneyError
from tourney.sit_and_go.selectors import due_to_start, full_not_counting
from tourney.sit_and_go.usecases import sng_filled, sng_start_due

logger = logging.getLogger(__name__)


def sng_tick(now=None) -> int:
    """How many sit-and-gos it started."""
    now = now or timezone.now()
    for tournament_id in full_not_counting(now):
        sng_filled(actor=None, tournament_id=tournament_id)
    started = 0
    for tournament_id in due_to_start(now):
        if not sng_start_due(tournament_id=tournament_id):
            continue
        try:
            tournament_start(actor=None, tournament_id=tournament_id)
            started += 1
        except TourneyError:  # started by the director meanwhile: nothing left to do
            logger.info("sit-and-go %s was not started by the tick", tournament_id)
    return started
