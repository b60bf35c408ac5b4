"""Money as the venue writes it: the number by Django localization (12 000 in Hungarian,
12,000 in English) and the currency's sign where it has a usual one (Ft, Kč, €)."""

from django.utils.formats import number_format

CURRENCY_SIGNS = {"HUF": "Ft", "CZK": "Kč", "EUR": "€", "USD": "$", "GBP": "£"}
SIGN_FIRST = {"USD", "GBP"}


def money_text(amount: int, currency: str = "") -> str:
    """`amount` in `currency` for a person: "12 000 Ft", "€ 12,000" style by language."""
    number = number_format(amount, decimal_pos=0, use_l10n=True, force_grouping=True)
    code = (currency or "").upper()
    sign = CURRENCY_SIGNS.get(code, code)
    if not sign:
        return number
    return f"{sign}{number}" if code in SIGN_FIRST else f"{number}\xa0{sign}"


def money_pattern(currency: str = "") -> str:
    """How an amount in `currency` is written, with `%(n)s` for the number: the one money
    format every page's script uses (Tourney.formatMoney in static/js/tourney.js)."""
    return money_text(0, currency).replace("0", "%(n)s", 1)


def money_affixes(currency: str = "") -> tuple[str, str]:
    """What is written before and after the number of an amount in `currency` ("", " Ft")."""
    before, _sep, after = money_text(0, currency).partition("0")
    return before, after
