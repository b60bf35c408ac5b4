"""Find your seat on a TV (issue 13, item 2): every seated name shows in turn, in the language's
collation, page after page, and the 20-second refresh does not send the screen back to page 1.
The browser's clock is Playwright's (never slept)."""

import random

import pytest
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.color_ups.usecases import color_up_run
from clocks.display.selectors import display_token
from infra.text.collation import sorted_by_name
from tables.models import FloorAction, TournamentTable
from tests.e2e.conftest import TV
from tests.e2e.evening import BREAK_INDEX, NAMES, Evening
from tests.e2e.geometry import assert_geometry
from tourney.models import Entry

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


def test_the_payouts_keep_the_places_decided_last_not_the_first_ones(
    live_server, new_page, director, settings
):
    """The evening's run with 20 places paid, 9 left: the TV struck out "13–20." and dropped
    "10–12.", the places just paid; of the places decided the latest stays (the lowest)."""
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5
    evening = Evening(director).arrange().running().final_table()
    tv = new_page(viewport=TV)
    tv.goto(f"{live_server.url}/display/{display_token(evening.tournament.pk)}/?lang=hu")
    expect(tv.locator(".dclock-payouts li.is-next")).to_contain_text("9.")
    done = tv.locator(".dclock-payouts li.is-done .num:first-child").all_inner_texts()
    assert done == ["10–12."]


def test_the_break_box_holds_a_finished_mixed_color_up_beside_recent_moves(
    live_server, new_page, director, settings
):
    """The evening's run, 1920x1080 in Hungarian: a break with recent moves on the screen and
    the color-up done at every table, raced at one and rounded up at the others. The box's
    "Chip race és felkerekítés · Minden asztal kész: 1 919 975 zseton játékban" was cut at
    its bottom (266 px of text in 255 px)."""
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5
    evening = Evening(director).arrange().running()
    t = evening.tournament.pk
    # a balancing move, confirmed: the TV lists it among the recent moves
    while not FloorAction.objects.filter(tournament_id=t, kind=FloorAction.Kind.MOVE).exists():
        table_one = Entry.objects.filter(
            tournament_id=t, status=Entry.Status.ACTIVE, tournament_table__number=1
        )
        evening._bust(table_one.order_by("seat").first().pk)
    evening._confirm_moves()
    clock_operate(actor=director, tournament_id=t, operation="jump", period_index=BREAK_INDEX)
    tables = TournamentTable.objects.filter(tournament_id=t, status="open").order_by("number")
    for i, table in enumerate(tables):
        seated = Entry.objects.filter(
            tournament_id=t, status=Entry.Status.ACTIVE, tournament_table=table
        ).order_by("seat")
        if i == 0:
            seats = [{"seat": e.seat, "odd_chips": 1} for e in seated]
            color_up_run(actor=director, tournament_id=t, table_number=table.number,
                         seats=seats, method="race", rng=random.Random(3))  # fmt: skip
        else:
            seats = [{"seat": e.seat, "stack": 40_075} for e in seated]
            color_up_run(actor=director, tournament_id=t, table_number=table.number,
                         seats=seats, method="round_up")  # fmt: skip
    tv = new_page(viewport=TV)
    problems = []
    for width, height in ((1920, 1080), (1366, 768), (1280, 720)):
        tv.set_viewport_size({"width": width, "height": height})
        for lang in ("hu", "cs", "en"):
            tv.goto(f"{live_server.url}/display/{display_token(t)}/?lang={lang}")
            tv.wait_for_function("() => window.Tourney && Tourney.displayScreens")
            tv.evaluate("document.fonts.ready")
            expect(tv.locator(".dclock-strip.has-recent-moves")).to_have_count(1)
            expect(tv.locator("[data-field=colorup-status]")).not_to_be_empty()
            name = f"tv-break-color-up-done-recent-moves-{width}x{height}-{lang}"
            try:
                assert_geometry(tv, name, fixed_height=True)
            except AssertionError as exc:
                problems.append(str(exc))
    assert not problems, "\n".join(problems)


def test_the_lobbys_next_levels_say_seconds_for_a_break_under_a_minute(
    live_server, new_page, director, room
):
    """Test events with 45-second levels and a 30-second break: the lobby TV's title said
    "45 másodperces szintek" (22c450b) but its list of next levels still said "0 perc" for the
    break. Under a minute the list says seconds too, in every language."""
    from clocks.domain.structures import Chip, Period, StructureData
    from clocks.structures.usecases import structure_create
    from tourney.tournaments.usecases import tournament_create

    structure = structure_create(
        actor=director,
        data=StructureData(
            name="Teszt 45 mp",
            chips=(Chip(100, "black"), Chip(500, "purple")),
            periods=(
                Period("level", 45, 100, 200),
                Period("level", 45, 200, 400),
                Period("break", 30),
                Period("level", 45, 300, 600),
            ),
            starting_stack=20_000,
        ),
    )
    t = tournament_create(
        actor=director, name="Tesztverseny", structure_id=structure.pk, starting_stack=20_000,
        buy_in=10_000, fee=1_000, room_id=room.pk,
    )  # fmt: skip
    tv = new_page(viewport=TV)
    for lang, title, shown in (
        ("hu", "Kezdő vakok · 45 másodperces szintek", "30 mp"),
        ("cs", "Počáteční blindy · levely po 45 sekundách", "30 s"),
        ("en", "Starting blinds · 45-second levels", "30 sec"),
    ):
        tv.goto(f"{live_server.url}/display/{display_token(t.pk)}/?lang={lang}")
        expect(tv.locator(".lobby-sub")).to_have_text(title)
        expect(tv.locator(".lobby-next li")).to_have_count(3)
        expect(tv.locator(".lobby-next li.is-break .num")).to_have_text(shown)
        assert_geometry(tv, f"tv-lobby-seconds-break-{lang}", fixed_height=True)


