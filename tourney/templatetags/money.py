"""`{{ amount|money:tournament.currency }}`: tourney.money.money_text in templates."""

from django import template

from tourney.money import money_text

register = template.Library()


@register.filter
def money(amount, currency: str = "") -> str:
    if amount in (None, ""):
        return ""
    return money_text(int(amount), currency)


@register.filter
def money_pattern(currency: str = "") -> str:
    """How an amount in `currency` is written, with `%(n)s` for the number (for scripts)."""
    return money_text(0, currency).replace("0", "%(n)s", 1)
