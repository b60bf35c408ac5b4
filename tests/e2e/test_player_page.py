"""The player's page on a 390x844 phone (issue 15 part 1), in English and in Hungarian.

A Rimóc tournament (19 players on three tables): players bust at one table until the floor
has a move to make; the mover's phone shows the move coming, then the full-width notice with
his new table and seat within a second of the floor's confirmation (measured with the page's
own clock against the instant just before the confirmation was sent: no sleeps). Then the
level changes and he busts: the page shows the new level and his place. The page passes the
geometry check at each step. Screenshots: test-artifacts/screenshots/player-*.png.
"""

import re

import pytest
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from tables.floor.usecases import floor_action_done
from tables.models import FloorAction
from tests.e2e.conftest import save_manual_picture
from tests.e2e.geometry import assert_geometry
from tests.e2e.player_page_steps import arrange_players, open_online, phone_context
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry
from tourney.player_page.selectors import player_token

pytestmark = pytest.mark.django_db(transaction=True)

NOTICE_WITHIN_MS = 1_000
WORDS = {
    "en-GB": {"lang": "en", "level2": "Level 2", "moved": "You have been moved", "place": "Place"},
    "hu-HU": {"lang": "hu", "level2": "2. szint", "moved": "Áthelyeztek", "place": "hely"},
}


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


def _bust_until_a_move(director, tournament) -> FloorAction:
    """Bust players at the smallest table until the floor has a single move to make."""
    for _round in range(6):
        move = FloorAction.objects.filter(
            tournament=tournament,
            kind=FloorAction.Kind.MOVE,
            status=FloorAction.Status.PENDING,
            entry__isnull=False,
        ).first()
        if move is not None:
            return move
        seated = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        counts = {}
        for entry in seated.select_related("tournament_table"):
            counts.setdefault(entry.tournament_table.number, []).append(entry)
        smallest = min(counts, key=lambda n: len(counts[n]))
        victim = sorted(counts[smallest], key=lambda e: e.seat)[0]
        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(victim.pk, None)]
        )
    raise AssertionError("no move planned")


def _moved_with_the_notice_open(live_server, director, tournament, context):
    """A mover whose page shows the move notice once the floor confirms it, and nobody taps OK."""
    move = _bust_until_a_move(director, tournament)
    mover = Entry.objects.get(pk=move.entry_id)
    page = open_online(context, live_server.url, tournament, mover.pk)
    floor_action_done(actor=director, tournament_id=tournament.pk, action_id=move.pk)
    notice = page.locator("#move-notice")
    expect(notice).to_be_visible()
    return mover, page, notice


