"""The lobby display's live clock in a real browser, with Playwright's clock API (never slept).

Two TVs whose own clocks are 40 s fast and 65 s slow estimate the server's offset from real
/api/v1/time samples, then show the same second and flip level together at zero, before the
server says so. The server's time is real and is not moved: once each page holds its offset,
the test pauses each browser at the *same estimated server instant* (its own local time minus
its offset) and moves both by the same ticks. What a page shows then depends only on its
estimate of the server clock, whose error is a few milliseconds on this machine; the instants
are chosen half a second away from any second boundary, so that error cannot change a digit.
"""

import re
import time

import pytest
from playwright.sync_api import Page, expect

from clocks.clock.usecases import clock_advance_one, clock_operate
from clocks.display.selectors import display_token
from clocks.domain.structures import Chip, Period, StructureData
from clocks.structures.usecases import structure_create
from tests.conftest import numbered_players, seat_players
from tests.e2e.conftest import TV
from tests.e2e.geometry import assert_geometry
from tourney.tournaments.usecases import tournament_create, tournament_message_set

pytestmark = pytest.mark.django_db(transaction=True)

PORTRAIT = {"width": 1080, "height": 1920}
LEVEL_MS = 60_000


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    """A stream notices a closed page only when it next writes: with a short heartbeat the
    test server's stream threads end (and give their database connections back) at once."""
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


@pytest.fixture
def short_tournament(api, director, room):
    """A five-minute first level, then one-minute levels and a two-minute break that colors up
    the 25s; twelve seated players."""
    structure = structure_create(
        actor=director,
        data=StructureData(
            name="Turbo test (1-minute levels)",
            chips=(
                Chip(25, "white"),
                Chip(100, "black"),
                Chip(500, "purple"),
                Chip(1_000, "yellow"),
            ),
            periods=(
                Period("level", 300, 25, 50),
                Period("level", 60, 50, 100, 100),
                Period("break", 120, color_up=(25,)),
                Period("level", 60, 100, 200, 200),
                Period("level", 60, 200, 400, 400),
            ),
            starting_stack=20_000,
        ),
    )
    tournament = tournament_create(
        actor=director,
        name="Thursday turbo",
        structure_id=structure.pk,
        starting_stack=20_000,
        buy_in=10_000,
        fee=1_000,
        room_id=room.pk,
    )
    seat_players(api, tournament, numbered_players(12))
    return tournament


def open_display(new_page, url: str, skew_ms: int, viewport=TV) -> Page:
    """A display whose browser clock is `skew_ms` off the real time, synced to the server."""
    page = new_page(viewport=viewport)
    page.clock.install(time=(time.time() * 1000 + skew_ms) / 1000)
    page.goto(url)
    page.wait_for_function(
        "() => window.Tourney && Tourney.serverClock.synced && Tourney.displayScreens"
    )
    offset = page.evaluate("Tourney.serverClock.offset")
    assert abs(offset + skew_ms) < 1_000, f"offset {offset} ms for a {skew_ms} ms skew"
    return page


def pause_at_server_time(page: Page, server_ms: int) -> None:
    """Stop this page's clock where its estimated server time is `server_ms`."""
    offset = page.evaluate("Tourney.serverClock.offset")
    page.clock.pause_at((server_ms - offset) / 1000)
    page.clock.run_for(20)  # one animation frame at the new time


def shown(page: Page) -> tuple[str, str, str]:
    screen = page.locator("[data-display-screen]")
    return (
        screen.locator('[data-field="level"]').inner_text(),
        screen.locator('[data-field="countdown"]').inner_text(),
        screen.locator('[data-field="blinds"]').inner_text(),
    )


