"""Browser fixtures for the end-to-end tests: Playwright (sync API) driving Debian's chromium.

Every test in this folder is marked ``e2e``. Without a ``chromium`` binary the tests fail in CI
(CI=true) and skip elsewhere, as any test that needs a missing service does.

The Playwright sync API runs an asyncio loop in this thread, so Django's ORM would refuse to
run here ("You cannot call this from an async context"). DJANGO_ALLOW_ASYNC_UNSAFE lifts that
check while the browser runs; the fixture sets it for the module and restores it afterwards,
so the rest of the suite keeps Django's protection.
"""

import contextlib
import os
import shutil
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.conftest import service_missing
from tests.manual_pictures import current_test_id, mark_made_by

E2E_DIR = Path(__file__).resolve().parent
ARTIFACTS = E2E_DIR.parent.parent / "test-artifacts" / "screenshots"

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# An expectation waits for its page condition up to 15 s (Playwright's default is 5 s): on
# CI's 2 cores, with two browser tests at once (the rehearsal opens six screens), a page's
# answer to a click took longer than 5 s in three runs out of four, each time another test.
expect.set_options(timeout=15_000)

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
PASSWORD = "correct horse battery staple"  # every signed-in user's, see with_password()


# Pages do not depend on the database engine (what does is tested through the services and the
# API on both), so the browser tests run once, in CI's SQLite run: twice would take CI past its
# 20 minutes. TOURNEY_E2E_ON_POSTGRES=1 runs them on PostgreSQL too.
ON_POSTGRES = os.environ.get("DATABASE_URL", "").startswith("postgres")
SKIP_ON_POSTGRES = pytest.mark.skipif(
    ON_POSTGRES and os.environ.get("TOURNEY_E2E_ON_POSTGRES", "") != "1",
    reason="browser tests run in the SQLite run (TOURNEY_E2E_ON_POSTGRES=1 runs them here)",
)


def pytest_collection_modifyitems(config, items):
    for item in items:
        if E2E_DIR in Path(item.path).resolve().parents:
            item.add_marker(pytest.mark.e2e)
            item.add_marker(SKIP_ON_POSTGRES)


@pytest.fixture(scope="module")
def playwright_instance():
    executable = shutil.which("chromium")
    if executable is None:
        service_missing("chromium")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:  # pragma: no cover - playwright is a test dependency
        service_missing("playwright")

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    manager = sync_playwright().start()
    try:
        yield manager, executable
    finally:
        manager.stop()
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(scope="module")
def browser(playwright_instance):
    manager, executable = playwright_instance
    browser = manager.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
    yield browser
    browser.close()


@pytest.fixture
def new_page(browser):
    """Open a page in a fresh context (own cookies): new_page(viewport=PHONE, is_mobile=True)."""
    contexts = []

    def open_page(viewport=DESKTOP, **options):
        context = browser.new_context(viewport=viewport, locale="en-GB", **options)
        context.set_default_timeout(15_000)  # as the expectations (above): CI's load
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        # The pages leave first (their event streams closed by the browser, each step with a
        # timeout): a context closed with a stream still open once hung the run.
        for page in context.pages:
            # a crashed or hung page: closing the context still ends it
            with contextlib.suppress(Exception):
                page.goto("about:blank", timeout=5_000)
        context.close()


@pytest.fixture
def page(new_page):
    return new_page()


@pytest.fixture
def screenshot():
    """screenshot(page, "desk") saves test-artifacts/screenshots/desk.png (whole page)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)

    def save(page, name: str, full_page: bool = True) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path

    return save


MANUAL_PICTURES = E2E_DIR.parent.parent / "docs" / "pictures"
# The command that brings the manual's pictures up to date (docs/contributing.md, "The manual").
MANUAL_MODE = os.environ.get("TOURNEY_MANUAL_PICTURES") == "1"


def save_manual_picture(page, name: str, full_page: bool = False) -> Path:
    """The screenshot as the manual's picture docs/pictures/<name>.png, marked with the test
    that made it (tests/manual_pictures.py); outside MANUAL_MODE among the run's screenshots."""
    if not MANUAL_MODE:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"manual-{name.replace('/', '-')}.png"
        page.screenshot(path=str(path), full_page=full_page, animations="disabled")
        return path
    path = MANUAL_PICTURES / f"{name}.png"
    path.parent.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(path), full_page=full_page, animations="disabled")
    mark_made_by(path, current_test_id(os.environ))
    return path


@pytest.fixture
def manual_picture():
    """manual_picture(page, "backups-page"): save_manual_picture in a test."""
    return save_manual_picture


def open_tool(page, name: str) -> None:
    """Open the console's tool `name` (its tab: bustout, h4h, penalties, absent, payouts,
    message, activity, cancel); the others are hidden under their tabs."""
    tab = page.locator(f"#tab-{name}")
    if tab.count():
        tab.click()
        expect(page.locator(f"#tool-{name}")).to_be_visible()


def with_password(user):
    """`user` with the password PASSWORD, saved, to sign in with through /login/."""
    user.set_password(PASSWORD)
    user.save(update_fields=["password"])
    return user


@pytest.fixture
def login(live_server):
    """login(page, user, password): sign in through /login/ like a person would."""

    def sign_in(page, user, password: str):
        page.goto(f"{live_server.url}/login/")
        page.fill("#id_username", user.get_username())
        page.fill("#id_password", password)
        page.press("#id_password", "Enter")
        page.wait_for_url(f"{live_server.url}/")

    return sign_in
