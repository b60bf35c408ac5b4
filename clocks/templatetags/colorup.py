"""The console's color-up card and the dealer page's banner, rendered where they are
included (each also has its own URL, refetched by static/js/floor.js on events)."""

from django import template

from clocks.color_ups.views import colorup_summary, dealer_banner_context

register = template.Library()


@register.inclusion_tag("clocks/_floor_colorup_card.html")
def colorup_console_card(tournament):
    return {"tournament": tournament, "colorup": colorup_summary(tournament)}


@register.inclusion_tag("clocks/_dealer_colorup_banner.html")
def colorup_dealer_banner(tournament, number):
    return dealer_banner_context(tournament, number)