def test_two_skewed_displays_show_the_same_second_and_flip_together(
    live_server, new_page, director, short_tournament, screenshot
):
    tournament = short_tournament
    clock = clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    ends = clock["ends_at_ms"]
    url = f"{live_server.url}/display/{display_token(tournament.pk)}/"
    fast = open_display(new_page, url, +40_000)
    slow = open_display(new_page, url, -65_000)

    # 30.5 s before the end of level 1, on both screens
    for page in (fast, slow):
        pause_at_server_time(page, ends - 30_500)
    for page in (fast, slow):
        expect(page.locator('[data-field="countdown"]')).to_have_text("0:31")
        assert shown(page) == ("LEVEL 1", "0:31", "25 / 50")

    # every second down to the last one, the same digit on both
    for remaining in range(30, 0, -1):
        for page in (fast, slow):
            page.clock.run_for(1_000)
        assert shown(fast) == shown(slow) == ("LEVEL 1", f"0:{remaining:02d}", "25 / 50")

    # 0.5 s left -> 0.5 s into level 2: both flip on their own, before the server knows
    for page in (fast, slow):
        page.clock.run_for(1_000)
    for page in (fast, slow):
        screen = page.locator("[data-display-screen]")
        expect(screen).to_have_class(re.compile(r"\bis-predicted\b"))
        assert shown(page) == ("LEVEL 2", "1:00", "50 / 100")
        expect(screen.locator('[data-field="ante"]')).to_have_text("100")
    screenshot(fast, "display-flip-fast", full_page=False)
    screenshot(slow, "display-flip-slow", full_page=False)

    # the server's own change (its timer, stamped at the scheduled instant) confirms it
    assert clock_advance_one(tournament.pk, now=ends + 500) == 1
    for page in (fast, slow):
        screen = page.locator("[data-display-screen]")
        expect(screen).not_to_have_class(re.compile(r"\bis-predicted\b"))
        assert shown(page) == ("LEVEL 2", "1:00", "50 / 100")

    # past the last period (level 2, the break, levels 3 and 4): the structure has run out, not
    # the tournament (issue 24): both play on at level 4 and count the time since, together
    for page in (fast, slow):
        pause_at_server_time(page, ends + 5 * LEVEL_MS + 7_500)
    for page in (fast, slow):
        screen = page.locator("[data-display-screen]")
        expect(screen).to_have_class(re.compile(r"\bis-overtime\b"))
        assert shown(page) == ("LEVEL 4", "+0:07", "200 / 400")
        expect(screen.locator('[data-field="next"]')).to_have_text("Last level: play goes on")
        expect(screen).not_to_contain_text("Tournament finished")
    screenshot(fast, "display-past-the-last-level", full_page=False)


