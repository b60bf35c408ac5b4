"""The director's manual (issue 28): built strict, every task page in English and Hungarian with a
picture the current suite makes, served at /manual/ with no network, the README a front page."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
import yaml
from django.test import Client

from tests.manual_pictures import made_by
from tourney.management.commands.manual import build_manual, manual_is_stale

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"
PICTURES = DOCS / "pictures"
PICTURE = re.compile(r"!\[[^\]]*\]\(([^)\s]+\.png)\)")


def nav_pages() -> dict[str, str]:
    """Every page of mkdocs.yml's navigation: its path under docs/ -> its section's title."""
    config = yaml.load((REPO / "mkdocs.yml").read_text(), Loader=yaml.BaseLoader)
    pages: dict[str, str] = {}

    def walk(items, section: str) -> None:
        for item in items:
            ((title, value),) = item.items()
            if isinstance(value, list):
                walk(value, title)
            else:
                pages[value] = section

    walk(config["nav"], "")
    return pages


def task_pages() -> list[str]:
    return [page for page, section in nav_pages().items() if section == "Tasks"]


def pictures_of(page: Path) -> list[Path]:
    return [(page.parent / link).resolve() for link in PICTURE.findall(page.read_text())]


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The manual built once, strict (a warning fails the build), as `manage.py manual` does."""
    return build_manual(tmp_path_factory.mktemp("manual") / "site", strict=True)


def test_the_manual_has_the_parts_of_the_issue():
    pages = nav_pages()
    assert len(task_pages()) >= 17
    assert {"Tasks", "Running it", "The rules", "For developers"} <= set(pages.values())
    assert {"getting-started.md", "api.md", "house-rules.md", "rules.md"} <= set(pages)


@pytest.mark.parametrize("suffix", [".md", ".hu.md"])
def test_every_task_page_exists_in_english_and_hungarian_with_a_picture(suffix):
    missing, bare = [], []
    for page in [*task_pages(), "getting-started.md", "index.md"]:
        path = DOCS / page.replace(".md", suffix)
        if not path.exists():
            missing.append(str(path.relative_to(REPO)))
        elif not pictures_of(path):
            bare.append(str(path.relative_to(REPO)))
    assert missing == [], "a task page without its translation"
    assert bare == [], "a task page without a picture"


def test_every_page_of_docs_is_in_the_navigation():
    pages = nav_pages()
    outside = [
        str(path.relative_to(DOCS))
        for path in DOCS.rglob("*.md")
        if re.sub(r"\.hu\.md$", ".md", str(path.relative_to(DOCS))) not in pages
    ]
    assert outside == []


def manual_picture_names() -> set[str]:
    """The picture names the browser tests give (manual_picture, save_manual_picture, and the
    rehearsal's MANUAL_SHOTS in each manual language): what the current suite makes."""
    names: set[str] = set()
    for path in (REPO / "tests" / "e2e").glob("test_*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in {
                "manual_picture",
                "save_manual_picture",
            }:
                names |= _names(node.args[1])
            if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == (
                "MANUAL_SHOTS"
            ):
                shots = ast.literal_eval(node.value)
                names |= {
                    f"evening/{lang}/{name}" for name, _ in shots.values() for lang in ["en", "hu"]
                }
    return names


def _names(arg: ast.expr) -> set[str]:
    """A literal name, or an f-string over the manual's languages ("seat-card-{lang}")."""
    if isinstance(arg, ast.Constant):
        return {arg.value}
    if isinstance(arg, ast.JoinedStr):
        parts = ["{}" if isinstance(v, ast.FormattedValue) else v.value for v in arg.values]
        if parts.count("{}") == 1:  # else the rehearsal's own (its MANUAL_SHOTS count)
            return {"".join(parts).format(lang) for lang in ("en", "hu")}
    return set()


