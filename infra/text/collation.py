"""Names in the order the reader's language sorts them (ICU collation through PyICU, installed
from the `PyICU-wheels` binary wheels, which bundle ICU: no system library or compiler needed).

Code-point order puts "Mészáros" after "Molnár" and "Čapek" after "Zeman"; plain accent
folding gets Hungarian wrong too ("Cs", "Gy", "Sz", "Zs" are letters of their own, "Ö" follows
"O") and Czech ("Č" follows "C", "Ch" follows "H", "Ř" follows "R"). ICU's CLDR tailorings are
the rules a Hungarian or Czech reader expects, and they are the same ones Chromium's
`Intl.Collator` uses, so a list sorted here and a list the browser re-sorts agree.

The database is not asked to sort: SQLite has no ICU collations and PostgreSQL's depend on how
the server was built, while the same page must read the same on both.

    sorted_by_name(entries, key=lambda e: e.player.name)        # the active language
    sorted_by_name(rows, key=itemgetter("name"), language="hu")
    {% load collation %}{% for e in entries|collated:"player.name" %}

Collators are cached per thread: ICU collators are cheap to share for reading, but a cache per
thread keeps that true whatever the ICU build.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import TypeVar

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.utils import translation

T = TypeVar("T")

_local = threading.local()


def _icu():
    try:
        import icu
    except ImportError as exc:  # pragma: no cover - a dependency in pyproject.toml
        raise ImproperlyConfigured(
            "Name collation needs ICU (PyICU-wheels in pyproject.toml): run `pip install -e .`."
        ) from exc
    return icu


def _language(language: str | None) -> str:
    code = language or translation.get_language() or settings.LANGUAGE_CODE
    return translation.to_locale(code).split("_")[0] or "en"


def collator(language: str | None = None):
    """The ICU collator for `language` (a Django language code; default the active one)."""
    lang = _language(language)
    cache = getattr(_local, "collators", None)
    if cache is None:
        cache = _local.collators = {}
    found = cache.get(lang)
    if found is None:
        icu = _icu()
        found = cache[lang] = icu.Collator.createInstance(icu.Locale(lang))
    return found


def name_key(name: str, language: str | None = None) -> bytes:
    """The sort key of `name` in `language`: compare keys of the same language only."""
    return collator(language).getSortKey(name or "")


def sorted_by_name(
    items: Iterable[T], key: Callable[[T], str] = str, language: str | None = None
) -> list[T]:
    """`items` ordered by `key(item)` as `language` sorts names (ties keep their order)."""
    sort_key = collator(language).getSortKey
    return sorted(items, key=lambda item: sort_key(key(item) or ""))
