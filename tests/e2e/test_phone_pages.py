"""Pages that did not fit a floor person's phone (360x740, 390x844) with an evening's long
Hungarian names: the player links page, with and without a toast, fits the window
(tests/e2e/phone_fit.py) in en and hu; the players and the desk's search boxes' placeholders are
whole in en, hu and cs (the desk's on its computer too).
Screenshots: test-artifacts/screenshots/phone-*.png."""

import unicodedata

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.conftest import seat_players
from tests.e2e.conftest import DESKTOP, PASSWORD, with_password
from tests.e2e.geometry import assert_geometry
from tests.e2e.phone_fit import PHONES, action_problems, each_language, fit_problems
from tourney.players.usecases import player_create

pytestmark = pytest.mark.django_db(transaction=True)

LANGUAGES = ("en", "hu")
NAMES = [
    "Gyöngyösi-Szentmiklóssy Bernadett", "Törökszentmiklósi Ifj. Ödön",
    "Szentgyörgyvölgyi Zsófia Boglárka", "Hajdú-Szoboszlay Kornélia", "Řezníček Přemysl",
]  # fmt: skip


@pytest.fixture
def sign_in(login, director):
    return lambda page: login(page, with_password(director), PASSWORD)


@pytest.mark.parametrize("size", list(PHONES))
def test_the_player_links_page_fits_a_phone(live_server, browser, sign_in, api, tournament, size):
    tournament.name = "Péntek esti Deepstack #47 · Rimóc bajnokság 9. forduló"
    tournament.save(update_fields=["name"])
    seat_players(api, tournament, NAMES)

    def check(page, name, lang):
        problems = fit_problems(page, name, size)
        problems += action_problems(page, name, "#player-links td.actions .btn", size)
        # a revoked link's toast: the page makes room for it (static/js/toasts.js)
        row = page.locator("#player-links tbody tr").first
        row.locator("[data-revoke]").click()
        expect(page.locator("#toasts .toast")).to_be_visible()
        problems += fit_problems(page, f"{name}-toast", size)
        # Submitted as the button does, not clicked: under CI's load the toast moved the page
        # as the click landed, which then missed the button (the row stayed revoked).
        row.locator("[data-undo-revoke]").evaluate("b => b.form.requestSubmit(b)")
        expect(row.locator(".badge.ok")).to_be_visible()
        return problems

    url = live_server.url + reverse("player_page:links", args=[tournament.pk])
    problems = each_language(browser, sign_in, url, size, LANGUAGES, check, "phone-links")
    assert not problems, "\n".join(problems)


# The placeholder's width in the input's font against the room the input gives its text; and
# the same words typed in: how far the box has to scroll to show their end (`over`, 0 when
# whole), which counts what else the box draws inside its padding (a search box's clear button).
PLACEHOLDER_FIT = """(selector) => {
  const input = document.querySelector(selector);
  const s = getComputedStyle(input);
  const ctx = document.createElement("canvas").getContext("2d");
  ctx.font = `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
  const room = input.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
  const typed = input.value;
  input.value = input.placeholder;
  input.scrollLeft = 1e6;
  const over = input.scrollLeft;
  input.value = typed;
  return {text: input.placeholder, width: ctx.measureText(input.placeholder).width, room, over};
}"""


@pytest.mark.parametrize("size", list(PHONES))
def test_the_players_search_placeholder_is_whole_on_a_phone(live_server, browser, sign_in, size):
    def check(page, name, lang):
        fit = page.evaluate(PLACEHOLDER_FIT, "#players-q")
        if fit["width"] > fit["room"]:
            problems = [f"{name}: the placeholder {fit['text']!r} is {fit['width']:.0f}px in "
                        f"{fit['room']:.0f}px"]  # fmt: skip
        else:
            problems = []
        return problems + fit_problems(page, name, size)

    url = live_server.url + reverse("tourney:players")
    problems = each_language(browser, sign_in, url, size, ("en", "hu", "cs"), check, "phone-q")
    assert not problems, "\n".join(problems)


# Where each e-mail cell's text goes onto a new line: the characters either side of each break.
EMAIL_BREAKS = """() => [...document.querySelectorAll("#players-table td[data-label]")]
  .filter((td) => td.innerText.includes("@")).map((td) => {
    const text = td.innerText.trim(), breaks = [];
    const walker = document.createTreeWalker(td, NodeFilter.SHOW_TEXT);
    let top = null, before = "";
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.length; i++) {
        const range = document.createRange();
        range.setStart(node, i); range.setEnd(node, i + 1);
        const rect = range.getClientRects()[0];
        if (!rect) continue;
        if (top !== null && rect.top > top + 2) breaks.push(before + "|" + node.data[i]);
        top = rect.top; before = node.data[i];
      }
    }
    return {text, breaks};
  })"""


@pytest.mark.parametrize("size", list(PHONES))
def test_e_mails_wrap_after_the_at_or_before_a_dot_on_a_phone(
    live_server, browser, sign_in, director, size
):
    for i, name in enumerate(NAMES):
        local = unicodedata.normalize("NFKD", name.split()[0].lower())
        local = local.encode("ascii", "ignore").decode()
        player_create(actor=director, name=name, email=f"{local}.{i}@rimocpokerklub-tagok.hu")

    def check(page, name, lang):
        problems = fit_problems(page, name, size)
        for cell in page.evaluate(EMAIL_BREAKS):
            bad = [b for b in cell["breaks"] if b[0] not in "@-" and b[-1] != "."]
            if bad:
                problems.append(f"{name}: {cell['text']!r} breaks mid-word at {bad}")
        return problems

    url = live_server.url + reverse("tourney:players")
    problems = each_language(browser, sign_in, url, size, LANGUAGES, check, "phone-emails")
    assert not problems, "\n".join(problems)


def placeholder_problems(page, name: str, selector: str) -> list[str]:
    fit = page.evaluate(PLACEHOLDER_FIT, selector)
    if fit["width"] <= fit["room"] and fit["over"] == 0:
        return []
    return [f"{name}: the placeholder {fit['text']!r} is {fit['width']:.0f}px in "
            f"{fit['room']:.0f}px, typed in it scrolls {fit['over']}px"]  # fmt: skip


@pytest.mark.parametrize("size", [*PHONES, "desktop"])
def test_the_desk_search_placeholder_is_whole(live_server, browser, sign_in, tournament, size):
    """The desk's search box (focus starts there) says what to type, whole, on a phone and on
    the desk's computer, in en, hu and cs (was cut: 'Type a name, nickname or phone…')."""
    url = live_server.url + reverse("tourney:desk", args=[tournament.pk])

    def check(page, name, lang):
        problems = placeholder_problems(page, name, "#player-search")
        if size == "desktop":
            return problems + geometry_problems_named(page, name)
        return problems + fit_problems(page, name, size)

    if size != "desktop":
        problems = each_language(browser, sign_in, url, size, ("en", "hu", "cs"), check, "desk-q")
    else:
        context = browser.new_context(viewport=DESKTOP)
        page, problems = context.new_page(), []
        try:
            sign_in(page)
            for lang in ("en", "hu", "cs"):
                page.context.add_cookies([{"name": "django_language", "value": lang, "url": url}])
                page.goto(url)
                problems += check(page, f"desk-q-desktop-{lang}", lang)
        finally:
            context.close()
    assert not problems, "\n".join(problems)


def geometry_problems_named(page, name: str) -> list[str]:
    try:
        assert_geometry(page, name)
    except AssertionError as exc:
        return [str(exc)]
    return []
