"""{% player_qr entry %}: the QR code of the entry's own page (seat card, receipt), inline SVG."""

from django import template
from django.utils.safestring import mark_safe

from infra.text.qr import qr_svg
from tourney.player_page.selectors import player_url_for

register = template.Library()


@register.simple_tag(takes_context=True)
def player_qr(context, entry) -> str:
    if entry is None:
        return ""
    url = player_url_for(context["request"], entry.tournament_id, entry.pk)
    return mark_safe(qr_svg(url))  # segno's own markup, no user text in it