@pytest.mark.parametrize("locale", ["en-GB", "hu-HU"])
def test_a_player_follows_his_move_a_level_change_and_his_bust_out(
    live_server, browser, director, tournament, locale
):
    words = WORDS[locale]
    arrange_players(director, tournament)
    move = _bust_until_a_move(director, tournament)
    mover = Entry.objects.get(pk=move.entry_id)
    context = phone_context(browser, locale)
    try:
        page = context.new_page()
        page.goto(f"{live_server.url}/p/{player_token(tournament.pk, mover.pk)}/")
        assert page.locator("html").get_attribute("lang") == words["lang"]
        seat = page.locator('[data-field="seat"]')
        expect(seat).to_contain_text(str(move.from_table))
        expect(page.locator('[data-field="move-coming"]')).to_be_visible()
        page.wait_for_function("() => document.body && document.body.dataset.stream === 'online'")
        expect(page.locator('[data-field="countdown"]')).not_to_be_empty()
        expect(page.locator('[data-field="pool"]')).to_contain_text("\xa0Ft")  # as every page
        assert_geometry(page, f"player-{words['lang']}-seat")
        save_manual_picture(page, f"player-page-{words['lang']}")

        # The floor confirms: the notice appears within a second of the confirmation.
        sent_ms = page.evaluate("Date.now()")
        floor_action_done(actor=director, tournament_id=tournament.pk, action_id=move.pk)
        notice = page.locator("#move-notice")
        expect(notice).to_be_visible()
        expect(notice).to_contain_text(words["moved"])
        expect(notice.locator('[data-field="notice-seat"]')).to_contain_text(str(move.to_table))
        expect(notice.locator('[data-field="notice-seat"]')).to_contain_text(str(move.to_seat))
        # the table and the seat each whole on a line of its own
        lines = notice.locator(".move-notice-part")
        assert lines.count() == 2
        for line in lines.all():
            assert line.bounding_box()["height"] < 1.5 * float(
                line.evaluate("e => parseFloat(getComputedStyle(e).lineHeight)")
            )
        shown_ms = page.evaluate("window.TourneyPlayer.noticeShownAt")
        print(f"{locale}: move notice {shown_ms - sent_ms} ms after the confirmation was sent")
        assert shown_ms - sent_ms <= NOTICE_WITHIN_MS, f"notice after {shown_ms - sent_ms} ms"
        assert_geometry(page, f"player-{words['lang']}-moved")
        page.locator('[data-action="notice-ok"]').click()
        expect(notice).to_be_hidden()
        expect(seat).to_contain_text(str(move.to_table))
        expect(page.locator('[data-field="move-coming"]')).to_be_hidden()

        # The level changes.
        clock_operate(actor=director, tournament_id=tournament.pk, operation="next")
        expect(page.locator('[data-field="level"]')).to_have_text(words["level2"])

        # He busts: his place, and no seat any more.
        left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(mover.pk, None)]
        )
        result = page.locator('[data-section="result"]')
        expect(result).to_be_visible()
        expect(result.locator('[data-field="place"]')).to_contain_text(str(left))
        expect(result.locator('[data-field="place"]')).to_contain_text(
            words["place"], ignore_case=True
        )
        expect(page.locator('[data-section="seat"]')).to_be_hidden()
        # no prize: said in plain words, not in the prize's green
        expect(result.locator('[data-field="prize"]')).to_have_class(re.compile(r"\bis-none\b"))
        assert_geometry(page, f"player-{words['lang']}-out", full_page=True)
    finally:
        context.close()


@pytest.mark.parametrize(
    ("locale", "ended"), [("en-GB", "no longer works"), ("cs-CZ", "nefunguje")]
)
def test_a_revoked_link_says_so_at_once_and_an_expired_one_on_opening(
    live_server, browser, director, tournament, locale, ended
):
    """Revoked while open: the page says so in place (its stream closes on the revocation,
    its state is refused); an expired link's page says the tournament is over."""
    from datetime import timedelta

    from django.utils import timezone

    from tourney.models import Tournament
    from tourney.player_page.usecases import player_link_revoke

    arrange_players(director, tournament, count=10)
    entry, other = Entry.objects.filter(tournament=tournament).order_by("pk")[:2]
    context = phone_context(browser, locale)
    try:
        page = open_online(context, live_server.url, tournament, entry.pk)
        player_link_revoke(actor=director, tournament_id=tournament.pk, entry_id=entry.pk)
        box = page.locator("#link-ended")
        expect(box).to_be_visible()
        expect(box).to_have_attribute("data-code", "player_link_revoked")
        expect(box).to_contain_text(ended)
        expect(page.locator('[data-section="clock"]')).to_be_hidden()
        expect(page.locator(".pp-sub")).to_have_count(0)  # not even his name on a dead link
        expect(page.locator("#offline-banner")).to_have_count(0)
        assert_geometry(page, f"player-revoked-{locale[:2]}")

        Tournament.objects.filter(pk=tournament.pk).update(
            finished_at=timezone.now() - timedelta(days=30)
        )
        page.goto(f"{live_server.url}/p/{player_token(tournament.pk, other.pk)}/")
        expect(page.locator("#link-ended")).to_have_attribute("data-code", "player_link_expired")
        assert_geometry(page, f"player-expired-{locale[:2]}")
    finally:
        context.close()


