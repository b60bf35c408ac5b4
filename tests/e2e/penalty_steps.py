"""Console penalty steps the browser tests share."""

from playwright.sync_api import Page

from tests.e2e.conftest import open_tool

# htmx marks an element it has wired (its hx-get listening for input) with an init hash.
_SEARCH_WIRED = """() => {
    const box = document.querySelector("#penalty-search");
    return !!(box && box["htmx-internal-data"] && box["htmx-internal-data"].initHash);
}"""


def penalty_search(page: Page, text: str) -> None:
    """Type `text` into the console's penalty search. The form is loaded after the page, so
    wait until htmx has wired it: typed any earlier, the text sends no search."""
    open_tool(page, "penalties")
    page.wait_for_function(_SEARCH_WIRED)
    page.locator("#penalty-search").fill(text)
