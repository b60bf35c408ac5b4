"""Cryptographically secure random numbers at the speed of a few system calls.

`random.SystemRandom` asks the kernel (`os.urandom`) once per number: a 25,000-player draw
asks about 30,000 times (the button's high-card draw alone deals a card to every seated
player), which took 70-170 ms of the draw. `BufferedSystemRandom` takes the same kernel bytes
4 KiB at a time and hands them out in order, so every number is exactly as unpredictable as
SystemRandom's, and every `random.Random` method (sample, choice, shuffle, randrange) works on
it unchanged.

One generator per draw or service call, never shared: a buffer copied into another process
by `fork` would repeat its bytes there.
"""

import os
import random

_CHUNK = 4096  # bytes fetched from the kernel per refill
_RECIP_BPF = 2.0**-53  # random() takes 53 bits, as the standard generators do


class BufferedSystemRandom(random.Random):
    """random.Random over os.urandom's bytes, fetched a chunk at a time (not reproducible:
    seed, getstate and setstate are refused as SystemRandom refuses them)."""

    def __init__(self) -> None:
        self._buffer = b""
        self._pos = 0
        super().__init__()

    def seed(self, *args, **kwargs) -> None:
        return None

    def _take(self, n: int) -> bytes:
        """The next n bytes of kernel randomness; each byte is handed out once."""
        end = self._pos + n
        if end > len(self._buffer):
            self._buffer = self._buffer[self._pos :] + os.urandom(max(_CHUNK, n))
            self._pos, end = 0, n
        chunk = self._buffer[self._pos : end]
        self._pos = end
        return chunk

    def random(self) -> float:
        """A float in [0, 1) from 53 random bits."""
        return (int.from_bytes(self._take(7), "big") >> 3) * _RECIP_BPF

    def getrandbits(self, k: int) -> int:
        """A non-negative int of k random bits (k >= 0)."""
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        if k == 0:
            return 0
        size = (k + 7) // 8
        return int.from_bytes(self._take(size), "big") >> (size * 8 - k)

    def randbytes(self, n: int) -> bytes:
        """n random bytes."""
        return self._take(n)

    def getstate(self):
        raise NotImplementedError("a system generator has no state to save")

    def setstate(self, state) -> None:
        raise NotImplementedError("a system generator has no state to restore")
