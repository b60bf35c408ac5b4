"""Finding a player by name when the desk mistypes it ("Vraga" for Varga, "Mesaros" for
Mészáros), accents ignored.

The index holds every distinct word of the players' names and nicknames (a venue's 10,000
players have a few thousand) and, for each word, the players who have it. A query word matches
a name word that starts with it, or that is within a small number of edits of it (an edit: a
letter added, dropped, changed, or two neighbours swapped; Damerau-Levenshtein), whole or as
a prefix of the same length: none for up to 3 letters, 1 up to 6, 2 from 7. A player matches
when every query word matches one of his words; the best matches come first (exact words,
then prefixes, then fewer edits). Pure Python and rapidfuzz: no Django.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import process
from rapidfuzz.distance import DamerauLevenshtein

EXACT, PREFIX = 0, 1
"""Match kinds, best first; a fuzzy match ranks as 1 + its number of edits."""


def allowed_edits(word: str) -> int:
    """Typos tolerated in a query word of this length."""
    return 0 if len(word) <= 3 else 1 if len(word) <= 6 else 2


@dataclass(frozen=True)
class Hit:
    player_id: int
    rank: int
    """Sum over the query words of their match kind: 0 = every word exact."""


class NameIndex:
    """Players' words (already lower-case and accent-free, e.g. `tourney.domain.text`
    `search_key`) for typo-tolerant search."""

    def __init__(self, rows: Iterable[tuple[int, str]] = ()):
        self.postings: dict[str, set[int]] = defaultdict(set)
        self.player_words: dict[int, tuple[str, ...]] = {}
        for player_id, text in rows:
            words = self._words(text)
            self.player_words[player_id] = words
            for word in words:
                self.postings[word].add(player_id)
        self.words: list[str] = sorted(self.postings)

    @staticmethod
    def _words(text: str) -> tuple[str, ...]:
        return tuple(sorted({w for w in text.split() if not w.isdigit()}))

    def __len__(self) -> int:
        return len(self.words)

    def update(self, player_id: int, text: str | None) -> None:
        """A player added or renamed (`text`), or gone from the lists (None)."""
        for word in self.player_words.pop(player_id, ()):
            holders = self.postings[word]
            holders.discard(player_id)
            if not holders:
                del self.postings[word]
                self.words.pop(bisect_left(self.words, word))
        if text is None:
            return
        words = self._words(text)
        self.player_words[player_id] = words
        for word in words:
            if word not in self.postings:
                insort(self.words, word)
            self.postings[word].add(player_id)

    def word_matches(self, query_word: str) -> dict[str, int]:
        """Index words that match `query_word`, each with its match kind (0 best)."""
        found: dict[str, int] = {}
        edits = allowed_edits(query_word)
        for word in self.words:
            if word.startswith(query_word):
                found[word] = EXACT if word == query_word else PREFIX
        if edits:
            size = len(query_word)
            for choices in (self.words, [w[:size] for w in self.words]):
                for _text, distance, i in process.extract_iter(
                    query_word,
                    choices,
                    scorer=DamerauLevenshtein.distance,
                    score_cutoff=edits,
                ):
                    word = self.words[i]
                    found[word] = min(found.get(word, 99), PREFIX + max(1, int(distance)))
        return found

    def search(self, query_words: Sequence[str], limit: int = 20) -> list[Hit]:
        """Players every query word matches, best first (then by id); digits are left to the
        phone search."""
        words = [w for w in query_words if w and not w.isdigit()]
        if not words:
            return []
        ranks: dict[int, int] | None = None
        for query_word in words[:5]:
            best: dict[int, int] = {}
            for word, kind in self.word_matches(query_word).items():
                for player_id in self.postings[word]:
                    if kind < best.get(player_id, 99):
                        best[player_id] = kind
            if ranks is None:
                ranks = best
            else:
                ranks = {p: r + best[p] for p, r in ranks.items() if p in best}
            if not ranks:
                return []
        hits = sorted((rank, player_id) for player_id, rank in (ranks or {}).items())
        return [Hit(player_id, rank) for rank, player_id in hits[:limit]]
