"""Hungarian and Czech are complete: every message has its translation, none is fuzzy (a
fuzzy entry is not compiled, so the page would show English)."""

import re
from pathlib import Path

import pytest

LOCALE = Path(__file__).resolve().parent.parent / "locale"
QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')


def po_entries(path: Path) -> list[dict]:
    """Each entry of a .po file as {"flags", "msgid", "msgstr": [one per plural form]}."""
    entries = []
    for block in path.read_text(encoding="utf-8").split("\n\n"):
        entry: dict = {"flags": set(), "msgid": "", "msgstr": []}
        field = None
        for line in block.splitlines():
            if line.startswith("#,"):
                entry["flags"] |= {f.strip() for f in line[2:].split(",")}
            elif line.startswith("#"):
                continue
            elif line.startswith("msgid "):
                field, entry["msgid"] = "msgid", QUOTED.search(line).group(1)
            elif line.startswith("msgid_plural "):
                field = "plural"
            elif line.startswith("msgstr"):
                field = "msgstr"
                entry["msgstr"].append(QUOTED.search(line).group(1))
            elif line.startswith('"') and field == "msgid":
                entry["msgid"] += QUOTED.search(line).group(1)
            elif line.startswith('"') and field == "msgstr":
                entry["msgstr"][-1] += QUOTED.search(line).group(1)
        if entry["msgstr"]:
            entries.append(entry)
    return entries


@pytest.mark.parametrize("language", ["hu", "cs"])
def test_every_message_is_translated_and_none_is_fuzzy(language):
    entries = po_entries(LOCALE / language / "LC_MESSAGES" / "django.po")
    messages = [e for e in entries if e["msgid"]]  # the header has an empty msgid
    assert len(messages) > 500
    fuzzy = [e["msgid"] for e in entries if "fuzzy" in e["flags"]]
    assert fuzzy == [], f"fuzzy in {language}: {fuzzy[:10]}"
    missing = [e["msgid"] for e in messages if not all(e["msgstr"])]
    assert missing == [], f"untranslated in {language}: {missing[:10]}"
