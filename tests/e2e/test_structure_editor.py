"""The blind structure editor in a real browser, by keyboard.

A director duplicates the Rimóc template, adds a level with Alt+L, types blinds (an invalid big
blind first: the row and the message show, nothing is saved), lengthens every level by five
minutes and watches the totals and the planned end change, removes the 100s and 500s from
Break 2 and gets them back with one click on the suggestion, saves with Ctrl+S, exports the
JSON and imports it again. Screenshots go to test-artifacts/screenshots/structure-*.png.
"""

import json
import re

import pytest
from playwright.sync_api import Page, expect

from clocks.domain.structures import structure_payload
from clocks.models import Structure
from clocks.structures.selectors import structure_data
from tests.e2e.conftest import PASSWORD, with_password


@pytest.fixture
def director_with_password(director):
    return with_password(director)


def wait_for_structure_page(page: Page, other_than: int | None = None) -> None:
    """Wait until the browser is on a saved structure's page other than `other_than` (a glob
    like /structures/*/ would already match the page the browser is leaving)."""

    def arrived(url: str) -> bool:
        found = re.search(r"/structures/(\d+)/$", url)
        return found is not None and int(found.group(1)) != other_than

    page.wait_for_url(arrived)


def shot(screenshot, page: Page, name: str) -> None:
    page.evaluate("window.scrollTo(0, 0)")  # the sticky top bar stays at the top of the image
    screenshot(page, name)


def cell(page: Page, row: int, field: str):
    return page.locator(f'#structure-rows tr[data-index="{row}"] [data-field="{field}"]')


def test_edit_a_structure_by_keyboard_then_export_and_import(
    live_server, page, login, screenshot, director_with_password, structure, tmp_path
):
    url = live_server.url
    login(page, director_with_password, PASSWORD)
    page.goto(f"{url}/structures/")
    expect(page.locator(".structures-table")).to_contain_text(structure.name)
    expect(page.locator(".structures-table .badge")).to_contain_text("Template")
    shot(screenshot, page, "structure-list")

    # The template is read-only; duplicate it to edit.
    page.get_by_role("link", name=structure.name).click()
    expect(cell(page, 0, "sb")).to_be_disabled()
    page.locator("#duplicate-structure").click()
    wait_for_structure_page(page, other_than=structure.pk)
    copy = Structure.objects.exclude(pk=structure.pk).get()
    assert page.url == f"{url}/structures/{copy.pk}/"
    expect(page.locator("#total-levels")).to_have_text("16")
    expect(page.locator("#total-time")).to_have_text("4 h 40 min")
    expect(page.locator("#planned-end")).to_have_text("23:40")
    expect(page.locator('[data-suggestion-for="9"]')).to_contain_text("As suggested")

    # Spreadsheet keys: Enter / arrow keys move down the same column.
    cell(page, 0, "bb").click()
    page.keyboard.press("Enter")
    expect(cell(page, 1, "bb")).to_be_focused()
    page.keyboard.press("ArrowDown")
    expect(cell(page, 2, "bb")).to_be_focused()

    # Add a level after level 16 (row 19) with Alt+L and type its blinds.
    cell(page, 18, "sb").click()
    page.keyboard.press("Alt+l")
    expect(cell(page, 19, "sb")).to_be_focused()
    expect(page.locator('#structure-rows tr[data-index="19"] .col-level')).to_have_text("Level 17")
    page.keyboard.type("20000")
    page.keyboard.press("Tab")
    expect(cell(page, 19, "bb")).to_be_focused()
    page.keyboard.type("100")  # smaller than the small blind: refused as you type
    expect(page.locator("#structure-error")).to_contain_text(
        "Row 20: the big blind must be at least the small blind."
    )
    expect(page.locator('#structure-rows tr[data-index="19"]')).to_have_class(
        re.compile(r"\bhas-error\b")
    )
    shot(screenshot, page, "structure-editor-error")
    page.keyboard.press("Control+a")
    page.keyboard.type("40000")
    expect(page.locator("#structure-error")).to_have_count(0)
    expect(page.locator("#total-levels")).to_have_text("17")
    expect(page.locator("#total-time")).to_have_text("4 h 55 min")

    # Shift every level by +5 minutes: 17 levels x 5 = 85 minutes more.
    page.locator("#shift-minutes").fill("5")
    page.locator("#shift-up").click()
    expect(cell(page, 0, "minutes")).to_have_value("20")
    expect(cell(page, 4, "minutes")).to_have_value("10")  # breaks keep their length
    expect(page.locator("#total-time")).to_have_text("6 h 20 min")
    expect(page.locator("#planned-end")).to_contain_text("01:20")
    page.locator("#start-time").fill("18:30")
    expect(page.locator("#planned-end")).to_contain_text("00:50")

    # Break 2: take the 100s and 500s off, then apply the suggestion with one click.
    break_2 = page.locator('#structure-rows tr[data-index="9"]')
    break_2.locator('[data-value="100"]').click()
    break_2.locator('[data-value="500"]').click()
    expect(break_2.locator('[data-value="100"]')).to_have_attribute("aria-pressed", "false")
    suggestion = page.locator('[data-suggestion-for="9"]')
    expect(suggestion).to_contain_text("Suggested: 100, 500")
    suggestion.get_by_role("button", name="Apply").click()
    expect(break_2.locator('[data-value="100"]')).to_have_attribute("aria-pressed", "true")
    expect(break_2.locator('[data-value="500"]')).to_have_attribute("aria-pressed", "true")
    expect(suggestion).to_contain_text("As suggested")
    shot(screenshot, page, "structure-editor")

    # Save with Ctrl+S from inside a cell.
    cell(page, 0, "sb").click()
    page.keyboard.press("Control+s")
    expect(page.locator("#toasts")).to_contain_text("Saved")
    expect(page.locator("#save-state")).to_have_text("All changes saved")
    saved = structure_data(Structure.objects.get(pk=copy.pk))
    levels = [p for p in saved.periods if p.kind == "level"]
    assert len(levels) == 17 and all(p.duration_seconds == 20 * 60 for p in levels)
    assert (levels[-1].small_blind, levels[-1].big_blind) == (20_000, 40_000)
    assert saved.periods[9].color_up == (100, 500)

    # Export, then import the file as a new structure.
    with page.expect_download() as download_info:
        page.locator("#export-json").click()
    exported = tmp_path / "structure.json"
    download_info.value.save_as(exported)
    assert download_info.value.suggested_filename.endswith(".json")
    payload = json.loads(exported.read_text())
    assert payload == structure_payload(saved)

    page.goto(f"{url}/structures/")
    page.locator("#import-file").set_input_files(str(exported))
    page.locator("#import-submit").click()
    wait_for_structure_page(page, other_than=copy.pk)
    imported = Structure.objects.exclude(pk__in=[structure.pk, copy.pk]).get()
    assert page.url == f"{url}/structures/{imported.pk}/"
    expect(page.locator("#toasts")).to_contain_text("Imported")
    assert structure_payload(structure_data(imported)) == payload

    page.goto(f"{url}/structures/{imported.pk}/print/?start=19:00")
    expect(page.locator(".sheet-table")).to_contain_text("color up 100, 500")
    shot(screenshot, page, "structure-print")


