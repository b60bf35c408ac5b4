"""The geometry check on every screen a room shows (issue 13), in the states that broke.

One evening (tests/e2e/evening.py) is walked forward once per language (English, Hungarian,
Czech: a test each); at each stage every screen is opened at 1920x1080, 1366x768, 1440x900,
1280x720, portrait 1080x1920 and a 390x844 phone (the phone pages on a 360x740 one too) and
checked by tests/e2e/geometry.py: no text over other text or a control, nothing out of the
window (the TV: not even below), no text cut (not an accent's top, not an ellipsis' pixel), no
main action out of view. One browser, one page per test; the problems of the whole matrix are
listed together.

Every page a room shows is asserted: the home page, the lobby TV, the console, the desk, the
dealer's page and the dealer link, the seating chart (and its print on A4), the structure
editor, the tournament settings, the players index, the color-up page, the festival board and
overview, the results, a player's staff page, a player's own page and the public page.

Screenshots: test-artifacts/screenshots/geometry-<screen>-<stage>-<viewport>-<lang>.jpg.
"""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from clocks.display.selectors import display_token
from clocks.festival.selectors import board_token
from tables.dealer_links.selectors import dealer_token
from tables.models import FloorAction, TournamentTable
from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.evening import Evening
from tests.e2e.geometry import assert_geometry
from tourney.models import Entry
from tourney.player_page.selectors import player_token
from tourney.public_page.selectors import public_token

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # Layout does not depend on the database: the matrix runs once, in the SQLite run of CI.
    pytest.mark.skipif(
        os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="the geometry matrix runs in the SQLite run",
    ),
]

