"""The director's backups and exports (issue 24, docs/backups.md), as a director finds them on
the night: the console says when the last backup was made and leads to the backups page,
which takes one at once and lists each with its download; the user menu leads there too. The
page passes the geometry check in en, hu and cs at a laptop's, a TV's and a phone's size, with
a long Hungarian folder name, and its screenshots are the manual's pictures."""

import time

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.evening import Evening
from tests.e2e.geometry import assert_geometry
from tourney.backups.operations import backup_make

pytestmark = pytest.mark.django_db(transaction=True)

SIZES = {
    "1366x768": {"width": 1366, "height": 768},
    "1920x1080": {"width": 1920, "height": 1080},
    "1080x1920": {"width": 1080, "height": 1920},
    "390x844": {"width": 390, "height": 844},
}


def test_the_director_backs_up_from_the_console_and_downloads_a_backup(
    live_server, page, login, director, settings, tmp_path, manual_picture
):
    folder = tmp_path / "Mentések a pénztárgépen – Rimóc Ifjúsági Egyesület"
    settings.TOURNEY_BACKUP_DIR = folder
    evening = Evening(director, players=27).arrange().running()
    now = int(time.time())
    for minutes in (45, 30, 15):
        backup_make("auto", to=folder, now_s=now - 60 * minutes)
    with_password(director)
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[evening.tournament.pk]))
    state = page.locator("#backup-state")
    expect(state).to_contain_text("Backed up")
    expect(state).not_to_have_class("backup-state is-stale")
    page.set_viewport_size({"width": 1366, "height": 768})
    manual_picture(page, "backups-console")
    state.click()
    page.wait_for_url(live_server.url + reverse("backups:page"))
    rows = page.locator("#backups-table tbody tr")
    expect(rows).to_have_count(3)
    page.click("#backup-now")
    expect(page.locator("#toasts .toast").first).to_contain_text("Backed up")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("Taken by hand")
    manual_picture(page, "backups-page", full_page=True)
    with page.expect_download() as download:
        rows.first.get_by_role("link", name="Download").click()
    assert download.value.suggested_filename.startswith("tourney-")
    page.locator(".user-menu summary").click()
    expect(page.get_by_role("link", name="Backups and exports")).to_be_visible()
    page.keyboard.press("Escape")

    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        for lang in ("en", "hu", "cs"):
            page.context.add_cookies(
                [{"name": "django_language", "value": lang, "url": live_server.url}]
            )
            page.goto(live_server.url + reverse("backups:page"))
            assert_geometry(page, f"backups-page-{size}-{lang}", full_page=True)
            if size == "1366x768" and lang == "hu":
                manual_picture(page, "backups-page-hu", full_page=True)


def test_the_console_warns_when_a_played_tournament_has_no_backup(
    live_server, page, login, director, settings, tmp_path
):
    settings.TOURNEY_BACKUP_DIR = tmp_path / "empty"
    evening = Evening(director, players=12).arrange().running()
    with_password(director)
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[evening.tournament.pk]))
    state = page.locator("#backup-state")
    expect(state).to_have_text("No backup yet")
    expect(state).to_have_class("backup-state is-stale")
    page.set_viewport_size({"width": 1366, "height": 768})
    assert_geometry(page, "console-no-backup-1366x768-en")
