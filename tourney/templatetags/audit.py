"""Who did an audited action, in the reader's language.

`AuditEntry.actor_name` stays as written (English, one language for search and export, like
`summary`): a staff user's name, "dealer link of table N" (the actor of tables/dealer_links/
actor.py) or "system" (a write with no actor: tourney/audit/log.py). The console's activity
panel and the audit log showed the last two in English on a Hungarian page.
"""

import re

from django import template
from django.utils.translation import gettext

from tourney.audit.selectors import group_label

register = template.Library()

_DEALER_LINK = re.compile(r"dealer link of table (\d+)")


@register.filter
def audit_actor(name: str) -> str:
    """`name` as the reader says it; a staff user's name unchanged."""
    name = name or ""
    match = _DEALER_LINK.fullmatch(name)
    if match:
        return gettext("dealer link of table %(n)s") % {"n": match.group(1)}
    if name == "system":
        return gettext("system (automatic)")
    return name


@register.filter
def audit_group(action: str) -> str:
    """What an action's code is about, as the reader says it (tourney/audit/selectors.py)."""
    return group_label(action)
