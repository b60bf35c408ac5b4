"""The geometry check on every screen a room shows (issue 13), in the states that broke.

One evening (tests/e2e/evening.py) is walked forward once; at each stage every screen is
opened at 1920x1080, 1366x768, 1280x720, portrait 1080x1920 and a 390x844 phone, in English,
Hungarian and Czech, and checked by tests/e2e/geometry.py: no text over other text or a
control, nothing out of the window (the TV: not even below), no text cut. One browser, one
page per test; the problems of the whole matrix are listed together.

Screenshots: test-artifacts/screenshots/geometry-<screen>-<stage>-<viewport>-<lang>.png.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page

from clocks.display_links import display_token
from tests.e2e.evening import Evening
from tests.e2e.geometry import assert_geometry

pytestmark = pytest.mark.django_db(transaction=True)

VIEWPORTS = {
    "1920x1080": {"width": 1920, "height": 1080},
    "1366x768": {"width": 1366, "height": 768},
    "1280x720": {"width": 1280, "height": 720},
    "1080x1920": {"width": 1080, "height": 1920},
    "390x844": {"width": 390, "height": 844},
}
LANGUAGES = ("en", "hu", "cs")


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    """Each TV page holds an event stream; a short heartbeat ends its thread once left."""
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


def check(page: Page, name: str, problems: list[str], **options) -> None:
    try:
        assert_geometry(page, name, **options)
    except AssertionError as exc:
        problems.append(str(exc))


def tv_matrix(page: Page, url: str, stage: str, problems: list[str]) -> None:
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        for lang in LANGUAGES:
            page.goto(f"{url}?lang={lang}")
            page.wait_for_function("() => window.Tourney && Tourney.displayScreens")
            page.evaluate("document.fonts.ready")
            page.wait_for_function(
                "() => !document.querySelector('[data-pager]:not([data-paged])')"
            )
            phone = size == "390x844"  # a phone scrolls the page: the whole page is checked
            check(page, f"geometry-tv-{stage}-{size}-{lang}", problems, fixed_height=not phone,
                  full_page=phone)  # fmt: skip


def test_the_lobby_tv_through_the_evening(live_server, browser, director):
    evening = Evening(director).arrange()
    url = f"{live_server.url}/display/{display_token(evening.tournament.pk)}/"
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    problems: list[str] = []
    try:
        tv_matrix(page, url, "seats", problems)
        for step in (evening.running, evening.final_table, evening.paused, evening.color_up_break,
                     evening.finished):  # fmt: skip
            step()
            tv_matrix(page, url, evening.stage, problems)
    finally:
        context.close()
    assert not problems, "\n".join(problems)
