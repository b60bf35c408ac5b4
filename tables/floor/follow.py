"""The replan every use case that changes the field follows it with (docs/rules.md §5-§7),
apart from the floor's own use cases (`tables.floor.usecases`), so that the registration's
use case can call it while the floor's confirmation seats the waiting list."""

import random

from tables.floor.operations import floor_replan
from tables.floor.selectors import FieldShape
from tables.hand_for_hand.follow import hand_for_hand_follow_floor
from tables.models import FloorAction
from tourney.models import Elimination, Tournament


def floor_follow(
    *,
    actor,
    tournament: Tournament,
    cause: Elimination | None = None,
    rng: random.Random | None = None,
    shape: FieldShape | None = None,
) -> list[FloorAction]:
    """Inside a use case (tournament locked), after the field changed: the floor's replan
    (`floor_replan`), then what follows from it in another sub-domain: a plan that formed the
    final table ends hand-for-hand and resumes the clock. Returns the new actions."""
    actions = floor_replan(actor=actor, tournament=tournament, cause=cause, rng=rng, shape=shape)
    if actions:
        hand_for_hand_follow_floor(actor, tournament, actions)
    return actions