def test_screens_running_last_minute_break_paused_offline_portrait(
    live_server, new_page, director, short_tournament, screenshot
):
    tournament = short_tournament
    tournament_message_set(
        actor=director,
        tournament_id=tournament.pk,
        message="Late registration until the end of level 4 · Dinner break after level 8",
    )
    clock = clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    ends = clock["ends_at_ms"]
    url = f"{live_server.url}/display/{display_token(tournament.pk)}/"
    tv = open_display(new_page, url, 0)
    screen = tv.locator("[data-display-screen]")
    countdown = screen.locator('[data-field="countdown"]')

    # running, minutes left in level 1
    pause_at_server_time(tv, ends - 165_300)
    expect(countdown).to_have_text("2:46")
    expect(screen).to_have_class(re.compile(r"\bis-running\b"))
    expect(screen).not_to_have_class(re.compile(r"\bis-last-minute\b"))
    box = countdown.bounding_box()
    assert box["height"] >= TV["height"] / 3, box  # a third of the screen at least
    width = box["width"]
    tv.clock.run_for(1_000)
    assert countdown.bounding_box()["width"] == width  # tabular digits: nothing moves
    expect(screen.locator('[data-field="players"]')).to_have_text("12")
    expect(screen.locator('[data-field="prize-pool"]')).to_have_text("120,000")
    expect(screen.locator('[data-field="average-bb"]')).to_have_text("400 BB")
    expect(screen.locator('[data-field="to-break"]')).to_have_text("3:45")
    expect(screen.locator('[data-field="chips"] .dchip')).to_have_count(4)
    screenshot(tv, "display-running", full_page=False)

    # one minute left in level 2: amber, with the word
    pause_at_server_time(tv, ends + LEVEL_MS - 42_500)
    expect(countdown).to_have_text("0:43")
    expect(screen).to_have_class(re.compile(r"\bis-last-minute\b"))
    expect(screen.locator(".is-minute-flag")).to_be_visible()
    screenshot(tv, "display-one-minute", full_page=False)

    # the break: its own screen, its countdown and the color-up of the 25s
    pause_at_server_time(tv, ends + LEVEL_MS + 24_500)
    expect(screen).to_have_class(re.compile(r"\bis-break\b"))
    expect(screen.locator('[data-field="level"]')).to_have_text("Break")
    expect(countdown).to_have_text("1:36")
    expect(screen.locator('[data-field="colorup"]')).to_contain_text("25")
    expect(screen.locator('[data-field="break-next"]')).to_have_text("Level 3 · 100 / 200")
    screenshot(tv, "display-break", full_page=False)

    # paused by the director (on the real server clock: level 1, a minute minus a moment left)
    clock_operate(actor=director, tournament_id=tournament.pk, operation="pause")
    tv.clock.run_for(20)
    expect(screen).to_have_class(re.compile(r"\bis-paused\b"))
    expect(screen.locator(".is-paused-flag")).to_be_visible()
    expect(screen.locator(".is-paused-flag")).to_have_text("Paused")
    expect(screen.locator('[data-field="level"]')).to_have_text("Level 1")
    screenshot(tv, "display-paused", full_page=False)

    # offline: the indicator shows and the clock keeps its state
    clock_operate(actor=director, tournament_id=tournament.pk, operation="resume")
    tv.clock.run_for(20)
    expect(screen).to_have_class(re.compile(r"\bis-running\b"))
    tv.context.set_offline(True)
    tv.evaluate("window.dispatchEvent(new Event('offline'))")
    expect(screen.locator(".dscreen-offline")).to_be_visible()
    before = countdown.inner_text()
    tv.clock.run_for(3_000)
    assert countdown.inner_text() != before  # still counting
    screenshot(tv, "display-offline", full_page=False)
    tv.context.set_offline(False)

    # portrait: a 1080x1920 screen, ten more minutes on the clock (about 14:5x left)
    clock_operate(actor=director, tournament_id=tournament.pk, operation="adjust", seconds=600)
    tall = open_display(new_page, url, 0, viewport=PORTRAIT)
    tall_countdown = tall.locator('[data-field="countdown"]')
    expect(tall_countdown).to_have_text(re.compile(r"^1[45]:\d\d$"))
    assert tall_countdown.bounding_box()["width"] <= PORTRAIT["width"]
    screenshot(tall, "display-portrait", full_page=False)


# Records what the page would say instead of speaking (headless Chromium has no voices).
SPEECH_STUB = """
window.__spoken = [];
window.SpeechSynthesisUtterance = function (text) { this.text = text; };
Object.defineProperty(window, "speechSynthesis", { value: {
  speak: function (u) { window.__spoken.push({ text: u.text, lang: u.lang }); },
  cancel: function () {}, getVoices: function () { return []; },
} });
"""


def test_sound_is_off_until_asked_then_announces_in_the_page_language(
    live_server, new_page, director, short_tournament
):
    tournament = short_tournament
    ends = clock_operate(actor=director, tournament_id=tournament.pk, operation="start")[
        "ends_at_ms"
    ]
    url = f"{live_server.url}/display/{display_token(tournament.pk)}/"
    page = new_page(viewport=TV)
    page.add_init_script(SPEECH_STUB)
    page.clock.install(time=time.time())
    page.goto(url)
    page.wait_for_function("() => window.Tourney && Tourney.serverClock.synced")
    button = page.locator("#display-sound")
    expect(button).to_have_attribute("aria-pressed", "false")
    expect(button).to_have_text("Sound on")

    pause_at_server_time(page, ends - 62_000)
    page.clock.run_for(1_000)
    assert page.evaluate("window.__spoken") == []  # off by default: nothing said

    button.click()
    expect(button).to_have_attribute("aria-pressed", "true")
    expect(button).to_have_text("Sound off")
    assert page.evaluate("localStorage.getItem('tourney.display.sound')") == "on"

    for server_ms in (ends - 59_500, ends + 500, ends + LEVEL_MS + 500):
        pause_at_server_time(page, server_ms)  # a minute left, level 2, the break
        page.clock.run_for(1_000)  # the speech follows the beep
    spoken = page.evaluate("window.__spoken")
    assert [s["text"] for s in spoken] == [
        "One minute left in level 1.",
        "Level 2. Blinds 50 and 100. Ante 100.",
        "Break for 2 minutes. Color-up: the white 25 chips leave the table.",
    ]
    assert {s["lang"] for s in spoken} == {"en"}

    # remembered on the next load
    page.reload()
    expect(page.locator("#display-sound")).to_have_attribute("aria-pressed", "true")


