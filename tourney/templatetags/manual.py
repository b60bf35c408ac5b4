"""{% manual_link "tasks/desk/" %}: the top bar's help (`?`), the manual's page for this screen."""

from django import template
from django.utils.html import format_html
from django.utils.translation import get_language
from django.utils.translation import gettext as _

register = template.Library()

# The manual is in English and Hungarian (mkdocs.yml); Czech readers get the English pages.
MANUAL_LANGUAGES = {"hu"}


@register.simple_tag
def manual_url(page: str = "") -> str:
    language = (get_language() or "en").split("-")[0]
    prefix = f"{language}/" if language in MANUAL_LANGUAGES else ""
    return f"/manual/{prefix}{page}"


@register.simple_tag
def manual_link(page: str = "") -> str:
    return format_html(
        '<a class="topbar-help" id="help-link" href="{}" target="_blank" rel="noopener" '
        'aria-keyshortcuts="?" title="{}"><span aria-hidden="true">?</span>'
        '<span class="sr-only">{}</span></a>',
        manual_url(page),
        _("Help: this screen in the manual (?)"),
        _("Help"),
    )
