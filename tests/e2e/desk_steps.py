"""Desk steps the browser tests share."""

from django.urls import reverse
from playwright.sync_api import Page, expect

from tests.e2e.conftest import PASSWORD, with_password


def desk_search(page: Page, text: str) -> None:
    """Type `text` into the desk's player search as a person would."""
    box = page.locator("#player-search")
    box.fill("")
    box.press_sequentially(text, delay=15)


def desk_register_new_player(page: Page, base_url: str, tournament_id: int, name: str) -> None:
    """Open the desk, create `name` in place by keyboard and register them."""
    page.goto(base_url + reverse("tourney:desk", args=[tournament_id]))
    desk_search(page, name)
    expect(page.locator("#search-results .search-empty")).to_be_visible()
    page.keyboard.press("Enter")
    expect(page.locator("#id_name")).to_be_focused()
    page.locator("#id_name").press("Enter")
    expect(page.locator("#last-registration")).to_contain_text(f"{name} is registered")


def sign_in(page: Page, login, user) -> None:
    """Give `user` a password and sign in with it through /login/."""
    login(page, with_password(user), PASSWORD)