def test_a_bad_import_shows_why_and_saves_nothing(
    live_server, page, login, director_with_password, structure
):
    login(page, director_with_password, PASSWORD)
    page.goto(f"{live_server.url}/structures/")
    page.locator("#import-text").fill('{"name": "Broken", "levels": []}')
    page.locator("#import-submit").click()
    expect(page.locator("#toasts")).to_contain_text("The structure is not valid")
    assert Structure.objects.count() == 1


def test_a_new_structure_by_keyboard_rows(live_server, page, login, director_with_password):
    login(page, director_with_password, PASSWORD)
    page.goto(f"{live_server.url}/structures/new/")
    expect(page.locator("#save-state")).to_have_text("Not saved yet")
    expect(page.locator("#total-levels")).to_have_text("4")  # the starter: L1-L4 and a break
    cell(page, 1, "sb").click()
    page.keyboard.press("Alt+d")  # duplicate level 2 below itself
    expect(cell(page, 2, "sb")).to_be_focused()
    expect(cell(page, 2, "sb")).to_have_value("200")
    page.keyboard.press("Alt+ArrowDown")  # swap it with level 3
    expect(cell(page, 3, "sb")).to_be_focused()
    expect(cell(page, 2, "sb")).to_have_value("300")
    expect(page.locator("#structure-error")).to_contain_text("Row 4")  # 300/600 then 200/400
    page.keyboard.press("Alt+Delete")
    expect(page.locator("#structure-error")).to_have_count(0)
    expect(page.locator("#total-levels")).to_have_text("4")
    cell(page, 3, "minutes").click()
    page.keyboard.press("Alt+b")
    expect(cell(page, 4, "minutes")).to_be_focused()
    expect(page.locator('#structure-rows tr[data-index="4"] .col-level')).to_have_text("Break 1")
    page.locator("#structure-name").fill("Tuesday turbo")
    page.keyboard.press("Control+s")
    wait_for_structure_page(page)
    created = Structure.objects.get(name="Tuesday turbo")
    kinds = [p.kind for p in structure_data(created).periods]
    assert kinds == ["level", "level", "level", "level", "break", "break"]
