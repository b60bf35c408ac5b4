"""{% satellite_seats tournament summary as sat %}: a satellite's seats for the stat cards
(docs/rules.md §17); None for any other tournament."""

from django import template

from tourney.satellites.selectors import satellite_info

register = template.Library()


@register.simple_tag
def satellite_seats(tournament, summary) -> dict | None:
    if not tournament.satellite:
        return None
    return satellite_info(tournament, summary.prize_pool)