def test_one_screen_rotates_between_tournaments_each_with_its_own_clock(
    live_server, new_page, director, short_tournament, tournament
):
    clock_operate(actor=director, tournament_id=short_tournament.pk, operation="start")
    tokens = [display_token(short_tournament.pk), display_token(tournament.pk)]
    page = new_page(viewport=TV)
    page.clock.install(time=time.time())
    page.goto(f"{live_server.url}/display/rotate/?t={tokens[0]}&t={tokens[1]}&every=10")
    first, second = page.locator("[data-display-screen]").all()
    expect(first).to_be_visible()
    expect(second).to_be_hidden()
    expect(first.locator(".display-title")).to_have_text("Thursday turbo")
    expect(first).to_have_class(re.compile(r"\bis-running\b"))
    page.clock.run_for(10_000)
    expect(second).to_be_visible()
    expect(first).to_be_hidden()
    expect(second.locator(".display-title")).to_have_text("Friday deepstack")
    expect(second).to_have_class(re.compile(r"\bis-pending\b"))  # not started: the lobby
    page.clock.run_for(10_000)
    expect(first).to_be_visible()


def test_hand_for_hand_on_the_bubble_says_so_on_the_tv_not_just_paused(
    live_server, new_page, director, short_tournament
):
    """The evening (production run): at the bubble the director turned hand-for-hand on and the
    lobby TV, never reloaded, said only "MEGÁLLÍTVA" (paused), as if the tournament stopped."""
    from tables.hand_for_hand.usecases import hand_for_hand_set

    t = short_tournament.pk
    clock_operate(actor=director, tournament_id=t, operation="start")
    tv = new_page(viewport=TV)
    tv.goto(f"{live_server.url}/display/{display_token(t)}/?lang=hu")
    screen = tv.locator(".display-screen")
    expect(screen).to_have_class(re.compile(r"\bis-running\b"))
    h4h, paused = tv.locator(".is-h4h-flag"), tv.locator(".is-paused-flag")

    hand_for_hand_set(actor=director, tournament_id=t, active=True)
    expect(h4h).to_be_visible()
    expect(h4h).to_have_text("Hand-for-hand")  # as Hungarian rooms say it
    expect(paused).to_be_hidden()

    hand_for_hand_set(actor=director, tournament_id=t, active=False)
    expect(h4h).to_be_hidden()
    expect(screen).to_have_class(re.compile(r"\bis-running\b"))


@pytest.mark.parametrize("viewport", [TV, {"width": 1080, "height": 1920}])
def test_the_hand_for_hand_flag_leaves_the_long_title_and_the_moves_whole(
    live_server, new_page, director, short_tournament, viewport
):
    """The evening's bubble on PostgreSQL: when hand-for-hand came on, the landscape TV's title
    "Csütörtöki Deepstack · Rimóc Kupa 7. forduló" was cut at "fordul" (1097 px in 1079 px) and
    the portrait TV's moves panel showed its last move cut (242 px in 227 px): the flag took
    room in the header but the screen was not fitted again until the next level."""
    from tables.hand_for_hand.usecases import hand_for_hand_set
    from tourney.models import Tournament

    t = short_tournament.pk
    Tournament.objects.filter(pk=t).update(name="Csütörtöki Deepstack · Rimóc Kupa 7. forduló")
    clock_operate(actor=director, tournament_id=t, operation="start")
    tv = new_page(viewport=viewport)
    tv.goto(f"{live_server.url}/display/{display_token(t)}/?lang=hu")
    expect(tv.locator(".display-screen")).to_have_class(re.compile(r"\bis-running\b"))
    assert_geometry(tv, f"display-h4h-before-{viewport['width']}", fixed_height=True)
    hand_for_hand_set(actor=director, tournament_id=t, active=True)
    expect(tv.locator(".is-h4h-flag")).to_be_visible()
    tv.wait_for_function(
        "() => [...document.querySelectorAll('.display-title')]"
        ".every(h => h.scrollWidth <= h.clientWidth + 1)"
    )
    assert_geometry(tv, f"display-h4h-on-{viewport['width']}", fixed_height=True)


