"""Hand-for-hand (docs/rules.md §11.5): the use case, and the consequences other use cases
follow when a hand-for-hand hand ends or the final table forms. Here, and only here, the
hand-for-hand operations meet the clock's."""

from django.db import transaction
from django.utils.translation import gettext_noop

from tables.hand_for_hand.follow import hand_for_hand_clock
from tables.hand_for_hand.operations import (
    hand_for_hand_announce,
    hand_for_hand_switch,
)
from tourney.audit.log import audit_text
from tourney.core.locks import tournament_lock


def hand_for_hand_set(*, actor, tournament_id: int, active: bool) -> dict:
    """Start (`active`) or end hand-for-hand. Starting pauses the clock and opens hand 1;
    ending resumes a paused clock."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        hand_for_hand_switch(tournament, active)
        hand_for_hand_clock(actor, tournament, "pause" if active else "resume")
        return hand_for_hand_announce(
            actor,
            tournament,
            audit_text(
                gettext_noop("Hand-for-hand started")
                if active
                else gettext_noop("Hand-for-hand ended")
            ),
            "start" if active else "stop",
        )
