"""Typo-tolerant name search (tourney.domain.name_index): worked examples and properties."""

from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.name_index import NameIndex, allowed_edits
from tourney.domain.text import search_key

PLAYERS = {
    1: "Varga Ferenc",
    2: "Virág Gergő",
    3: "Mészáros Éva",
    4: "Molnár Dávid",
    5: "Kovács Ádám",
    6: "Kovács Péter",
    7: "Tóth Péter",
    8: "Szabó Zoltán",
}


def index() -> NameIndex:
    return NameIndex((pk, search_key(name)) for pk, name in PLAYERS.items())


def found(query: str) -> list[str]:
    return [PLAYERS[h.player_id] for h in index().search(search_key(query).split())]


def test_issue_13_typos_find_the_player():
    assert found("Vraga") == ["Varga Ferenc"]  # two letters swapped: one edit
    assert found("Mesaros") == ["Mészáros Éva"]  # a letter dropped, accents ignored
    assert found("meszaros eva") == ["Mészáros Éva"]


def test_prefixes_and_exact_words_come_before_typos():
    assert found("kovacs") == ["Kovács Ádám", "Kovács Péter"]
    assert found("pet")[0:2] == ["Kovács Péter", "Tóth Péter"]
    ranked = index().search(["kovacs", "adam"])
    assert [h.rank for h in ranked] == [0]


def test_every_word_must_match_and_short_words_get_no_typos():
    assert found("kovacs zoltan") == []
    assert found("tth") == []  # 3 letters: prefixes only
    assert allowed_edits("abc") == 0 and allowed_edits("vraga") == 1
    assert allowed_edits("meszaros") == 2


def test_digits_are_left_to_the_phone_search():
    assert index().search(["0630"]) == []


names = st.lists(
    st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=2, max_size=9), min_size=1, max_size=3
)


@given(st.lists(names, min_size=1, max_size=30))
def test_a_player_is_always_found_by_his_own_name(players):
    built = NameIndex((i, " ".join(words)) for i, words in enumerate(players))
    for i, words in enumerate(players):
        hits = built.search(words, limit=len(players))
        assert i in [h.player_id for h in hits]
        assert hits[0].rank == 0  # an exact match is the best there is


@given(st.text(alphabet="abcdefghij", min_size=4, max_size=10), st.integers(0, 3))
def test_one_swapped_pair_is_still_found(word, at):
    at = min(at, len(word) - 2)
    typo = word[:at] + word[at + 1] + word[at] + word[at + 2 :]
    built = NameIndex([(1, word)])
    assert [h.player_id for h in built.search([typo])] == [1]
