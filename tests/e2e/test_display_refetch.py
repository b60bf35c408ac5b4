"""A lobby TV refetches its state after the events that change what it shows (a bust-out, a
late entry, a move), not after a hand reported at a table, which changes nothing on it: a big
room reports about a hand a second (static/js/display.js, onEvent)."""

import pytest

from clocks.display.selectors import display_token
from tables.hands.usecases import hand_report
from tables.models import TournamentTable
from tests.e2e.conftest import TV
from tests.e2e.evening import Evening
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry

pytestmark = pytest.mark.django_db(transaction=True)

COUNTERS = """
window.__fetches = 0;
window.__events = [];
var pageFetch = window.fetch;
window.fetch = function (url) {
  if (String(url).indexOf("state.json") !== -1) window.__fetches += 1;
  return pageFetch.apply(this, arguments);
};
document.addEventListener("tourney:event", function (e) { window.__events.push(e.detail.kind); });
"""


def test_a_hand_report_fetches_nothing_a_bust_out_does(live_server, new_page, director, settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5
    evening = Evening(director).arrange().running()
    tournament = evening.tournament
    tv = new_page(viewport=TV)
    tv.add_init_script(COUNTERS)
    tv.clock.install()
    tv.goto(f"{live_server.url}/display/{display_token(tournament.pk)}/")
    tv.wait_for_function("() => window.__fetches >= 1")  # the stream's opening refetch
    tv.clock.pause_at(tv.evaluate("Date.now()") / 1000 + 1)  # seconds
    opened = tv.evaluate("window.__fetches")

    table = TournamentTable.objects.filter(tournament=tournament).order_by("number").first()
    for _ in range(3):
        hand_report(actor=director, tournament_id=tournament.pk, table_number=table.number)
    tv.wait_for_function("() => window.__events.filter(k => k === 'hand').length >= 3")
    tv.clock.run_for(2_000)
    assert tv.evaluate("window.__fetches") == opened

    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
    victim = left.order_by("number").first()
    eliminations_record(
        actor=director, tournament_id=tournament.pk, eliminations=[(victim.pk, None)]
    )
    tv.wait_for_function("() => window.__events.some(k => k !== 'hand')")
    tv.clock.run_for(500)  # a burst's refetch waits 400 ms
    tv.wait_for_function(f"() => window.__fetches > {opened}")
