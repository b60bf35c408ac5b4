"""A player's phone and the room's other changes: every phone gets every event of the
tournament (a hand at any table, each bust-out, each late entry), so another player's change
is fetched at most once every 30 s, a few seconds late at random; his own at once
(static/js/player-page.js, OTHERS_EVERY_MS). The page's clock is Playwright's: no waiting."""

import pytest
from playwright.sync_api import expect

from tests.e2e.player_page_steps import arrange_players, open_online, phone_context
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)

# The page's own count of its state fetches and of the `changed` events it got.
COUNTERS = """
window.__fetches = 0;
window.__changes = 0;
var pageFetch = window.fetch;
window.fetch = function (url) {
  if (String(url).indexOf("state.json") !== -1) window.__fetches += 1;
  return pageFetch.apply(this, arguments);
};
document.addEventListener("tourney:event", function (e) {
  if (e.detail && e.detail.kind === "changed") window.__changes += 1;
});
"""


def test_others_changes_at_most_every_30_s_his_own_at_once(
    live_server, browser, director, tournament
):
    arrange_players(director, tournament)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("number"))
    mine, others = entries[0], entries[1:]
    context = phone_context(browser, "en-GB")
    try:
        context.add_init_script(COUNTERS)
        context.clock.install()
        page = open_online(context, live_server.url, tournament, mine.pk)
        page.wait_for_function("() => window.__fetches >= 1")  # the stream's opening refetch
        page.clock.pause_at(page.evaluate("Date.now()") / 1000 + 1)  # in seconds
        players = page.locator('[data-field="players"]')
        expect(players).to_have_text("19")

        def fetches() -> int:
            return page.evaluate("window.__fetches") - 1

        def bust(victims, changes: int) -> None:
            for victim in victims:
                eliminations_record(
                    actor=director, tournament_id=tournament.pk, eliminations=[(victim.pk, None)]
                )
            page.wait_for_function(f"() => window.__changes >= {changes}")

        bust(others[:3], 3)
        page.clock.run_for(20_000)  # within 30 s of the page's state: nothing fetched
        assert fetches() == 0
        expect(players).to_have_text("19")
        page.clock.run_for(13_100)  # 30 s and the spread (3 s at most) passed: one fetch
        expect(players).to_have_text("16")
        assert fetches() == 1

        bust(others[3:5], 5)
        page.clock.run_for(10_000)
        assert fetches() == 1  # the last fetch was less than 30 s ago
        page.clock.run_for(23_100)
        expect(players).to_have_text("14")
        assert fetches() == 2

        bust([mine], 6)  # his own: at once, the clock standing still
        expect(page.locator('[data-section="result"]')).to_be_visible()
        assert fetches() == 3
    finally:
        context.close()
