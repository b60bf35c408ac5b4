"""The dealer's phone and the console under a real evening (issue 13, items 7 and 8).

The dealer page shows the level, blinds, ante and time left (the TV's live clock); the bust-out
dialog shows whole names and does not move a row when a player is ticked; toasts leave by
themselves, at most three show, the newest keeps its Undo, and none covers a control (on the
phone: Button/SB/BB and "Hand finished"; on the console: the Done buttons of a final-table
redraw). Arranged through the services (tests/e2e/evening.py).
"""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PASSWORD, PHONE, with_password
from tests.e2e.evening import Evening
from tests.e2e.geometry import ARTIFACTS, assert_geometry

pytestmark = pytest.mark.django_db(transaction=True)

CONSOLE = {"width": 1366, "height": 768}

# Rectangles of the visible toasts and of every control outside them that they cover.
COVERED = """() => {
  const toasts = [...document.querySelectorAll('#toasts .toast:not(.is-leaving)')]
    .map(t => t.getBoundingClientRect());
  const hit = (a, b) =>
    a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
  return [...document.querySelectorAll('button, a[href], input, select, [data-toast-avoid]')]
    .filter(el => !el.closest('#toasts') && el.getClientRects().length)
    .filter(el => toasts.some(t => hit(t, el.getBoundingClientRect())))
    .map(el => (el.id || el.className) + ' ' + (el.innerText || '').trim().slice(0, 30));
}"""


def _sign_in(new_page, login, base: str, director, viewport, lang: str, **options) -> Page:
    page = new_page(viewport=viewport, **options)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
    login(page, director, PASSWORD)
    return page


def _toasts(page: Page, count: int) -> None:
    page.evaluate(
        """(n) => { for (let i = 1; i <= n; i++) Tourney.toast('Varga Ferenc Zsolt kiesett: ' + i +
           '. hely', {kind: 'ok', onUndo: () => Promise.resolve()}); }""",
        count,
    )


@pytest.fixture
def evening(director):
    with_password(director)
    return Evening(director).arrange().running()


def test_the_dealer_phone_clock_bustout_dialog_and_toasts(
    live_server, new_page, login, director, evening
):
    base = live_server.url
    phone = _sign_in(new_page, login, base, director, PHONE, "hu", is_mobile=True, has_touch=True)
    phone.clock.install()
    phone.goto(base + reverse("tables:dealer", args=[evening.tournament.pk, 1]))

    # The level, blinds, ante and time left, counting down with the TV's clock.
    strip = phone.locator("#dealer-clock")
    expect(strip.locator("#dc-level")).to_have_text("9. szint")
    expect(strip.locator("#dc-blinds")).to_have_text("25 000 / 50 000")
    expect(strip.locator("#dc-ante")).to_have_text("ante 50 000")
    expect(strip.locator("#dc-time")).to_have_text(re.compile(r"^\d{1,2}:\d\d$"))
    before = strip.locator("#dc-time").inner_text()
    phone.clock.run_for(2_000)
    expect(strip.locator("#dc-time")).not_to_have_text(before)

    # Bust-out: whole names, and ticking a player moves no row and no button.
    phone.locator("#bustout-open").tap()
    dialog = phone.locator("#bustout-dialog")
    expect(dialog).to_be_visible()
    rows = dialog.locator(".bust-seat-pick")
    buttons = ["#bustout-finish", "#bustout-only"]

    def boxes():
        return [rows.nth(i).bounding_box() for i in range(rows.count())] + [
            dialog.locator(b).bounding_box() for b in buttons
        ]

    first = boxes()
    assert_geometry(phone, "dealer-bustout-dialog-390x844-hu")
    for i in (0, 1):
        rows.nth(i).tap()
        expect(dialog.locator("input[name=entry]").nth(i)).to_be_checked()
        assert boxes() == first, "a row or button moved when a player was ticked"
    assert_geometry(phone, "dealer-bustout-dialog-ticked-390x844-hu")
    dialog.locator("[data-dialog-close]").tap()

    # Toasts: three at most; where three would cover something the newest shows alone, with
    # its Undo; none over a control; gone by themselves.
    _toasts(phone, 5)
    expect(phone.locator("#toasts .toast:not(.is-leaving)")).to_have_count(3)
    expect(phone.locator("#toasts .toast").last.locator(".toast-undo")).to_be_visible()
    assert phone.evaluate(COVERED) == []
    # A toast floats over the page's text for its few seconds; its own text is checked.
    phone.evaluate("document.getElementById('toasts').dataset.geometrySkip = 'overlap'")
    assert_geometry(phone, "dealer-toasts-390x844-hu")
    phone.clock.run_for(13_000)
    expect(phone.locator("#toasts .toast")).to_have_count(0)


def test_console_toasts_leave_the_redraw_done_buttons_free(
    live_server, new_page, login, director, evening
):
    evening.final_table()  # the redraw's nine moves, each with its Done button
    base = live_server.url
    console = _sign_in(new_page, login, base, director, CONSOLE, "cs")
    console.goto(base + reverse("tourney:console", args=[evening.tournament.pk]))
    todo = console.locator("#floor-todo")
    expect(todo.locator("form.floor-move-done button").first).to_be_visible()
    todo.scroll_into_view_if_needed()
    for y in (0, 300, 600):  # wherever the list is on the screen
        console.evaluate(
            f"document.querySelector('#floor-todo').scrollIntoView(); scrollBy(0, {y})"
        )
        _toasts(console, 4)
        expect(console.locator("#toasts .toast:not(.is-leaving)")).to_have_count(3)
        # placed on the next animation frame: poll, with the default deadline
        try:
            console.wait_for_function(f"() => ({COVERED})().length === 0")
        except Exception:
            raise AssertionError(f"toasts cover at +{y}px: {console.evaluate(COVERED)}") from None
    console.screenshot(path=str(ARTIFACTS / "console-toasts-1366x768-cs.png"))