def test_the_portrait_break_screen_shows_the_next_blinds_as_large_as_their_label(
    live_server, new_page, director, short_tournament
):
    """The evening's portrait TV (1080x1920, hu) at both breaks: "KÖVETKEZŐ" was written 46 px
    high and the next level it announces, "10. szint · 700 / 1 400", 23 px (its size was
    capped at 2.1 % of the width, meant for the landscape screen's narrow box, while the
    portrait box has the whole width): the figure the room looks for, the smallest."""
    t = short_tournament.pk
    clock_operate(actor=director, tournament_id=t, operation="start")
    clock_operate(actor=director, tournament_id=t, operation="jump", period_index=2)
    tv = new_page(viewport={"width": 1080, "height": 1920})
    tv.goto(f"{live_server.url}/display/{display_token(t)}/?lang=hu")
    expect(tv.locator(".display-screen")).to_have_class(re.compile(r"\bis-break\b"))
    value = tv.locator('[data-field="break-next"]')
    expect(value).to_have_text("3. szint · 100 / 200")
    sizes = value.evaluate(
        "el => [el, el.parentElement.querySelector('.display-label')]"
        ".map(e => parseFloat(getComputedStyle(e).fontSize))"
    )
    assert sizes[0] >= sizes[1], sizes
    assert_geometry(tv, "display-break-portrait-next", fixed_height=True)


ONE_LINE = """(el) => {
  // every "a / b" pair and "ante n" figure in el sits on one line
  const out = [], nodes = [];
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const n = "[\\d\\u00a0\\u202f,.]*";
  const figure = new RegExp("(\\d[\\d\\s\\u00a0\\u202f,.]*\\/[\\s\\u00a0]*\\d" + n
    + "|ante[\\s\\u00a0]+\\d" + n + ")", "g");
  let full = "";
  for (let t; (t = walker.nextNode()); ) { nodes.push([t, full.length]); full += t.data; }
  const at = (i) => {
    for (let k = nodes.length - 1; k >= 0; k--)
      if (nodes[k][1] <= i) return [nodes[k][0], i - nodes[k][1]];
  };
  for (const m of full.matchAll(figure)) {
    const r = document.createRange();
    r.setStart(...at(m.index));
    r.setEnd(...at(m.index + m[0].length - 1));
    r.setEnd(r.endContainer, r.endOffset + 1);
    const rects = [...r.getClientRects()].filter((b) => b.width > 0);
    if (new Set(rects.map((b) => Math.round(b.bottom))).size > 1) out.push(m[0]);
  }
  return out;
}"""


@pytest.mark.parametrize("viewport", [{"width": 1366, "height": 768}, TV])
def test_blind_figures_never_break_in_hungarian(
    live_server, new_page, login, director, room, api, viewport, screenshot
):
    """Evening run, 1366x768: the console's "400 / 800 · ante" left "400" alone on the next
    line; the TV's "Next" box broke "5. szint · 500 / 1 000". A figure and an a / b pair keep
    one line; the break falls between the blinds and the ante."""
    from tests.e2e.conftest import PASSWORD, with_password

    structure = structure_create(
        actor=director,
        data=StructureData(
            name="Mély Verem 20 perc",
            chips=(Chip(100, "black"), Chip(500, "purple"), Chip(1_000, "yellow")),
            periods=(
                Period("level", 1200, 400, 800, 400),
                Period("break", 600, color_up=(100,)),
                Period("level", 1200, 500, 1_000, 1_000),
                Period("level", 1200, 10_000, 20_000, 20_000),
            ),
            starting_stack=30_000,
        ),
    )
    t = tournament_create(
        actor=director, name="Péntek esti Mély Verem #7 – Veszprémi bajnokság",
        structure_id=structure.pk, starting_stack=30_000, buy_in=20_000, fee=3_000,
        room_id=room.pk,
    )  # fmt: skip
    seat_players(api, t, numbered_players(9))
    clock_operate(actor=director, tournament_id=t.pk, operation="start")
    with_password(director)
    console = new_page(viewport=viewport)
    console.context.add_cookies(
        [{"name": "django_language", "value": "hu", "url": live_server.url}]
    )
    login(console, director, PASSWORD)
    for index in (0, 3):
        clock_operate(actor=director, tournament_id=t.pk, operation="jump", period_index=index)
        console.goto(f"{live_server.url}/tournaments/{t.pk}/")
        blinds = console.locator("#cc-blinds")
        expect(blinds).to_contain_text("ante")
        assert blinds.evaluate(ONE_LINE) == []
        assert console.locator("#cc-next").evaluate(ONE_LINE) == []
    screenshot(console, f"console-blinds-hu-{viewport['width']}", full_page=False)
    clock_operate(actor=director, tournament_id=t.pk, operation="jump", period_index=1)
    tv = new_page(viewport=viewport)
    tv.goto(f"{live_server.url}/display/{display_token(t.pk)}/?lang=hu")
    nxt = tv.locator('[data-field="break-next"]')
    expect(nxt).to_have_text("2. szint · 500 / 1\u00a0000")
    assert nxt.evaluate("(el) => el.getClientRects().length") == 1
    box, outer = nxt.bounding_box(), tv.locator(".dclock-break-next").bounding_box()
    assert box["x"] + box["width"] <= outer["x"] + outer["width"], (box, outer)
    screenshot(tv, f"tv-break-next-hu-{viewport['width']}", full_page=False)


