"""The translations follow the glossary (docs/glossary.md, issue 32: Hungarian screens mixed
"Játékos" and "Játékosok", "Szint 1" and "1. szint"): each term the product shows alone (a
msgid that is exactly the English term, without a context) is translated as the glossary says,
in Hungarian and in Czech."""

from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parent.parent
GLOSSARY = ROOT / "docs" / "glossary.md"


def _terms() -> list[tuple[str, str, str]]:
    rows = []
    for line in GLOSSARY.read_text().splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 3 and cells[0] not in ("English", "---") and not cells[0].startswith("-"):
            rows.append(tuple(cells))
    return rows


def test_the_glossary_lists_the_floor_s_words():
    assert len(_terms()) >= 60


@pytest.mark.parametrize(("language", "column"), [("hu", 1), ("cs", 2)])
def test_the_translations_use_the_glossary_s_words(language, column):
    catalog = polib.pofile(str(ROOT / "locale" / language / "LC_MESSAGES" / "django.po"))
    shown = {e.msgid: e.msgstr for e in catalog if not e.obsolete and e.msgctxt is None}
    wrong = [
        (row[0], shown[row[0]], row[column])
        for row in _terms()
        if row[0] in shown and shown[row[0]] != row[column]
    ]
    assert wrong == []
    assert sum(row[0] in shown for row in _terms()) >= 50  # the list is the product's own words
