"""Playing cards for draws (button draw, seat-card draws, chip races).

Draw order is rank (ace high), then suit spades > hearts > diamonds > clubs (docs/rules.md
§0.2), so no two distinct cards ever tie.
"""

import functools
from dataclasses import dataclass

SUITS = "cdhs"
"""Suit codes in ascending draw order: clubs < diamonds < hearts < spades."""

RANKS = range(2, 15)
"""Ranks 2..14; 11 = jack, 12 = queen, 13 = king, 14 = ace."""

_SUIT_SYMBOL = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}
_RANK_CODE = {10: "T", 11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_LABEL = {10: "10", 11: "J", 12: "Q", 13: "K", 14: "A"}
_CODE_RANK = {**{str(r): r for r in range(2, 10)}, "T": 10, "10": 10, "J": 11, "Q": 12, "K": 13}
_CODE_RANK["A"] = 14


@functools.total_ordering
@dataclass(frozen=True, slots=True)
class Card:
    """One card; `rank` is 2..14 (ace high), `suit` one of "cdhs". Ordered by `sort_key`."""

    rank: int
    suit: str

    def __post_init__(self) -> None:
        if not isinstance(self.rank, int) or self.rank not in RANKS:
            raise ValueError(f"card rank must be 2..14, got {self.rank!r}")
        if not isinstance(self.suit, str) or len(self.suit) != 1 or self.suit not in SUITS:
            raise ValueError(f"card suit must be one of {SUITS!r}, got {self.suit!r}")

    @property
    def code(self) -> str:
        """Two-character code such as "As", "Td", "2c"."""
        return _RANK_CODE.get(self.rank, str(self.rank)) + self.suit

    @property
    def label(self) -> str:
        """Display label such as "A♠" or "10♦"."""
        return _RANK_LABEL.get(self.rank, str(self.rank)) + _SUIT_SYMBOL[self.suit]

    @property
    def sort_key(self) -> tuple[int, int]:
        """(rank, suit index); larger is the higher card in a draw."""
        return (self.rank, SUITS.index(self.suit))

    @classmethod
    def from_code(cls, code: str) -> "Card":
        """Parse "As", "Td", "10d" or "2c" (rank letter and suit are case-insensitive)."""
        known = _BY_CODE.get(code) if isinstance(code, str) else None
        if known is not None:
            return known
        if not isinstance(code, str) or len(code) < 2:
            raise ValueError(f"not a card code: {code!r}")
        rank = _CODE_RANK.get(code[:-1].upper())
        if rank is None:
            raise ValueError(f"not a card code: {code!r}")
        return cls(rank, code[-1].lower())

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.sort_key < other.sort_key

    def __str__(self) -> str:
        return self.code


# Cards are immutable, so one deck serves every draw (a large draw deals thousands of decks).
_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for rank in RANKS for suit in SUITS)
_BY_CODE: dict[str, Card] = {card.code: card for card in _DECK}
_LABEL_BY_CODE: dict[str, str] = {card.code: card.label for card in _DECK}


def card_label(code: str) -> str:
    """`Card.from_code(code).label`, looked up (a seating chart of 2,778 tables shows 25,000)."""
    label = _LABEL_BY_CODE.get(code) if isinstance(code, str) else None
    return label if label is not None else Card.from_code(code).label


def full_deck() -> list[Card]:
    """A new list of the 52 distinct cards in ascending draw order (callers shuffle it)."""
    return list(_DECK)
