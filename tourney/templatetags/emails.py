"""E-mail addresses that wrap where a reader expects: after the @ and before a dot."""

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()


@register.filter
def email_breaks(address: str) -> SafeString:
    """The address, escaped, with a line break allowed after its @ and before each dot (in a
    phone's narrow card column it broke mid-word: "rimocpoker" / "klub")."""
    text = escape(address or "")
    return mark_safe(text.replace("@", "@<wbr>").replace(".", "<wbr>."))  # escaped above
