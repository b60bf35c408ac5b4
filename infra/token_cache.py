"""The rows of bearer tokens in use, kept for a moment in each web process.

Every API call of a script starts by reading its token with its user and staff profile: a
round trip to the database and about 0.4 ms of a registration's 6 (docs/benchmarks.md). A token
row read is kept here for `TOURNEY_TOKEN_CACHE_SECONDS` (1 s by default; 0 turns it off), so a
script's calls in a burst read it once a second. What could make a kept row wrong is forgotten
at once in this process: a token revoked, a user or staff profile saved or deleted (signals,
tourney/apps.py); another web process reads it again within the second. Only tokens found are
kept (a stream of made-up tokens cannot fill the memory), and at most MAX_KEPT of them.
"""

import threading
import time
from collections.abc import Callable

from django.conf import settings
from django.db import transaction

MAX_KEPT = 1024

clock: Callable[[], float] = time.monotonic  # tests pass time by replacing it
_kept: dict[str, tuple[float, tuple]] = {}  # token hash -> (read at, row)
_lock = threading.Lock()
_generation = 0  # forgetting bumps it: a read begun before is not kept


def token_row(digest: str, read: Callable[[str], tuple | None]) -> tuple | None:
    """The row of the token whose hash is `digest`, as `read(digest)` gives it (None: no
    such token in force), read again once it has been kept `TOURNEY_TOKEN_CACHE_SECONDS`."""
    seconds = settings.TOURNEY_TOKEN_CACHE_SECONDS
    now = clock()
    kept = _kept.get(digest)
    if kept is not None and now - kept[0] < seconds:
        return kept[1]
    generation = _generation
    row = read(digest)
    if row is not None and seconds > 0:
        with _lock:
            if generation == _generation:  # nothing forgotten while it was read
                if len(_kept) >= MAX_KEPT:
                    _kept.clear()
                _kept[digest] = (now, row)
    return row


def token_forget(digest: str) -> None:
    """Forget the kept row of one token (its last use was just written)."""
    with _lock:
        _kept.pop(digest, None)


def tokens_forget() -> None:
    """Forget every kept row."""
    global _generation
    with _lock:
        _generation += 1
        _kept.clear()


def tokens_changed(*_args, **_kwargs) -> None:
    """A token, user or staff profile was saved or deleted (a signal receiver): forget now, and
    again once its transaction commits, since a call meanwhile still reads the row as it was."""
    tokens_forget()
    transaction.on_commit(tokens_forget)
