"""`{{ amount|money:tournament.currency }}`: infra.text.money.money_text in templates."""

from django import template

from infra.text import money as _money
from infra.text.money import money_affixes, money_text

register = template.Library()


@register.filter
def money(amount, currency: str = "") -> str:
    if amount in (None, ""):
        return ""
    return money_text(int(amount), currency)


@register.filter
def money_pattern(currency: str = "") -> str:
    """How an amount in `currency` is written, with `%(n)s` for the number (for scripts)."""
    return _money.money_pattern(currency)


@register.filter
def currency_sign(currency: str = "") -> str:
    """The sign written with amounts in `currency` ("Ft" for HUF), for a unit shown apart."""
    return "".join(money_affixes(currency)).strip()


@register.filter
def money_before(currency: str = "") -> str:
    return money_affixes(currency)[0]


@register.filter
def money_after(currency: str = "") -> str:
    return money_affixes(currency)[1]