def test_a_move_notice_left_open_closes_when_the_player_busts(
    live_server, browser, director, tournament
):
    """The evening's run: a player moved by a table break who never tapped OK busted later;
    his phone still said "You have been moved: table 1, seat 5" over his place and prize."""
    arrange_players(director, tournament)
    context = phone_context(browser, "en-GB")
    try:
        mover, page, notice = _moved_with_the_notice_open(
            live_server, director, tournament, context
        )

        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(mover.pk, None)]
        )
        expect(page.locator('[data-section="result"]')).to_be_visible()
        expect(notice).to_be_hidden()
        assert_geometry(page, "player-en-out-after-move", full_page=True)
    finally:
        context.close()


def test_a_move_notice_left_open_closes_when_the_player_wins(
    live_server, browser, director, tournament
):
    """The second evening's run: the player moved to the final table never tapped OK and won;
    at the finish his phone still said "You have been moved: table 1, seat 5" over his 1st
    place and prize. He never busts, so closing the notice at a bust-out left it open."""
    arrange_players(director, tournament)
    context = phone_context(browser, "en-GB")
    try:
        mover, page, notice = _moved_with_the_notice_open(
            live_server, director, tournament, context
        )

        others = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).exclude(
            pk=mover.pk
        )
        for entry in list(others.order_by("pk")):
            eliminations_record(
                actor=director, tournament_id=tournament.pk, eliminations=[(entry.pk, None)]
            )
        expect(page.locator('[data-section="result"]')).to_be_visible()
        expect(notice).to_be_hidden()
        assert_geometry(page, "player-en-won-after-move", full_page=True)
    finally:
        context.close()


def test_no_seat_once_out_or_the_tournament_is_over(live_server, browser, director, tournament):
    """Evening run: the winner's phone still said "Your seat: table 1, seat 5" under his 1st
    place, and a cancelled tournament's players still had a seat. Out: his place, no seat; the
    tournament finished: the winner's 1st place, no seat."""
    arrange_players(director, tournament, count=10)
    entries = list(Entry.objects.filter(tournament=tournament).order_by("pk"))
    busted, winner = entries[0], entries[-1]
    context = phone_context(browser, "en-GB")
    try:
        out = open_online(context, live_server.url, tournament, busted.pk)
        won = open_online(context, live_server.url, tournament, winner.pk)
        expect(won.locator('[data-section="seat"]')).to_be_visible()
        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(busted.pk, None)]
        )
        expect(out.locator('[data-field="place"]')).to_contain_text("10")
        expect(out.locator('[data-field="result-title"]')).to_have_text("Your tournament is over")
        expect(out.locator('[data-section="seat"]')).to_be_hidden()
        for entry in entries[1:-1]:
            eliminations_record(
                actor=director, tournament_id=tournament.pk, eliminations=[(entry.pk, None)]
            )
        expect(won.locator('[data-field="place"]')).to_contain_text("1")
        # the winner won (issue 32: his phone said "your tournament is over")
        expect(won.locator('[data-field="result-title"]')).to_have_text("You won the tournament")
        expect(won.locator('[data-field="prize"]')).not_to_have_class(re.compile(r"\bis-none\b"))
        expect(won.locator('[data-section="seat"]')).to_be_hidden()
        expect(won.locator('[data-action="notify"]')).to_be_hidden()
        assert_geometry(won, "player-en-won", full_page=True)
        won.reload()  # the server's state itself: no seat
        expect(won.locator('[data-field="place"]')).to_contain_text("1")
        expect(won.locator('[data-section="seat"]')).to_be_hidden()

    finally:
        context.close()


def test_no_seat_once_the_tournament_is_cancelled(live_server, browser, director, tournament):
    """A cancelled tournament seats nobody: his page shows no seat, even if his entry is
    still active at a table."""
    from tourney.models import Tournament

    arrange_players(director, tournament, count=10)
    entry = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    context = phone_context(browser, "hu-HU")
    try:
        page = open_online(context, live_server.url, tournament, entry.pk)
        expect(page.locator('[data-section="seat"]')).to_be_visible()
        Tournament.objects.filter(pk=tournament.pk).update(status=Tournament.Status.CANCELLED)
        page.reload()
        expect(page.locator('[data-field="countdown"]')).not_to_be_empty()
        expect(page.locator('[data-section="seat"]')).to_be_hidden()
        assert_geometry(page, "player-hu-cancelled", full_page=True)
    finally:
        context.close()
