"""The console's first screen (issue 32 item 5): at 1366x768 and 1440x900 the clock and the
tables are in view, every other tool is one key away as a tab, and the page is a fraction of the
4,900 px it was; on a 390x844 phone the menu is folded and the clock comes first, the to-do
right after it. Hungarian, the 45-player evening (tests/e2e/evening.py)."""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.evening import Evening
from tests.e2e.geometry import assert_geometry

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="layout: runs in the SQLite run",
    ),
]


def _top(page, selector: str) -> float:
    return page.evaluate(
        "(s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY", selector
    )


@pytest.mark.parametrize("size", [(1366, 768), (1440, 900), (1920, 1080)])
def test_the_first_screen_holds_the_clock_and_the_tables(
    live_server, new_page, login, director, size, manual_picture
):
    evening = Evening(director).arrange().running()
    width, height = size
    page = new_page(viewport={"width": width, "height": height})
    page.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    login(page, with_password(director), PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[evening.tournament.pk]))
    page.evaluate("document.fonts.ready")
    clock = page.locator("#cc-toggle").bounding_box()
    assert clock["y"] + clock["height"] <= height
    assert _top(page, "#floor-tables .floor-table") < height  # the tables start on screen
    page_height = page.evaluate("document.documentElement.scrollHeight")
    # within two screens (was 4,752 px at 1440x900, then 1,786 px at 1366x768)
    assert page_height <= 2 * height, page_height
    # a table is its oval: the count and the button's and blinds' seats in the felt, the
    # table's number a link to its dealer page
    felt = page.locator("#floor-tables .floor-table").first.locator(".table-felt")
    expect(felt.locator(".table-felt-count")).to_have_text("9/9")
    expect(felt.locator(".table-felt-blinds")).to_have_text(re.compile(r"^D \d · SB \d · BB \d$"))
    expect(felt.locator("a.table-felt-number")).to_have_attribute("href", re.compile(r"/tables/1/"))
    # each clock button wears its key
    expect(page.locator("[data-op=next] kbd")).to_have_text("N")
    # the tools are tabs: one shown, each a key away, the last chosen kept
    expect(page.locator("#tool-bustout")).to_be_visible()
    expect(page.locator("#tool-activity")).to_be_hidden()
    page.locator("body").press("7")
    expect(page.locator("#tool-activity")).to_be_visible()
    expect(page.locator("#tool-bustout")).to_be_hidden()
    page.locator("body").press("b")  # the bust-out's own key opens its tab and its search
    expect(page.locator("#bustout-search")).to_be_focused()
    page.locator("#tab-penalties").click()
    page.reload()
    expect(page.locator("#tool-penalties")).to_be_visible()
    assert_geometry(page, f"console-first-screen-{width}x{height}-hu")
    if size == (1440, 900):
        page.locator("#tab-bustout").click()
        page.evaluate("window.scrollTo(0, 0)")
        manual_picture(page, "console-first-screen")


def test_on_a_phone_the_clock_and_the_to_do_come_first(
    live_server, new_page, login, director, manual_picture
):
    evening = Evening(director).arrange().running()
    page = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page.context.add_cookies([{"name": "django_language", "value": "hu", "url": live_server.url}])
    login(page, with_password(director), PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[evening.tournament.pk]))
    expect(page.locator("#main-nav")).to_be_hidden()  # the menu folded
    assert _top(page, ".cl-clock") < 120
    assert _top(page, ".cl-clock") < _top(page, ".page-header") < _top(page, ".cl-tables")
    assert _top(page, ".cl-now") < _top(page, ".page-header")
    toggle = page.locator(".cc-toggle, #cc-toggle").first.bounding_box()
    assert toggle["y"] + toggle["height"] <= 844
    assert_geometry(page, "console-first-screen-phone-hu")
    manual_picture(page, "console-first-screen-phone")
    page.locator(".nav-toggle").click()
    expect(page.locator("#main-nav")).to_be_visible()
    expect(page.locator(".nav-toggle")).to_have_attribute("aria-expanded", "true")
    assert_geometry(page, "console-menu-open-phone-hu")
