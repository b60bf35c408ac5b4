"""The cancelling panel of the console and the desk (docs/rules.md §18): before, the
director's form; after, the reason and the settlement line by line, each paid back at the
cage; the undo while nobody has been paid."""

from tourney.cancelling.selectors import cancellation_out, standing_cancellation
from tourney.core import roles
from tourney.models import Tournament
from tourney.models.cancellations import Settlement
from tourney.tournaments.selectors import tournament_rules


def cancel_panel(request, tournament: Tournament) -> dict:
    """What `_cancelled.html` and `_cancel_form.html` (templates/tourney/cancelling/) show to
    this reader."""
    cancelled = tournament.status == Tournament.Status.CANCELLED
    cancellation = (
        cancellation_out(tournament, standing_cancellation(tournament)) if cancelled else None
    )
    return {
        "cancellation": cancellation,
        "settlement_label": Settlement(cancellation["settlement"]).label if cancellation else "",
        "can_cancel": not cancelled
        and tournament.status != Tournament.Status.FINISHED
        and roles.can(request.user, "director"),
        "started": tournament.started_at is not None,
        "house_settlement": tournament_rules(tournament).cancel_settlement,
        "can_pay": roles.can(request.user, "desk"),
        "can_undo": roles.can(request.user, "director"),
        "choices": Settlement.choices,
    }