# Each stats label's text (a Range over it: a word too long for its box overflows it visibly)
# against its box (a block as wide as its column, or a next level's box, inside the padding)
# and the figures beside it (running clock).
LABELS_FIT = """(screen) => Array.from(screen.querySelectorAll(
  '.dclock-stat, .lobby-stats > div, .lobby-next li')).filter(
  (s) => s.getClientRects().length).map((s) => {
    const label = s.querySelector('dt, .display-label, .lobby-next-label');
    const value = s.querySelector('dd, .display-value, .num');
    const text = document.createRange(); text.selectNodeContents(label);
    const figures = document.createRange(); figures.selectNodeContents(value);
    return {label: label.textContent, textRight: text.getBoundingClientRect().right,
            columnRight: label.getBoundingClientRect().right,
            figuresLeft: s.matches('.dclock-stat') ? figures.getBoundingClientRect().left : 1e9,
            figureSize: parseFloat(getComputedStyle(value).fontSize)};
  })"""


@pytest.mark.parametrize("lang", ["en", "hu", "cs"])
def test_stats_labels_stay_in_their_columns_at_1080p(
    live_server, new_page, director, short_tournament, lang
):
    """Evening run, 1920x1080: the Hungarian "ÁTLAGSTACK" ran a few pixels past its column's
    line on the lobby TV before the start (a quarter of the row's width; one word cannot wrap).
    Every stats label, before the start and once the clock runs, ends inside its column (and
    left of its figures), and the figures keep their size (no data-fit shrinking)."""
    tv = new_page(viewport=TV)
    url = f"{live_server.url}/display/{display_token(short_tournament.pk)}/?lang={lang}"
    for state in ("pending", "running"):
        if state == "running":
            clock_operate(actor=director, tournament_id=short_tournament.pk, operation="start")
        tv.goto(url)
        screen = tv.locator("[data-display-screen]").first
        expect(
            screen.locator(".lobby-stats" if state == "pending" else ".dclock-stats")
        ).to_be_visible()
        rows = screen.evaluate(LABELS_FIT)
        assert len(rows) >= (7 if state == "pending" else 5), rows
        for row in rows:
            # within the geometry check's 2 px: the range ends after the last letter's
            # letter-spacing, which draws nothing
            assert row["textRight"] <= row["columnRight"] + 2, (state, row)
            assert row["textRight"] < row["figuresLeft"], (state, row)
        assert_geometry(tv, f"tv-stats-{state}-{lang}-1920", fixed_height=True)
        # the figures are as large as with a one-letter label: the label takes none of their room
        sizes = [row["figureSize"] for row in rows]
        screen.evaluate(
            "(s) => { s.querySelectorAll('dt, .lobby-stats .display-label, .lobby-next-label')"
            ".forEach("
            "(l) => { l.textContent = 'X'; }); Tourney.layout(s); }"
        )
        assert [row["figureSize"] for row in screen.evaluate(LABELS_FIT)] == sizes, state
