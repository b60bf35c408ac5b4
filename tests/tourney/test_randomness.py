"""BufferedSystemRandom: the kernel's bytes, a chunk at a time, behind random.Random's API."""

import collections

import pytest
from hypothesis import given
from hypothesis import strategies as st

from infra.randomness import BufferedSystemRandom


@given(st.integers(min_value=0, max_value=4_200), st.integers(min_value=1, max_value=20))
def test_bits_and_bytes_are_in_range(bits, repeats):
    rng = BufferedSystemRandom()
    for _ in range(repeats):
        assert 0 <= rng.getrandbits(bits) < 2**bits
        assert len(rng.randbytes(bits // 8)) == bits // 8
        assert 0.0 <= rng.random() < 1.0


def test_every_random_method_works_on_it():
    rng = BufferedSystemRandom()
    deck = list(range(52))
    assert sorted(rng.sample(deck, 52)) == deck
    assert rng.choice(deck) in deck
    assert 3 <= rng.randrange(3, 10) < 10
    shuffled = deck[:]
    rng.shuffle(shuffled)
    assert sorted(shuffled) == deck


def test_no_byte_is_handed_out_twice():
    """Refills keep the bytes not yet used and never repeat a chunk: 10 KiB taken in odd
    pieces across refills are all different 8-byte words (a repeat has probability ~2^-50)."""
    rng = BufferedSystemRandom()
    data = b"".join(rng.randbytes(n) for n in [3, 4_093, 5, 4_096, 7, 2_036])
    assert len(data) == 10_240
    words = [data[i : i + 8] for i in range(0, len(data), 8)]
    assert len(set(words)) == len(words)


def test_draws_are_uniform():
    """A die of 6 faces, 60,000 throws: every face within 5 standard deviations of 10,000."""
    rng = BufferedSystemRandom()
    counts = collections.Counter(rng.randrange(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(abs(n - 10_000) < 5 * 91.3 for n in counts.values())


def test_it_cannot_be_seeded_or_replayed():
    rng = BufferedSystemRandom()
    rng.seed(1)  # accepted and ignored, as SystemRandom does
    assert rng.getrandbits(64) != BufferedSystemRandom().getrandbits(64)
    with pytest.raises(NotImplementedError):
        rng.getstate()
    with pytest.raises(NotImplementedError):
        rng.setstate(None)
    with pytest.raises(ValueError):
        rng.getrandbits(-1)
