"""Bust-outs (docs/rules.md §11): the use cases. A bust-out, its undo and the absent-player
deadline's eliminations each run the one way through (docs/architecture.md): the eliminations'
operations (`tourney.eliminations.operations`), then what follows, in order: the busted
players' pending moves are void, a winner stops the clock, the waiting list takes the freed
seats, the floor replans (`floor_replan`), and a plan that formed the final table ends
hand-for-hand, which resumes the clock.
"""

import random
from collections.abc import Callable, Mapping, Sequence

from django.db import transaction

from tourney.core.locks import tournament_lock
from tourney.eliminations.follow import elimination_undo_locked, eliminations_record_locked


def eliminations_record(
    *,
    actor,
    tournament_id: int,
    eliminations: Sequence[tuple[int, int | None]],
    rng: random.Random | None = None,
    authorize: Callable[[], None] | None = None,
    busted_by: Mapping[int, Sequence[int]] | None = None,
) -> dict:
    """Players busted in the same hand, as (entry_id, stack at the start of the hand or None).

    Sets their places, then the moves, breaks or final-table redraw the field now needs.
    Refused (nothing changed) for a player already out, one not seated, a duplicate, stacks
    given for some but not all, or busting every remaining player. `authorize` runs once the
    tournament is locked (where the players sit cannot change under it) and raises to refuse.
    `busted_by`: a bounty tournament's pot winners of each bust-out (docs/rules.md §16.2).
    """
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        if authorize is not None:
            authorize()
        return eliminations_record_locked(
            actor=actor,
            tournament=tournament,
            eliminations=eliminations,
            rng=rng,
            busted_by=busted_by,
        )


def elimination_undo(
    *,
    actor,
    tournament_id: int,
    entry_id: int,
    rng: random.Random | None = None,
    allow_disqualified: bool = False,
) -> dict:
    """Undo a bust-out: the player is back in play (own seat if still free), the places of the
    rest of the hand and of every later bust move up by one, and the moves or breaks it caused
    that the floor has not carried out yet are taken back.

    A disqualification is taken back only through its penalty (`allow_disqualified`, which
    also returns the chips and lifts the ban); a bust-out before a standing deal is refused (the
    deal shared the pool among the players then left)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        return elimination_undo_locked(
            actor=actor,
            tournament=tournament,
            entry_id=entry_id,
            rng=rng,
            allow_disqualified=allow_disqualified,
        )
