"""The console warns when the clock's timers are late (issue 12): a running clock whose stored
period ended 30 s ago with no timer to advance it (the worker is dead) shows the warning with
the lag and what to check; once a timer catches up the warning goes away by itself."""

import pytest
from django.conf import settings
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.selectors import now_ms
from clocks.clock.usecases import clock_operate, clocks_advance_due
from clocks.models import Clock
from tests.databases import database_out_of_reach
from tests.e2e.conftest import ON_POSTGRES, PASSWORD, PHONE, TV, with_password
from tests.e2e.geometry import assert_geometry

pytestmark = pytest.mark.django_db(transaction=True)


def test_console_shows_late_timers_until_they_catch_up(
    live_server, page, login, screenshot, director, seated_tournament
):
    with_password(director)
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    # The first level ended 30 s ago and nothing advanced the stored clock.
    Clock.objects.filter(tournament=seated_tournament).update(period_ends_at_ms=now_ms() - 30_000)

    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[seated_tournament.pk]))
    warning = page.locator("#timers-health")
    expect(warning).to_be_visible()
    expect(warning).to_contain_text("Timers are late")
    expect(warning).to_contain_text("Level changes of this tournament are 3")  # 30 s and more
    # what to check: the embedded server's own loop, or the Celery worker and beat with Redis
    hint = "Check that the Celery worker" if settings.REDIS_URL else "The server’s clock loop"
    expect(warning).to_contain_text(hint)
    screenshot(page, "console-timers-late", full_page=False)

    clocks_advance_due()  # a timer runs again and catches up
    expect(warning).to_be_hidden(timeout=15_000)  # the next look at health, 5 s apart


@pytest.mark.skipif(
    ON_POSTGRES,
    reason="the live server's thread keeps its PostgreSQL connection: only SQLite's reconnects "
    "for each request (tests/tourney/test_outage.py covers PostgreSQL)",
)
def test_console_says_when_the_database_does_not_answer(
    live_server, page, login, manual_picture, director, seated_tournament
):
    """Issue 24: with the database out of reach the console says so, and what it means for
    the floor, instead of the browser's error page; it clears once the database answers."""
    with_password(director)
    login(page, director, PASSWORD)
    tournament_id = seated_tournament.pk
    page.goto(live_server.url + reverse("tourney:console", args=[tournament_id]))
    warning = page.locator("#timers-health")
    expect(warning).to_be_hidden()
    with database_out_of_reach():
        expect(warning).to_be_visible(timeout=15_000)  # the next look at health, 5 s apart
        expect(warning).to_contain_text("The database does not answer")
        expect(warning).to_contain_text("Nothing can be saved until it is back")
        manual_picture(page, "console-database-down")
        # a page loaded meanwhile: the short page that needs no database, whole in each size
        desk = page.context.new_page()
        for size, viewport in (("390x844", PHONE), ("1920x1080", TV)):
            desk.set_viewport_size(viewport)
            answer = desk.goto(live_server.url + reverse("tourney:desk", args=[tournament_id]))
            assert answer.status == 503
            expect(desk.locator("h1")).to_have_text("Not available for a moment")
            assert_geometry(desk, f"geometry-unavailable-{size}-en")
        desk.close()
    expect(warning).to_be_hidden(timeout=15_000)
