"""The documentation in the repository: code cites docs/rules.md, never a file outside it."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

# What the repository does not hold: the tools' caches and what a run builds (the manual, the
# screenshots, collected static files, backups).
SKIPPED_DIRS = {
    ".git",
    ".venv",
    "node_modules",
    "__pycache__",
    ".pytest_cache",
    ".ruff_cache",
    ".hypothesis",
    "test-artifacts",
    "manual_site",
    "staticfiles",
    "backups",
}
# Product and test files: code, templates, front end, translations, configuration, docs.
SUFFIXES = {".py", ".html", ".js", ".css", ".md", ".po", ".toml", ".cfg", ".txt", ".json", ".sh"}

# The customer's design documents and the rooms' house-rule files live outside the repository;
# the patterns are assembled so this file does not match itself.
OUTSIDE = re.compile(
    r"\b(?:" + "|".join(("RULES", "ARCHITECTURE", "API", "UX")) + r")\.md\b"
    r"|\b00[0-4]_[0-9a-f]{16}\b"
    r"|(?:\.\./)?shared/(?:seeds|" + "RULES" + r")"
)
SECTION = re.compile(r"§(\d+(?:\.\d+)*)")
HEADING = re.compile(r"^#{1,6} §(\d+(?:\.\d+)*) \S", re.MULTILINE)


def project_files() -> list[Path]:
    found = []
    for path in ROOT.rglob("*"):
        parts = path.relative_to(ROOT).parts
        if any(p in SKIPPED_DIRS or p.endswith(".egg-info") for p in parts):
            continue
        if path.is_file() and (path.suffix in SUFFIXES or path.name == "run"):
            found.append(path)
    return sorted(found)


def rules_sections() -> list[str]:
    return HEADING.findall(RULES.read_text())


def test_the_rules_document_exists_with_numbered_sections():
    sections = rules_sections()
    assert len(sections) == len(set(sections)), "a section number is used twice"
    assert {"0", "5", "5.5", "11.5", "14.2"} <= set(sections)


def test_no_file_cites_a_document_outside_the_repository():
    assert len(project_files()) > 100
    offenders = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for path in project_files()
        for number, line in enumerate(path.read_text(errors="replace").splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert offenders == []


def test_every_cited_section_of_the_rules_exists():
    """Every `§N.M` in the project means docs/rules.md's section N.M (its only numbered
    document), so each must be a heading there."""
    known = set(rules_sections())
    missing = {
        str(path.relative_to(ROOT)): sorted(cited - known)
        for path in project_files()
        if (cited := set(SECTION.findall(path.read_text(errors="replace")))) - known
    }
    assert missing == {}
    cited_in_code = {
        section
        for path in project_files()
        if path.suffix == ".py" and "docs/rules.md §" in path.read_text(errors="replace")
        for section in SECTION.findall(path.read_text(errors="replace"))
    }
    assert len(cited_in_code) > 30


def test_built_in_structure_notes_name_no_file_and_are_translated():
    from django.utils import translation

    from clocks.domain.structures import TEMPLATES
    from clocks.structures.views import TEMPLATE_DESCRIPTIONS

    for template in TEMPLATES.values():
        assert template.description in TEMPLATE_DESCRIPTIONS
        assert ".txt" not in template.description
        for language in ("hu", "cs"):
            with translation.override(language):
                assert translation.gettext(template.description) != template.description


def test_the_tests_the_rules_point_to_exist():
    """docs/rules.md names the tests of each worked example: they must stay findable."""
    text = RULES.read_text()
    paths = set(re.findall(r"`((?:tests|tourney|tables|clocks|static)/[\w/.-]+\.\w+)`", text))
    assert [p for p in sorted(paths) if not (ROOT / p).exists()] == []
    tests = "\n".join(p.read_text() for p in (ROOT / "tests").rglob("*.py"))
    named = set(re.findall(r"`(test_\w+)`", text))
    assert len(named) > 50
    assert [n for n in sorted(named) if not re.search(rf"\bdef {n}\(", tests)] == []