def test_every_picture_was_made_by_a_test_of_the_current_suite():
    names = manual_picture_names()
    stale, unmarked, orphan = [], [], []
    for picture in PICTURES.rglob("*.png"):
        name = str(picture.relative_to(PICTURES).with_suffix(""))
        test = made_by(picture)
        if test is None:
            unmarked.append(name)
            continue
        file, _, function = test.partition("::")
        source = REPO / file
        if name not in names or not source.exists() or f"def {function}(" not in source.read_text():
            stale.append(f"{name} (made by {test})")
    referenced = {p for page in DOCS.rglob("*.md") for p in pictures_of(page)}
    orphan = [str(p.relative_to(PICTURES)) for p in PICTURES.rglob("*.png") if p not in referenced]
    assert unmarked == [], (
        "pictures not made by the tests: TOURNEY_MANUAL_PICTURES=1 (contributing.md)"
    )
    assert stale == [], "pictures no test of the suite makes any more"
    assert orphan == [], "pictures no page shows"


def test_the_manual_builds_strict_in_both_languages(site):
    for page in [*task_pages(), "getting-started.md"]:
        folder = page.removesuffix(".md").removesuffix("/index")
        assert (site / folder / "index.html").is_file(), page
        assert (site / "hu" / folder / "index.html").is_file(), page
    desk = (site / "hu" / "tasks" / "desk" / "index.html").read_text()
    assert "Regisztráció a pultnál" in desk
    assert (site / "openapi.json").is_file()
    assert "`rimoc`" not in (site / "house-rules" / "index.html").read_text()  # rendered
    assert "rimoc" in (site / "house-rules" / "index.html").read_text()


def test_the_manual_needs_no_network(site):
    outside = re.compile(r"""(?:src|href)=["']?(?:https?:)?//""")
    for page in site.rglob("*.html"):
        for line in page.read_text().splitlines():
            if "<link" in line or "<script" in line or "<img" in line:
                assert not outside.search(line), f"{page.relative_to(site)}: {line.strip()[:160]}"


def test_the_server_serves_the_manual_at_manual(site, settings):
    settings.TOURNEY_MANUAL_DIR = site
    client = Client()
    home = client.get("/manual/")
    assert home.status_code == 200 and b"Tourney" in b"".join(home.streaming_content)
    desk = client.get("/manual/hu/tasks/desk/")
    assert desk.status_code == 200
    assert "Regisztráció a pultnál" in b"".join(desk.streaming_content).decode()
    assert client.get("/manual/tasks/desk").status_code == 200  # a folder without its slash
    picture = client.get("/manual/pictures/evening/en/desk.png")
    assert picture.status_code == 200 and picture["Content-Type"] == "image/png"
    assert client.get("/manual/no-such-page/").status_code == 404
    assert client.get("/manual/../manage.py").status_code in {400, 404}  # refused


def test_a_server_without_the_manual_says_how_to_build_it(tmp_path, settings):
    settings.TOURNEY_MANUAL_DIR = tmp_path / "none"
    answer = Client().get("/manual/")
    assert answer.status_code == 503
    assert "manage.py manual" in answer.content.decode()


def test_the_build_is_stale_when_docs_change(site, tmp_path):
    assert manual_is_stale(tmp_path / "never-built")
    assert not manual_is_stale(site)


def test_the_readme_is_a_front_page_with_the_two_commands():
    readme = (REPO / "README.md").read_text()
    assert len(readme.splitlines()) <= 150
    assert ".venv/bin/pip install -e . && .venv/bin/python manage.py quickstart" in readme
    assert (
        '.venv/bin/pip install -e ".[test]" && .venv/bin/pytest -n auto --dist worksteal' in readme
    )
    for picture in PICTURE.findall(readme):
        assert (REPO / picture).is_file(), picture
    for link in re.findall(r"\]\((docs/[^)#]+)", readme):
        assert (REPO / link).is_file(), link


@pytest.mark.django_db
@pytest.mark.parametrize(("language", "prefix"), [("en", "/manual/"), ("hu", "/manual/hu/")])
def test_the_console_and_the_desks_help_opens_their_page(director, tournament, language, prefix):
    client = Client()
    client.force_login(director)
    client.cookies["django_language"] = language
    for view, page in (("console", "tasks/clock/"), ("desk", "tasks/desk/")):
        url = f"/tournaments/{tournament.pk}/" + ("" if view == "console" else "desk/")
        html = client.get(url).content.decode()
        assert f'id="help-link" href="{prefix}{page}"' in html, view
