"""The dealer page's clock strip: level, blinds, ante and time left, rendered where it is
included and kept live by the page's Tourney.liveClock (the TV's offset-corrected clock)."""

from django import template
from django.utils.translation import gettext as _

from clocks.clock.selectors import clock_view, structure_periods
from clocks.display.selectors import display_periods
from tourney.models import Tournament

register = template.Library()


@register.inclusion_tag("tables/_dealer_clock.html")
def dealer_clock(tournament: Tournament):
    clock = clock_view(tournament)
    if tournament.status == Tournament.Status.FINISHED:  # the winner is known: no clock runs
        clock = {**clock, "status": "finished", "remaining_ms": 0}
    periods = display_periods(structure_periods(tournament.structure_id))
    strings = {
        "level": _("Level %(n)s"),
        "break": _("Break"),
        "ante": _("ante"),
        "paused": _("PAUSED"),
        "finished": _("Finished"),
    }
    period = periods[clock["period_index"]]
    return {"tournament": tournament, "clock": clock, "period": period, "periods": periods,
            "strings": strings}  # fmt: skip
