"""Cards used by the draws: codes, labels and draw order (rank, then suit s > h > d > c)."""

import pytest

from tables.domain.cards import Card, full_deck


@pytest.mark.parametrize(
    ("rank", "suit", "code", "label"),
    [
        (14, "s", "As", "A♠"),
        (10, "d", "Td", "10♦"),
        (2, "c", "2c", "2♣"),
        (13, "h", "Kh", "K♥"),
        (11, "s", "Js", "J♠"),
        (12, "d", "Qd", "Q♦"),
    ],
)
def test_code_and_label(rank: int, suit: str, code: str, label: str) -> None:
    card = Card(rank, suit)
    assert card.code == code
    assert card.label == label
    assert Card.from_code(code) == card


@pytest.mark.parametrize("code", ["10d", "td", "AS", "as"])
def test_from_code_accepts_common_spellings(code: str) -> None:
    assert Card.from_code(code).code in {"Td", "As"}


@pytest.mark.parametrize("code", ["", "A", "1s", "Ax", "11h", "Zs", "A♠"])
def test_from_code_rejects_garbage(code: str) -> None:
    with pytest.raises(ValueError):
        Card.from_code(code)


@pytest.mark.parametrize(("rank", "suit"), [(1, "s"), (15, "s"), (10, "x"), (10, "S"), (10, "")])
def test_invalid_cards_are_rejected(rank: int, suit: str) -> None:
    with pytest.raises(ValueError):
        Card(rank, suit)


def test_order_is_rank_then_spades_hearts_diamonds_clubs() -> None:
    assert Card.from_code("As") > Card.from_code("Ad")  # docs/rules.md §3.6 example 2
    assert Card.from_code("Ah") > Card.from_code("Ad") > Card.from_code("Ac")
    assert Card.from_code("2s") < Card.from_code("3c")
    assert Card.from_code("Ks") < Card.from_code("Ac")
    assert max(Card.from_code(c) for c in ["Kd", "Ac", "Ks", "Ad"]).code == "Ad"
    assert Card.from_code("As").sort_key == (14, 3)


def test_full_deck_is_52_distinct_cards_in_ascending_order() -> None:
    deck = full_deck()
    assert len(deck) == len(set(deck)) == 52
    assert deck == sorted(deck)
    assert deck[0].code == "2c"
    assert deck[-1].code == "As"
    assert full_deck() is not deck  # callers shuffle their own copy


def test_cards_are_frozen_and_hashable() -> None:
    card = Card(14, "s")
    with pytest.raises(AttributeError):
        card.rank = 13  # type: ignore[misc]
    assert {card, Card(14, "s")} == {card}
