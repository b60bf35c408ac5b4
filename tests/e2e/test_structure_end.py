"""The structure runs out with players still playing (issue 24, docs/rules.md §1.4): the lobby
TV keeps the last level on the screen and counts the time played since (it never says the
tournament is over), the director's console says so from the last level on and offers levels;
*Add 3 levels* carries the structure on and both screens go on into level 17."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from clocks.models import Clock
from tests.e2e.conftest import PASSWORD, TV, with_password
from tests.e2e.geometry import assert_geometry
from tests.factories import structure_run_out
from tourney.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


def test_past_the_last_level_the_tv_plays_on_and_the_console_adds_levels(
    live_server, new_page, login, director, seated_tournament, manual_picture
):
    tournament = seated_tournament
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    structure_run_out(tournament, minutes_past=12)
    assert Clock.objects.get(tournament=tournament).status == "overtime"

    tv = new_page(viewport=TV)
    tv.goto(f"{live_server.url}/display/{display_token(tournament.pk)}/?lang=hu")
    screen = tv.locator("[data-display-screen]")
    expect(screen).to_have_class(re.compile(r"\bis-overtime\b"))
    expect(screen.locator('[data-field="level"]')).to_have_text("16. szint")
    expect(screen.locator('[data-field="blinds"]')).to_have_text(re.compile(r"15\s000 / 30\s000"))
    expect(screen.locator('[data-field="countdown"]')).to_have_text(re.compile(r"^\+12:\d\d$"))
    expect(screen).not_to_contain_text("véget ért")  # never "the tournament has ended"
    assert_geometry(tv, "structure-end-tv-1920x1080-hu", fixed_height=True)
    manual_picture(tv, "structure-end-tv-hu")

    with_password(director)
    console = new_page()
    login(console, director, PASSWORD)
    console.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    expect(console.locator("#cc-status-text")).to_have_text("Past the last level")
    expect(console.locator("#cc-time")).to_have_text(re.compile(r"^\+12:\d\d$"))
    note = console.locator("#cc-last-level")
    expect(note).to_be_visible()
    expect(note).to_contain_text("The structure has run out")
    expect(console.locator("#cc-toggle")).to_be_enabled()  # a dispute: the floor may pause
    console.set_viewport_size({"width": 1366, "height": 768})
    manual_picture(console, "structure-end-console")
    assert_geometry(console, "structure-end-console-1366x768-en")

    with console.expect_navigation():
        console.locator("#cc-levels-add").click()
    expect(console.locator("#cc-status-text")).to_have_text("Running")
    expect(console.locator("#cc-level")).to_have_text("Level 17")
    expect(console.locator("#cc-blinds")).to_have_text("25,000 / 50,000")
    expect(console.locator("#cc-next")).to_have_text("Level 18: 40,000 / 80,000")
    expect(note).to_be_hidden()
    clock = Clock.objects.get(tournament=tournament)
    assert (clock.status, clock.period_index) == ("running", 20)
    assert Tournament.objects.get(pk=tournament.pk).status == "running"

    # The TV hears of the new levels and goes on into level 17 on its own.
    expect(screen.locator('[data-field="level"]')).to_have_text("17. szint", timeout=15_000)
    expect(screen).to_have_class(re.compile(r"\bis-running\b"))
    expect(screen.locator('[data-field="countdown"]')).to_have_text(re.compile(r"^1[45]:\d\d$"))


def test_the_console_warns_on_the_last_level_before_the_structure_runs_out(
    live_server, page, login, director, seated_tournament
):
    tournament = seated_tournament
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    last = tournament.structure.levels.count() - 1
    clock_operate(actor=director, tournament_id=tournament.pk, operation="jump", period_index=last)
    with_password(director)
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    note = page.locator("#cc-last-level")
    expect(note).to_contain_text("This is the structure's last level")
    page.keyboard.press("n")  # ends the last period now: overtime from this instant
    expect(page.locator("#cc-status-text")).to_have_text("Past the last level")
    expect(note).to_contain_text("The structure has run out")
    expect(page.locator("#cc-time")).to_have_text(re.compile(r"^\+0:0\d$"))


GEOMETRY_TV = {"1920x1080": TV, "1080x1920": {"width": 1080, "height": 1920},
               "1366x768": {"width": 1366, "height": 768}}  # fmt: skip
GEOMETRY_STAFF = {"1366x768": {"width": 1366, "height": 768},
                  "1920x1080": TV, "390x844": {"width": 390, "height": 844}}  # fmt: skip


def test_past_the_last_level_every_screen_is_whole(live_server, new_page, login, director):
    """The evening's content (45 players with long Hungarian and Czech names, the final-table
    redraw's 9 moves, 20 paid places, 25,000 / 50,000 ante 50,000) 1 h 15 min past the
    structure's end, "+1:15:00" the longest the count gets in an evening: the TV, the console
    and the dealer's page in en, hu and cs pass the geometry check."""
    from tests.e2e.evening import Evening

    evening = Evening(director).arrange().running().final_table()
    tournament = evening.tournament
    structure_run_out(tournament, minutes_past=75)
    assert Clock.objects.get(tournament=tournament).status == "overtime"
    with_password(director)
    staff = new_page()
    login(staff, director, PASSWORD)
    tv = new_page(viewport=TV)
    display = f"{live_server.url}/display/{display_token(tournament.pk)}/"
    console = live_server.url + reverse("tourney:console", args=[tournament.pk])
    dealer = live_server.url + reverse("tables:dealer", args=[tournament.pk, 1])
    for lang in ("en", "hu", "cs"):
        for size, viewport in GEOMETRY_TV.items():
            tv.set_viewport_size(viewport)
            tv.goto(f"{display}?lang={lang}")
            countdown = tv.locator('[data-display-screen] [data-field="countdown"]')
            expect(countdown).to_have_text(re.compile(r"^\+1:15:\d\d$"))
            assert_geometry(tv, f"geometry-tv-overtime-{size}-{lang}", fixed_height=True)
        staff.context.add_cookies(
            [{"name": "django_language", "value": lang, "url": live_server.url}]
        )
        for size, viewport in GEOMETRY_STAFF.items():
            staff.set_viewport_size(viewport)
            staff.goto(console)
            expect(staff.locator("#cc-time")).to_have_text(re.compile(r"^\+1:15:\d\d$"))
            expect(staff.locator("#cc-last-level")).to_be_visible()
            assert_geometry(staff, f"geometry-console-overtime-{size}-{lang}", full_page=True)
        staff.set_viewport_size(GEOMETRY_STAFF["390x844"])
        staff.goto(dealer)
        assert_geometry(staff, f"geometry-dealer-overtime-390x844-{lang}", full_page=True)
