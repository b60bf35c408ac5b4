"""Text keys for search-as-you-type."""

import unicodedata


def search_key(*parts: str) -> str:
    """Lower-case, accent-free, single-spaced join of `parts` ("Kovács Ádám" -> "kovacs adam").

    Phone numbers are kept as their digits so "+36 30 123" and "3630123" both match.
    """
    words: list[str] = []
    for part in parts:
        if not part:
            continue
        decomposed = unicodedata.normalize("NFKD", part)
        plain = "".join(c for c in decomposed if not unicodedata.combining(c)).lower()
        words.extend(plain.split())
    return " ".join(words)


def phone_digits(phone: str) -> str:
    return "".join(c for c in phone if c.isdigit())