# Where the lobby's starting blinds end, and where their column ends.
BLINDS_END = """() => {
  const range = document.createRange();
  range.selectNodeContents(document.querySelector(".lobby-blinds"));
  return [range.getBoundingClientRect().right,
          document.querySelector(".lobby-hero").getBoundingClientRect().right];
}"""


@pytest.mark.parametrize("blinds", [(100, 200, 0), (2_000, 4_000, 4_000)])
def test_the_lobbys_starting_blinds_fit_beside_find_your_seat(
    live_server, new_page, director, room, blinds
):
    """Noticed with the seconds above: before the start, the lobby's big "100 / 200" ran under
    the find-your-seat panel on a 1920x1080 TV ("100 / 20" showed); its font now shrinks to fit
    its column, as the other figures of the lobby do."""
    from clocks.domain.structures import Chip, Period, StructureData
    from clocks.structures.usecases import structure_create
    from tourney.tournaments.usecases import tournament_create

    small, big, ante = blinds
    structure = structure_create(
        actor=director,
        data=StructureData(
            name=f"Kezdő {small}",
            chips=(Chip(100, "black"), Chip(1_000, "yellow")),
            periods=(Period("level", 1200, small, big, ante), Period("level", 1200, big, 2 * big)),
            starting_stack=100_000,
        ),
    )
    t = tournament_create(
        actor=director, name="Péntek esti verseny", structure_id=structure.pk,
        starting_stack=100_000, buy_in=10_000, fee=1_000, room_id=room.pk,
    )  # fmt: skip
    for viewport in (TV, {"width": 1366, "height": 768}, {"width": 1080, "height": 1920}):
        tv = new_page(viewport=viewport)
        tv.goto(f"{live_server.url}/display/{display_token(t.pk)}/?lang=hu")
        expect(tv.locator(".lobby-blinds")).to_contain_text(f"{big:,}".replace(",", "\u00a0"))
        size = f"{viewport['width']}x{viewport['height']}"
        assert_geometry(tv, f"tv-lobby-blinds-{small}-{size}", fixed_height=True)
        # Under the panel the text is hidden, not overlapped: its end is inside its column.
        text_end, column_end = tv.evaluate(BLINDS_END)
        assert text_end <= column_end + 1, (size, text_end, column_end)
        tv.close()


@pytest.mark.parametrize("viewport", [TV, {"width": 1280, "height": 720}])
def test_a_guaranteed_million_shows_whole_before_the_start(
    live_server, new_page, director, settings, viewport
):
    """The third evening production run: before the start the lobby TV (1920x1080, hu) showed
    the prize pool of a 1 000 000 Ft guarantee as "1 000 00…": its column was 239 px wide and
    the figure 250 px even at half its size."""
    from tourney.models import Tournament

    settings.EVENTS_HEARTBEAT_SECONDS = 0.5
    evening = Evening(director).arrange()
    Tournament.objects.filter(pk=evening.tournament.pk).update(guarantee=1_000_000)
    tv = new_page(viewport=viewport)
    tv.goto(f"{live_server.url}/display/{display_token(evening.tournament.pk)}/?lang=hu")
    expect(tv.locator("#seat-results ol[data-paged]")).to_have_count(1)
    expect(tv.locator(".lobby-prize .display-value")).to_have_text("1 000 000 Ft")
    assert_geometry(tv, f"display-pending-guarantee-{viewport['width']}", fixed_height=True)


def test_the_lobby_before_the_start_counts_the_registrations_as_they_come(
    live_server, new_page, director, settings
):
    """The evening's play on PostgreSQL: a lobby TV opened at the start of registration kept
    "0 Ft · 0 / 0 · 0" under the first levels while 66 players registered and the seats were
    drawn (only the seat list, polled every 20 s, changed); a reload showed 792 000 Ft and
    66 / 66. The figures follow the event stream now, and the heading the draw."""
    from tourney.players.usecases import player_create
    from tourney.registration.usecases import entry_register

    settings.EVENTS_HEARTBEAT_SECONDS = 0.5
    evening = Evening(director, players=10).arrange()
    tv = new_page(viewport=TV)
    tv.goto(f"{live_server.url}/display/{display_token(evening.tournament.pk)}/?lang=hu")
    stats = tv.locator(".dscreen-pending .lobby-stats .display-value")
    expect(stats).to_have_text(["100 000 Ft", "10 / 10", "40 000"])
    assert "{#" not in tv.locator(".dscreen-pending").inner_text()
    expect(tv.locator(".lobby-hero > .display-label")).to_have_text(
        "Sorsolás kész: foglald el a helyed"
    )
    for name in ("Késő Nevező Bernadett", "Utolsó Pillanat Ödön"):
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=evening.tournament.pk, player_id=player.pk)
    expect(stats).to_have_text(["120 000 Ft", "12 / 12", "40 000"])
