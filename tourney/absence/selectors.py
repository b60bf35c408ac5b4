"""Absent players' reads (docs/rules.md §2.3): the level his wait runs from, when he is out,
and whether the console asks the floor who is away before the money."""

from clocks.clock.selectors import clock_view, now_ms, structure_periods
from clocks.domain.structures import level_played
from tourney.core.errors import Conflict
from tourney.models import Entry, Tournament
from tourney.payouts.selectors import payout_amounts
from tourney.tournaments.selectors import tournament_rules

# [INF] A level under a minute old counts as not begun: the floor marks a no-show as play
# starts, and he waits that level out (Rimóc: 15 minutes), not the next one too.
GRACE_MS = 60_000


def level_begun(tournament: Tournament) -> int:
    """The last level before his wait: the level being played (a break counts as the level
    before it), or the one before it when under a minute of it is played (`GRACE_MS`); 0
    before the start. He is out at the end of this level + `absent_eliminate_after_levels`
    (docs/rules.md §2.3)."""
    clock = clock_view(tournament, now_ms())
    if clock["status"] == "pending":
        return 0
    periods = structure_periods(tournament.structure_id)
    index = min(clock["period_index"], len(periods) - 1)
    level = level_played(periods, index)
    period = periods[index]
    played_ms = period.duration_seconds * 1000 - clock["remaining_ms"]
    fresh = period.kind == "level" and played_ms < GRACE_MS and clock["status"] != "overtime"
    return level - 1 if fresh else level


def out_after_level(tournament: Tournament, entry: Entry) -> int | None:
    """With absent_policy "eliminate": the level at whose end he is out if still away."""
    rules = tournament_rules(tournament)
    if rules.absent_policy != "eliminate" or entry.absent_since is None:
        return None
    return (entry.absent_level or 0) + rules.absent_eliminate_after_levels


def places_paid(tournament: Tournament) -> int:
    """How many places the payout table pays now (0 when none fits the field)."""
    try:
        return len(payout_amounts(tournament))
    except Conflict:
        return 0


def bubble_check(tournament: Tournament) -> bool:
    """The console asks the floor who is away: with `absent_itm_forfeit`, on the bubble (one
    bust-out from the money)."""
    if not tournament_rules(tournament).absent_itm_forfeit:
        return False
    remaining = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    paid = places_paid(tournament)
    return paid > 0 and remaining == paid + 1
