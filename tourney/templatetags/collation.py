"""`{% load collation %}`: `items|collated:"player.name"` sorts by the active language's
collation (infra/text/collation.py), for lists of names a template builds itself."""

from django import template

from infra.text.collation import sorted_by_name

register = template.Library()


def _attribute(item, path: str):
    for part in path.split("."):
        item = item[part] if isinstance(item, dict) else getattr(item, part)
    return item


@register.filter
def collated(items, path: str = "name"):
    """`items` by the dotted attribute or key `path`, as the page's language sorts names."""
    return sorted_by_name(items or [], key=lambda item: str(_attribute(item, path) or ""))
