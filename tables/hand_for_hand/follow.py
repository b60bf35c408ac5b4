"""What follows for hand-for-hand inside another feature's use case (the tournament locked):
a hand report ends a hand-for-hand hand, a final table formed ends hand-for-hand; the clock
is paused or resumed with it."""

from clocks.clock.operations import clock_change
from clocks.clock.selectors import clock_view
from tables.hand_for_hand.operations import (
    hand_for_hand_end_at_final_table,
    hand_for_hand_final_table_announce,
    hand_for_hand_hand_announce,
    hand_for_hand_table_done,
)
from tables.models import FloorAction, TournamentTable
from tourney.core.errors import Conflict
from tourney.models import Tournament
from tourney.tournaments.selectors import tournament_rules


def hand_for_hand_follow_hand(actor, tournament: Tournament, table: TournamentTable) -> None:
    """Inside a hand report: the table finished the hand-for-hand hand; when it was the last
    one, the hand's time comes off the clock."""
    finished = hand_for_hand_table_done(tournament, table)
    if finished is None:
        return
    seconds = tournament_rules(tournament).h4h_seconds_per_hand
    if seconds:
        left = clock_view(tournament)["remaining_ms"] // 1000
        if min(seconds, left) > 0:
            hand_for_hand_clock(actor, tournament, "adjust", -min(seconds, left))
    hand_for_hand_hand_announce(actor, tournament, finished)


def hand_for_hand_follow_floor(actor, tournament: Tournament, actions: list[FloorAction]) -> None:
    """After the floor's replan: a plan that formed the final table ends hand-for-hand, and
    the clock resumes."""
    if not tournament.hand_for_hand or not any(
        a.kind == FloorAction.Kind.FINAL_TABLE_REDRAW for a in actions
    ):
        return
    if hand_for_hand_end_at_final_table(tournament):
        hand_for_hand_clock(actor, tournament, "resume")
        hand_for_hand_final_table_announce(actor, tournament)


def hand_for_hand_clock(
    actor, tournament: Tournament, operation: str, seconds: int | None = None
) -> None:
    """A clock change as part of hand-for-hand; a clock that cannot (finished, not running)
    is left as it is."""
    try:
        clock_change(actor, tournament, operation, seconds)
    except Conflict:
        return
