"""A festival's screens in a real browser (issue 15 part 3): the room's lobby board on a TV
shows every live tournament's clock counting, and the director's overview shows the clocks,
the floor's pending actions and the alerts; both pass the geometry check.
Screenshots: test-artifacts/screenshots/festival-*.png."""

import pytest
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.festival.selectors import board_token
from tests.conftest import numbered_players, seat_players
from tests.e2e.conftest import DESKTOP, PASSWORD, TV, save_manual_picture, with_password
from tests.e2e.geometry import assert_geometry
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Entry
from tourney.tournaments.usecases import tournament_create

pytestmark = pytest.mark.django_db(transaction=True)


def side_event(director, structure, room, name: str):
    """Another tournament of the room, registering."""
    return tournament_create(
        actor=director,
        name=name,
        structure_id=structure.pk,
        starting_stack=20_000,
        buy_in=5_000,
        fee=500,
        room_id=room.pk,
    )


def test_the_board_and_the_overview(
    live_server, new_page, login, api, director, room, structure, tournament
):
    seat_players(api, tournament, numbered_players(12))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    for name in ("Side event", "Ladies' event", "Turbo deepstack"):
        side_event(director, structure, room, name)
    board = new_page(viewport=TV)
    board.goto(f"{live_server.url}/festival/board/{board_token(room)}/")
    expect(board.locator(".fb-card")).to_have_count(4)
    card = board.locator(f'.fb-card[data-tournament="{tournament.pk}"]')
    expect(card.locator('[data-f="countdown"]')).not_to_have_text("")
    first = card.locator('[data-f="countdown"]').inner_text()
    expect(card.locator('[data-f="countdown"]')).not_to_have_text(first, timeout=5_000)
    assert_geometry(board, "festival-board")
    save_manual_picture(board, "festival-board")

    # The board follows the streams (every card streams: the poll is a 60 s fallback only).
    board.wait_for_function("() => window.TourneyFestival.streaming() === 4")
    fetches = board.evaluate("window.TourneyFestival.fetches")
    clock_operate(actor=director, tournament_id=tournament.pk, operation="pause")
    expect(card.locator('[data-f="level"]')).to_contain_text("Paused", timeout=2_000)
    left = card.locator('[data-f="players"]').inner_text()
    victim = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    eliminations_record(
        actor=director, tournament_id=tournament.pk, eliminations=[(victim.pk, None)]
    )
    expect(card.locator('[data-f="players"]')).not_to_have_text(left, timeout=2_000)
    # The count can change first by a poll (a stream that dropped under load polls quickly
    # till it is back); the event still arrives, replayed after the reconnection if need be.
    # A dropped stream comes back after its backoff (2, 4, 8 s ...): allow a few rounds.
    board.wait_for_function("() => window.TourneyFestival.events >= 1", timeout=35_000)
    assert board.evaluate("window.TourneyFestival.fetches") > fetches
    expect(card.locator('[data-f="pool"]')).to_contain_text("\xa0Ft")  # as every page

    with_password(director)
    page = new_page(viewport=DESKTOP)
    login(page, director, PASSWORD)
    page.goto(f"{live_server.url}/festival/overview/")
    expect(page.locator(".fb-card")).to_have_count(4)
    expect(
        page.locator(f'.fb-card[data-tournament="{tournament.pk}"] [data-f="floor"]')
    ).not_to_be_empty()
    assert_geometry(page, "festival-overview", full_page=True)
    page.wait_for_function("() => window.TourneyFestival.streaming() === 4")  # the session's
    clock_operate(actor=director, tournament_id=tournament.pk, operation="resume")
    overview_card = page.locator(f'.fb-card[data-tournament="{tournament.pk}"]')
    expect(overview_card.locator('[data-f="level"]')).not_to_contain_text("Paused", timeout=2_000)


# Rendered font sizes (px) on the board's first card, and how much of the width the cards use.
BOARD_SIZES = """() => {
  const card = document.querySelector(".fb-card");
  const px = (sel) => parseFloat(getComputedStyle(card.querySelector(sel)).fontSize);
  const cards = [...document.querySelectorAll(".fb-card")];
  const used = cards.reduce((w, c) => w + c.getBoundingClientRect().width, 0);
  return {countdown: px('[data-f="countdown"]'), value: px(".fb-stats dd"),
          label: px(".fb-stats dt"), used: used / window.innerWidth};
}"""


def test_two_tournaments_on_the_board_are_readable_across_the_room(
    live_server, new_page, api, director, room, structure, tournament
):
    """The evening (production run): with two tournaments the 1920x1080 board drew two small
    cards in the top left corner (players, average stack and prize pool in 13-16 px type,
    unreadable from across the room) and left three quarters of the TV empty."""
    seat_players(api, tournament, numbered_players(12))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    side_event(director, structure, room, "Szatellit turbó – 10 fő")
    board = new_page(viewport=TV)
    board.goto(f"{live_server.url}/festival/board/{board_token(room)}/?lang=hu")
    expect(board.locator(".fb-card")).to_have_count(2)
    sizes = board.evaluate(BOARD_SIZES)
    assert sizes["used"] > 0.85, sizes
    assert sizes["countdown"] >= 150, sizes  # a lobby clock's digits, if smaller than alone
    assert sizes["value"] >= 36 and sizes["label"] >= 22, sizes
    assert_geometry(board, "festival-board-two")

    for name in ("Ladies' event", "Turbo deepstack"):  # four: two rows, nothing below the TV
        side_event(director, structure, room, name)
    board.reload()
    expect(board.locator(".fb-card")).to_have_count(4)
    for value in board.locator(".fb-stats dd").all():
        expect(value).to_be_in_viewport(ratio=1)
    assert board.evaluate(BOARD_SIZES)["value"] >= 30


LONG_NAMES = (
    "Őszi Fesztivál Főverseny – Magyar Bajnokság döntő",
    "Hölgyek versenye · Szentgyörgyvölgyi kupa",
    "Turbó mélystack újranevezéssel – éjféli különkiadás",
    "Nagyváradi Pókerklub Egyesület szezonzáró fordulója",
)


def test_the_board_on_a_tv_with_four_running_tournaments(
    live_server, new_page, api, director, room, structure
):
    """Four running tournaments with long Hungarian names on one 1920x1080 TV: every card
    whole, nothing cut or overlapping, the countdowns big; the TV never scrolls."""
    for index, name in enumerate(LONG_NAMES):
        event = side_event(director, structure, room, name)
        seat_players(api, event, [f"Játékos {index}-{n}" for n in range(6 + index)])
        clock_operate(actor=director, tournament_id=event.pk, operation="start")
    board = new_page(viewport=TV)
    board.goto(f"{live_server.url}/festival/board/{board_token(room)}/?lang=hu")
    expect(board.locator(".fb-card")).to_have_count(4)
    board.wait_for_function("() => window.TourneyFestival.streaming() === 4")
    assert_geometry(board, "festival-board-tv-4-hu", fixed_height=True)
    heights = board.eval_on_selector_all(
        ".fb-countdown", "els => els.map(e => e.getBoundingClientRect().height)"
    )
    assert min(heights) >= 1080 / 10, heights  # readable across the room
