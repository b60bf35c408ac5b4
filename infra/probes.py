"""Timing probes: a developer tool (the simulator, `manage.py simulate`) learns how long named
steps of a bust-out take without swapping functions at run time. Product code marks a step with
`probe(name)`; with no listener a probe costs one list check, so it stays in the hot path."""

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

Listener = Callable[[str, float], None]

# The listeners of this process (the simulator's run); a web process or worker has none.
_listeners: list[Listener] = []


@contextmanager
def probes_heard(listener: Listener) -> Iterator[None]:
    """Call `listener(name, ms)` after every probed step while the block runs."""
    _listeners.append(listener)
    try:
        yield
    finally:
        _listeners.remove(listener)


@contextmanager
def probe(name: str) -> Iterator[None]:
    """Time the block (wall clock, milliseconds) for the listeners, if there are any."""
    if not _listeners:
        yield
        return
    start = time.perf_counter_ns()
    try:
        yield
    finally:
        ms = (time.perf_counter_ns() - start) / 1e6
        for listener in tuple(_listeners):
            listener(name, ms)
