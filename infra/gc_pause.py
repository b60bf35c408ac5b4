"""Bulk work without the cyclic garbage collector's full passes.

A 25,000-entry draw makes a few hundred thousand short-lived containers; each 700 of them
start a collection, and every tenth of those a full one that walks every object the process
holds: 1-2 full passes per draw, 0.45-1.3 s of the draw's 3.3-4.0 s on the busy benchmark
machine (docs/benchmarks.md). The draw's objects form no cycles, so reference counting frees
them as usual while the cycle search waits until the draw is over.
"""

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_lock = threading.Lock()
_depth = 0
_was_enabled = False


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector paused for the block (nested or in several threads: it runs
    again when the last block ends, if it ran before the first began)."""
    global _depth, _was_enabled
    with _lock:
        if _depth == 0:
            _was_enabled = gc.isenabled()
            gc.disable()
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0 and _was_enabled:
                gc.enable()
