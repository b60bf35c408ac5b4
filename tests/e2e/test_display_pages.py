"""Find your seat on a TV (issue 13, item 2): every seated name shows in turn, in the language's
collation, page after page, and the 20-second refresh does not send the screen back to page 1.
The browser's clock is Playwright's (never slept)."""

import pytest
from playwright.sync_api import expect

from clocks.display_links import display_token
from tests.e2e.conftest import TV
from tests.e2e.evening import NAMES, Evening
from tourney.collation import sorted_by_name

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN = "() => [...document.querySelectorAll('#seat-results li:not([hidden]) .lobby-seat-name')]" \
    ".map(el => el.textContent)"  # fmt: skip


def test_every_name_shows_in_turn_in_hungarian_order(live_server, new_page, director, settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5
    evening = Evening(director).arrange()
    tv = new_page(viewport=TV)
    tv.clock.install()
    tv.goto(f"{live_server.url}/display/{display_token(evening.tournament.pk)}/?lang=hu")
    expect(tv.locator("#seat-results ol[data-paged]")).to_have_count(1)
    expect(tv.locator("#find-seat")).to_be_hidden()  # no keyboard on a TV
    all_names = tv.locator("#seat-results .lobby-seat-name").all_inner_texts()
    assert all_names == sorted_by_name(NAMES, language="hu")  # Mészáros before Molnár
    count = tv.locator("#find-seat-title [data-pager-count]")
    expect(count).to_have_text("1/2")

    first = tv.evaluate(SHOWN)
    tv.clock.run_for(12_000)  # a page shows for 12 s
    expect(count).to_have_text("2/2")
    second = tv.evaluate(SHOWN)
    assert sorted(first + second) == sorted(NAMES) and not set(first) & set(second)

    # The list is fetched again every 20 s: the screen stays on its page.
    tv.evaluate("document.querySelector('#seat-results ol').dataset.old = '1'")
    tv.clock.run_for(8_500)
    expect(tv.locator("#seat-results ol[data-paged]:not([data-old])")).to_have_count(1)
    expect(count).to_have_text("2/2")
    assert tv.evaluate(SHOWN) == second
