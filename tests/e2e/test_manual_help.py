"""The manual from the console and the desk (issue 28): `?` opens the page of that screen in a new
tab, in the reader's language, with its pictures, and the manual reads on a phone (nothing wider
than the window, no request leaving the server)."""

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.evening import Evening
from tourney.management.commands.manual import build_manual, manual_is_stale

pytestmark = pytest.mark.django_db(transaction=True)

PHONE = {"width": 390, "height": 844}


@pytest.fixture
def manual(settings):
    """The run's manual (tests/settings.py: TOURNEY_MANUAL_DIR), built when docs/ changed."""
    target = Path(django_settings.TOURNEY_MANUAL_DIR)
    if manual_is_stale(target):
        build_manual(target)
    settings.TOURNEY_MANUAL_DIR = target
    return target


def no_picture_broken(page) -> None:
    broken = page.evaluate(
        "() => [...document.images].filter((i) => !i.complete || !i.naturalWidth).map((i) => i.src)"
    )
    assert broken == [], broken


@pytest.mark.parametrize(
    ("language", "title"), [("en", "Running the clock"), ("hu", "Az óra kezelése")]
)
def test_the_consoles_question_mark_opens_its_page_of_the_manual(
    live_server, page, login, director, manual, language, title
):
    evening = Evening(director, players=18).arrange().running()
    with_password(director)
    login(page, director, PASSWORD)
    page.context.add_cookies(
        [{"name": "django_language", "value": language, "url": live_server.url}]
    )
    page.goto(live_server.url + reverse("tourney:console", args=[evening.tournament.pk]))
    outside: list[str] = []
    page.context.on(
        "request",
        lambda r: outside.append(r.url) if not r.url.startswith(live_server.url) else None,
    )
    with page.context.expect_page() as opened:
        page.keyboard.press("?")
    help_page = opened.value
    help_page.wait_for_load_state()
    prefix = "/manual/hu/" if language == "hu" else "/manual/"
    assert help_page.url == f"{live_server.url}{prefix}tasks/clock/"
    expect(help_page.locator("h1")).to_contain_text(title)
    no_picture_broken(help_page)

    # The desk's help link, and the manual on a phone: nothing wider than the window.
    page.goto(live_server.url + reverse("tourney:desk", args=[evening.tournament.pk]))
    link = page.locator("#help-link")
    expect(link).to_have_attribute("href", f"{prefix}tasks/desk/")
    help_page.set_viewport_size(PHONE)
    help_page.goto(live_server.url + link.get_attribute("href"))
    expect(help_page.locator("h1")).to_be_visible()
    no_picture_broken(help_page)
    width = help_page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the manual's page is {width} px wide on a phone"
    assert outside == [], f"the manual asked outside the server: {outside[:3]}"