VIEWPORTS = {
    "1920x1080": {"width": 1920, "height": 1080},
    "1366x768": {"width": 1366, "height": 768},
    "1440x900": {"width": 1440, "height": 900},
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
        assert_geometry(page, name, picture="jpeg", **options)
    except AssertionError as exc:
        problems.append(str(exc))


# Every item of a paged list, page by page (display-layout.js), as the room sees it in turn.
ALL_PAGES = """(selector) => {
  const pager = Tourney.pagers(document.querySelector(selector))[0];
  const seen = [];
  for (let i = 0; i < pager.pages.length; i++) {
    seen.push(...[...pager.list.children].filter(li => !li.hidden).map(li => li.innerText));
    pager.next();
  }
  return {pages: pager.pages.length, seconds: pager.seconds, items: seen};
}"""


def tv_promises(page: Page, evening: Evening, size: str, problems: list[str]) -> None:
    """What the TV promises beyond geometry: the countdown at least a third of a landscape
    screen, the money numbers on screen, every move and every payout place shown in turn."""
    viewport = VIEWPORTS[size]
    where = f"tv-{evening.stage}-{size}"
    if (
        evening.stage in ("running", "final-table", "paused")
        and viewport["width"] > viewport["height"]
    ):
        box = page.locator("[data-field=countdown]").bounding_box()
        if box["height"] < viewport["height"] / 3:
            problems.append(f"{where}: the countdown is {box['height']:.0f}px high")
    if evening.stage in ("running", "final-table", "paused", "break"):
        for field in ("prize-pool", "average-bb", "rebuys", "players"):
            box = page.locator(f"[data-field={field}]").bounding_box()
            if not box or box["y"] + box["height"] > viewport["height"] or box["height"] < 8:
                problems.append(f"{where}: {field} is not on the screen")
    if evening.stage == "break":
        # the add-on's break says what is on sale (issue 32: only "no color-up")
        addon = page.locator("[data-field=addon-box]:visible")
        if not addon.count() or "20000" not in re.sub(r"\s", "", addon.first.inner_text()):
            problems.append(f"{where}: the add-on on sale is not on the break's screen")
    if evening.stage == "final-table":
        # the room is told it is down to the final table (issue 32: nothing said so)
        flag = page.locator("[data-field=final-flag]:visible")
        if not flag.count() or "finálasztal" not in flag.first.inner_text().casefold():
            problems.append(f"{where}: the screen does not say Final table")
        moves = page.evaluate(ALL_PAGES, ".dclock-moves")
        redraw = FloorAction.objects.filter(
            tournament=evening.tournament, kind=FloorAction.Kind.MOVE, parent__isnull=False
        ).order_by("-pk")[:9]
        for move in redraw.select_related("entry__player"):
            if not any(move.entry.player.name in item for item in moves["items"]):
                problems.append(f"{where}: {move.entry.player.name}'s move is never shown")
        if moves["pages"] > 1 and moves["seconds"] < 8:
            problems.append(f"{where}: a page of moves shows for {moves['seconds']} s only")
        payouts = page.evaluate(ALL_PAGES, ".dclock-payouts")
        for place in range(1, 10):
            if not any(item.startswith(f"{place}.") for item in payouts["items"]):
                problems.append(f"{where}: payout place {place} is never shown")


def tv_matrix(page: Page, url: str, evening: Evening, lang: str, problems: list[str]) -> None:
    stage = evening.stage
    for size, viewport in VIEWPORTS.items():
        page.set_viewport_size(viewport)
        page.goto(f"{url}?lang={lang}")
        page.wait_for_function("() => window.Tourney && Tourney.displayScreens")
        page.evaluate("document.fonts.ready")
        page.wait_for_function("() => !document.querySelector('[data-pager]:not([data-paged])')")
        phone = size == "390x844"  # a phone scrolls the page: the whole page is checked
        check(page, f"geometry-tv-{stage}-{size}-{lang}", problems, fixed_height=not phone,
              full_page=phone)  # fmt: skip
        if lang == "hu":
            tv_promises(page, evening, size, problems)


# Each language is its own test (its own evening): the matrix in one test held one CI worker for
# minutes while the other had nothing left to do.
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_lobby_tv_through_the_evening(live_server, browser, director, lang):
    evening = Evening(director).arrange()
    url = f"{live_server.url}/display/{display_token(evening.tournament.pk)}/"
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    problems: list[str] = []
    try:
        tv_matrix(page, url, evening, lang, problems)
        for step in (evening.running, evening.final_table, evening.paused, evening.color_up_break,
                     evening.finished):  # fmt: skip
            step()
            tv_matrix(page, url, evening, lang, problems)
    finally:
        context.close()
    assert not problems, "\n".join(problems)


# --- the staff's pages -------------------------------------------------------------------

# GEOMETRY_ONLY=dealer,console: check only those pages; GEOMETRY_SIZES=390x844: only those
# windows (while working on them). The matrix in CI checks every page at every size.
ONLY = {p for p in os.environ.get("GEOMETRY_ONLY", "").split(",") if p}
SIZES = {s for s in os.environ.get("GEOMETRY_SIZES", "").split(",") if s}
A4 = {"width": 794, "height": 1123}  # a printed page at 96 dpi


SETTLED = """() => document.readyState === "complete" && !document.querySelector(
  ".htmx-request, [hx-trigger^='load']:empty")"""


def staff_pages(tournament, stage: str) -> dict[str, str]:
    """The pages a room shows at `stage`, by name (URL paths)."""
    t = tournament.pk
    winner = Entry.objects.filter(tournament=tournament).order_by("place", "pk").first()
    console = reverse("tourney:console", args=[t])
    desk = reverse("tourney:desk", args=[t])
    dealer = reverse("tables:dealer", args=[t, 1])
    table = TournamentTable.objects.filter(tournament=tournament).order_by("number").first()
    dealer_link = reverse(
        "dealer_links:page", args=[dealer_token(t, table.number, table.dealer_link_generation)]
    )
    board = reverse("festival:board", args=[board_token(tournament.room)])
    # a player's own page (the longest name still in, or the winner) and the public page
    playing = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    own = max(playing.select_related("player"), key=lambda e: len(e.player.name), default=winner)
    player_page = reverse("player_page:page", args=[player_token(t, own.pk)])
    public = reverse("public_page:page", args=[public_token(tournament)])
    pages = {
        "running": {
            "home": reverse("tourney:home"),
            "console": console,
            "desk": desk,
            "dealer": dealer,
            "structure": reverse("clocks:structure_edit", args=[tournament.structure_id]),
            "settings": reverse("tourney:tournament_settings", args=[t]),
            "players": reverse("tourney:players"),
            "seating": reverse("tables:seating_chart", args=[t]),
            "dealer-link": dealer_link,
            "festival-board": board,
            "festival-overview": reverse("festival:overview"),
            "player-page": player_page,
            "public": public,
        },
        "final-table": {
            "console": console,
            "desk": desk,
            "dealer": dealer,
            "seating": reverse("tables:seating_chart", args=[t]),
        },
        "break": {
            "console": console,
            "colorup": reverse("clocks:colorup", args=[t, 1]),
            "dealer": dealer,
            "dealer-link": dealer_link,
            "festival-board": board,
            "festival-overview": reverse("festival:overview"),
        },
        "finished": {
            "console": console,
            "results": reverse("payouts:results", args=[t]),
            "player": reverse("penalties:player", args=[winner.player_id]),
            "player-page": player_page,
            "public": public,
        },
    }
    return pages.get(stage, {})


# Every page at every size in every language (issue 32: Hungarian's longer words broke the
# menu at 1440 px, where only English had been looked at).
# The dealer's phone pages are also checked on a small phone (a 360x740 Android).
SMALL_PHONE = {"360x740": {"width": 360, "height": 740}}
PHONE_PAGES = {"dealer", "dealer-link", "player-page"}


def staff_matrix(page: Page, base: str, pages: dict, stage: str, lang: str, problems: list) -> None:
    for size, viewport in {**VIEWPORTS, **SMALL_PHONE}.items():
        if SIZES and size not in SIZES:
            continue
        page.set_viewport_size(viewport)
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        for name, path in pages.items():
            if size in SMALL_PHONE and name not in PHONE_PAGES:
                continue
            # the public page's language is in its address (one cached copy per language)
            where = f"{path}?lang={lang}" if name == "public" else path
            page.goto(base + where)  # the page's own parts (htmx) load before the check
            page.wait_for_function(SETTLED)
            page.evaluate("document.fonts.ready")
            check(page, f"geometry-{name}-{stage}-{size}-{lang}", problems, full_page=True)


def print_check(page: Page, base: str, path: str, name: str, lang: str, problems: list) -> None:
    """The page as printed on A4 (its print style sheet) in `lang`."""
    page.set_viewport_size(A4)
    page.emulate_media(media="print")
    try:
        page.context.add_cookies([{"name": "django_language", "value": lang, "url": base}])
        page.goto(base + path)
        page.wait_for_function(SETTLED)
        check(page, f"geometry-{name}-print-{lang}", problems, full_page=True)
    finally:
        page.emulate_media(media="screen")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_staff_pages_through_the_evening(live_server, browser, director, lang):
    with_password(director)
    evening = Evening(director).arrange()
    context = browser.new_context(locale="en-GB")
    page = context.new_page()
    problems: list[str] = []
    try:
        page.goto(f"{live_server.url}/login/")
        if lang == "en":
            check(page, "geometry-login", problems)
        page.fill("#id_username", director.get_username())
        page.fill("#id_password", PASSWORD)
        page.press("#id_password", "Enter")
        page.wait_for_url(f"{live_server.url}/")
        for step in (evening.running, evening.final_table, evening.color_up_break,
                     evening.finished):  # fmt: skip
            step()
            pages = staff_pages(evening.tournament, evening.stage)
            if ONLY:
                pages = {k: v for k, v in pages.items() if k in ONLY}
            staff_matrix(page, live_server.url, pages, evening.stage, lang, problems)
            if evening.stage == "final-table" and (not ONLY or "seating" in ONLY):
                seating = reverse("tables:seating_chart", args=[evening.tournament.pk])
                print_check(page, live_server.url, seating, "seating", lang, problems)
    finally:
        context.close()
    assert not problems, "\n".join(problems)
