"""The floor in a real browser (issue 4): a dealer busts players on a phone until a table breaks
and then until the final table, and the director follows the console's to-do list.

Arranged through the services (fast): a Rimóc tournament (final table 9, table thresholds
10/18/27), so 19 players start on three tables. Every bust-out is tapped on a dealer page;
every move, break and redraw the console lists is confirmed there. The console learns of the
busts only through the event stream (the busts happen on another page, and the console page is
never reloaded: a marker set on its window must survive).

Screenshots: test-artifacts/screenshots/floor-*.png.
"""

import random
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page, expect

from clocks.clock.usecases import clock_operate
from tables.floor.usecases import floor_action_done
from tables.models import FloorAction, TournamentTable
from tables.seating.usecases import seats_draw
from tests.conftest import make_staff
from tests.e2e.conftest import DESKTOP, PASSWORD, PHONE, with_password
from tourney.eliminations.usecases import eliminations_record
from tourney.models import Elimination, Entry
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Kovács Péter",
    "Nagy Éva",
    "Szabó Zoltán",
    "Tóth Ödön",
    "Papp Réka",
    "Horváth Júlia",
    "Varga Lili",
    "Molnár Dávid",
    "Balogh Máté",
    "Fekete Bence",
    "Kiss Anna",
    "Farkas Gergő",
    "Lakatos Ilona",
    "Simon Ákos",
    "Takács Zsófia",
    "Juhász Levente",
    "Mészáros Enikő",
    "Oláh Bálint",
    "Rácz Csilla",
    "Fehér Gábor",
]
NO_RELOAD = "window.__floorTestMarker"


# --- arranging through the services ------------------------------------------------------


def _arrange(director, tournament, count: int) -> None:
    """`count` players registered, seats drawn (seeded), the clock (and tournament) started."""
    for name in NAMES[:count]:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(4))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")


def _open_pages(live_server, new_page, login, director, tournament) -> tuple[Page, Page]:
    """The director's console on a desktop and a floor person's phone, both signed in."""
    floor = with_password(make_staff("floor", "floor"))
    console = new_page(viewport=DESKTOP)
    login(console, with_password(director), PASSWORD)
    console.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    # Events reach the page once its stream is connected.
    expect(console.locator("body")).to_have_attribute("data-floor-stream", "online")
    console.evaluate(f"{NO_RELOAD} = true")
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    login(phone, floor, PASSWORD)
    return console, phone


# --- the console -------------------------------------------------------------------------


def _console_tables(console: Page, players: int) -> dict[int, int]:
    """Players per table as the console's tables map shows them, once it shows `players`."""
    console.wait_for_function(
        """(n) => [...document.querySelectorAll('#floor-tables .floor-table')]
             .map(t => Number(t.querySelector('.table-card-count strong').textContent))
             .reduce((a, b) => a + b, 0) === n""",
        arg=players,
    )
    counts = {}
    for table in console.locator("#floor-tables .floor-table").all():
        count = table.locator(".table-card-count strong").text_content()
        counts[int(table.get_attribute("data-table"))] = int(count)
    return counts


def _clear_toasts(page: Page) -> None:
    """Close the toasts still showing, so that a screenshot shows the page under them."""
    page.evaluate("document.querySelectorAll('#toasts .toast-close').forEach(b => b.click())")
    expect(page.locator("#toasts .toast")).to_have_count(0)


def _assert_live(console: Page) -> None:
    assert console.evaluate(NO_RELOAD) is True, "the console was reloaded"


def _todo(console: Page):
    return console.locator("#floor-todo li.floor-action")


def _confirm_everything(console: Page) -> int:
    """Confirm every pending move the console lists, one Done at a time; returns how many."""
    actions = _todo(console)
    done = 0
    while actions.locator("form.floor-done").count():
        action = actions.filter(has=console.locator("form.floor-done")).first
        action_id = action.get_attribute("data-action")
        mover = action.locator("form.floor-done select[name=entry]")
        if mover.count():  # the console asks who moved: the first player offered
            mover.select_option(index=1)
        action.locator("form.floor-done button[type=submit]").click()
        expect(console.locator(f'#floor-todo li[data-action="{action_id}"]')).to_have_count(0)
        done += 1
    expect(console.locator("#floor-todo li")).to_have_count(0)
    return done


# --- the dealer page ---------------------------------------------------------------------


def _dealer_url(live_server, tournament, number: int) -> str:
    return live_server.url + reverse("tables:dealer", args=[tournament.pk, number])


def _bust(phone: Page, count: int = 1, stacks: list[int] | None = None) -> list[int]:
    """Tap the first `count` players in the bust-out dialog (with their stacks at the start
    of the hand, if given), then "Bust-out and hand finished". Returns their entry ids."""
    phone.locator("#bustout-open").tap()
    dialog = phone.locator("#bustout-dialog")
    expect(dialog).to_be_visible()
    picks = dialog.locator("input[name=entry]")
    entry_ids = []
    for i in range(count):
        entry_id = picks.nth(i).get_attribute("value")
        dialog.locator(f'label[for="bust-{entry_id}"]').tap()
        expect(picks.nth(i)).to_be_checked()
        if stacks:
            dialog.locator(f"#bust-stack-{entry_id}").fill(str(stacks[i]))
        entry_ids.append(int(entry_id))
    dialog.locator("#bustout-finish").tap()
    expect(dialog).to_be_hidden()
    for entry_id in entry_ids:  # the page refreshed: the seat is empty now
        expect(phone.locator(f'.dealer-oval .seat[data-entry="{entry_id}"]')).to_have_count(0)
    return entry_ids


def _expect_place_toast(phone: Page, entry_id: int, place: int) -> None:
    name = Entry.objects.select_related("player").get(pk=entry_id).player.name
    expect(
        phone.locator("#toasts .toast", has_text=f"{name} is out in place {place}")
    ).to_have_count(1)


def _places(tournament) -> dict[int, int]:
    return dict(
        Elimination.objects.filter(tournament=tournament, undone_at__isnull=True).values_list(
            "entry_id", "place"
        )
    )


def _seat_of(entry_id: int) -> tuple[int, int]:
    entry = Entry.objects.select_related("tournament_table").get(pk=entry_id)
    return entry.tournament_table.number, entry.seat


# --- the tests ---------------------------------------------------------------------------


def test_bust_outs_to_a_table_break_and_the_final_table(
    live_server, new_page, login, screenshot, director, tournament
):
    _arrange(director, tournament, 19)
    console, phone = _open_pages(live_server, new_page, login, director, tournament)
    tables = _console_tables(console, 19)
    assert sorted(tables.values()) == [6, 6, 7]  # 19 players: three tables
    expect(console.locator("#floor-todo li")).to_have_count(0)

    expected_places: dict[int, int] = {}

    # 19 -> 18: two tables are enough now. Bust at the fullest table.
    fullest = max(tables, key=lambda n: (tables[n], -n))
    phone.goto(_dealer_url(live_server, tournament, fullest))
    [first] = _bust(phone)
    expected_places[first] = 19
    _expect_place_toast(phone, first, 19)

    # The console hears of it over the event stream: a table break, its players, new seats.
    brk = console.locator('#floor-todo li.floor-action[data-kind="break_table"]')
    expect(brk).to_have_count(1)
    _assert_live(console)
    broken = FloorAction.objects.get(tournament=tournament, kind="break_table", status="pending")
    moves = list(broken.children.select_related("entry__player").order_by("pk"))
    assert len(moves) == 6 and {m.from_table for m in moves} == {broken.from_table}
    expect(brk).to_contain_text(f"Break table {broken.from_table}: 6 players to new seats")
    rows = brk.locator("tr[data-move]")
    expect(rows).to_have_count(6)
    for move in moves:
        row = brk.locator(f'tr[data-move="{move.pk}"]')
        expect(row.locator(".floor-player")).to_contain_text(move.entry.player.name)
        expect(row.locator("td.floor-seat-big")).to_have_text(f"T{move.to_table} · S{move.to_seat}")
        assert _seat_of(move.entry_id) == (move.to_table, move.to_seat)  # applied at once
        assert move.to_table != broken.from_table
    console.locator("#floor-todo").scroll_into_view_if_needed()
    _clear_toasts(console)
    screenshot(console, "floor-console-break-pending", full_page=False)

    # The broken table's dealer page: closed, and where each of its players goes.
    phone.goto(_dealer_url(live_server, tournament, broken.from_table))
    expect(phone.locator("#dealer-hold")).to_have_attribute("data-hold", "closed")
    outgoing = phone.locator("#dealer-moves li.move-item.is-outgoing")
    expect(outgoing).to_have_count(6)
    for move in moves:
        expect(
            phone.locator(f'#dealer-moves li[data-move="{move.pk}"] .move-text')
        ).to_contain_text(
            f"{move.entry.player.name} (s{move.from_seat}) → T{move.to_table} seat {move.to_seat}"
        )
    expect(phone.locator("#bustout-open")).to_have_count(0)  # nothing is dealt here any more
    screenshot(phone, "floor-dealer-outgoing", full_page=False)

    # Follow the console: one move confirmed on its own, then the rest of the break at once.
    rows.first.locator("form.floor-move-done button").click()
    expect(rows.first).to_have_class(re.compile(r"\bis-done\b"))
    expect(outgoing).to_have_count(5)  # the dealer page follows live
    brk.locator("form.floor-done button", has_text="The other 5 done").click()
    expect(console.locator("#floor-todo li")).to_have_count(0)
    expect(phone.locator("#dealer-moves")).to_have_count(0)
    broken.refresh_from_db()
    assert broken.status == "done"
    assert set(broken.children.values_list("status", flat=True)) == {"done"}
    assert TournamentTable.objects.get(tournament=tournament, number=broken.from_table).status != (
        TournamentTable.Status.OPEN
    )

    # Down to the final table. The console says which tables still play; the dealer busts
    # three at one table (a balancing move follows), two in one hand, then at the fullest.
    steps = [("fewest", 1)] * 3 + [("fullest", 2)] + [("fullest", 1)] * 4
    remaining = 18
    moves_confirmed = 0
    for i, (which, count) in enumerate(steps):
        tables = _console_tables(console, remaining)
        assert len(tables) == 2
        if which == "fewest":
            number = min(tables, key=lambda n: (tables[n], n))
        else:
            number = max(tables, key=lambda n: (tables[n], -n))
        phone.goto(_dealer_url(live_server, tournament, number))
        expect(phone.locator(".dealer-oval .seat[data-entry]")).to_have_count(tables[number])
        stacks = [20_000, 35_000] if count == 2 else None
        busted = _bust(phone, count, stacks)
        if count == 2:  # more chips at the start of the hand: the better place
            expected_places[busted[0]] = remaining
            expected_places[busted[1]] = remaining - 1
        else:
            expected_places[busted[0]] = remaining
        for entry_id in busted:
            _expect_place_toast(phone, entry_id, expected_places[entry_id])
        remaining -= count
        if remaining == 9:
            break
        if i == 2:  # 6 against 9: the console calls for a balancing move
            expect(console.locator('#floor-todo li.floor-action[data-kind="move"]')).to_have_count(
                1
            )
            _assert_live(console)
            _clear_toasts(console)
            screenshot(console, "floor-console-balancing-move", full_page=False)
        moves_confirmed += _confirm_everything(console)
    assert moves_confirmed >= 1

    # Nine left: the console shows the final-table redraw, nine seats and the button.
    redraw = console.locator('#floor-todo li.floor-action[data-kind="final_table_redraw"]')
    expect(redraw).to_have_count(1)
    _assert_live(console)
    final = FloorAction.objects.get(
        tournament=tournament, kind="final_table_redraw", status="pending"
    )
    button = final.payload["button_seat"]
    expect(redraw).to_contain_text(f"Final table at table {final.to_table}: 9 players redrawn")
    expect(redraw.locator(".floor-action-meta")).to_contain_text(f"Button: seat {button}")
    expect(redraw.locator("td.floor-seat-big")).to_have_text([str(s) for s in range(1, 10)])
    console.locator("#floor-todo").scroll_into_view_if_needed()
    _clear_toasts(console)
    screenshot(console, "floor-console-final-table", full_page=False)
    redraw.locator("form.floor-done button", has_text="All done").click()
    expect(console.locator("#floor-todo li")).to_have_count(0)
    expect(console.locator("#floor-tables .floor-table")).to_have_count(1)
    _assert_live(console)

    # The final table's dealer page: nine players, the button where the table has it (the
    # drawn seat itself: see test_final_table_keeps_the_drawn_button).
    open_tables = TournamentTable.objects.filter(tournament=tournament, status="open")
    assert [t.number for t in open_tables] == [final.to_table]
    phone.goto(_dealer_url(live_server, tournament, final.to_table))
    expect(phone.locator(".dealer-oval .seat[data-entry]")).to_have_count(9)
    expect(phone.locator(".dealer-oval .seat.button")).to_have_attribute(
        "data-seat", str(open_tables[0].button_seat)
    )
    expect(phone.locator("#dealer-moves")).to_have_count(0)
    screenshot(phone, "floor-dealer-final-table", full_page=False)

    # The database agrees.
    seated = Entry.objects.filter(tournament=tournament, status="active")
    assert sorted(seated.values_list("seat", flat=True)) == list(range(1, 10))
    assert set(seated.values_list("tournament_table__number", flat=True)) == {final.to_table}
    out = Entry.objects.filter(tournament=tournament, status="eliminated")
    assert dict(out.values_list("pk", "place")) == expected_places
    assert _places(tournament) == expected_places
    assert sorted(expected_places.values()) == list(range(10, 20))
    actions = FloorAction.objects.filter(tournament=tournament)
    assert not actions.filter(status="pending").exists()
    assert set(actions.values_list("status", flat=True)) == {"done"}
    top = list(actions.filter(parent__isnull=True).values_list("kind", flat=True))
    assert top.count("break_table") == 1 and top.count("final_table_redraw") == 1
    assert top.count("move") == moves_confirmed


def test_undo_a_bust_out_from_the_dealer_page_toast(
    live_server, new_page, login, screenshot, director, tournament
):
    _arrange(director, tournament, 20)
    earlier = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    eliminations_record(
        actor=director, tournament_id=tournament.pk, eliminations=[(earlier.pk, None)]
    )
    console, phone = _open_pages(live_server, new_page, login, director, tournament)
    tables = _console_tables(console, 19)
    fullest = max(tables, key=lambda n: (tables[n], -n))

    phone.goto(_dealer_url(live_server, tournament, fullest))
    [busted] = _bust(phone)
    before = Entry.objects.get(pk=busted)
    table_number, seat = fullest, before.seat
    _expect_place_toast(phone, busted, 19)
    assert Entry.objects.get(pk=busted).status == "eliminated"
    # 18 left: the break is planned (the console shows it) ...
    expect(console.locator('#floor-todo li.floor-action[data-kind="break_table"]')).to_have_count(1)

    # ... and the dealer takes the bust-out back from its toast.
    name = before.player.name
    toast = phone.locator("#toasts .toast", has_text=f"{name} is out in place 19")
    toast.locator(".toast-undo").tap()
    expect(phone.locator("#toasts .toast", has_text="Undone")).to_have_count(1)
    seat_box = phone.locator(f'.dealer-oval .seat[data-entry="{busted}"]')
    expect(seat_box).to_have_attribute("data-seat", str(seat))
    expect(seat_box.locator(".seat-name")).to_have_text(name)
    screenshot(phone, "floor-dealer-undone", full_page=False)

    # The break it caused is taken back too: the console's list empties, live.
    expect(console.locator("#floor-todo li")).to_have_count(0)
    _console_tables(console, 19)
    _assert_live(console)

    entry = Entry.objects.select_related("tournament_table").get(pk=busted)
    assert entry.status == "active" and entry.place is None
    assert (entry.tournament_table.number, entry.seat) == (table_number, seat)
    assert _places(tournament) == {earlier.pk: 20}  # the earlier bust keeps its place
    assert Entry.objects.get(pk=earlier.pk).place == 20
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 19
    assert not FloorAction.objects.filter(tournament=tournament, status="pending").exists()
    assert TournamentTable.objects.filter(tournament=tournament, status="open").count() == 3


# --- "Bust-out and hand finished" on the hand that closes or redraws the table -----------


def _bust_by_service(director, tournament, down_to: int) -> None:
    """Bust players at the last table until `down_to` remain, confirming every floor
    action at once (the floor is quick)."""
    while Entry.objects.filter(tournament=tournament, status="active").count() > down_to:
        entry = (
            Entry.objects.filter(tournament=tournament, status="active")
            .order_by("-tournament_table__number", "seat")
            .first()
        )
        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(entry.pk, None)]
        )
        for action in FloorAction.objects.filter(
            tournament=tournament, status="pending", parent__isnull=True
        ):
            floor_action_done(actor=director, tournament_id=tournament.pk, action_id=action.pk)


def _phone_at(live_server, new_page, login, tournament, number: int) -> Page:
    floor = with_password(make_staff("floor", "floor"))
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    login(phone, floor, PASSWORD)
    phone.goto(_dealer_url(live_server, tournament, number))
    return phone


def test_final_table_keeps_the_drawn_button(live_server, new_page, login, director, tournament):
    _arrange(director, tournament, 19)
    _bust_by_service(director, tournament, 10)
    host = TournamentTable.objects.filter(tournament=tournament, status="open").order_by("number")[
        0
    ]
    phone = _phone_at(live_server, new_page, login, tournament, host.number)
    [busted] = _bust(phone)
    _expect_place_toast(phone, busted, 10)
    final = FloorAction.objects.get(tournament=tournament, kind="final_table_redraw")
    assert final.to_table == host.number
    host.refresh_from_db()
    # The high card decides the button of the final table's first hand.
    assert host.button_seat == final.payload["button_seat"]


def test_bust_out_that_breaks_its_own_table_says_nothing_wrong(
    live_server, new_page, login, director, tournament
):
    _arrange(director, tournament, 19)
    counts = {
        t.number: t.entries.filter(status="active").count()
        for t in TournamentTable.objects.filter(tournament=tournament, status="open")
    }
    smallest = min(counts, key=lambda n: (counts[n], -n))  # it will be the one to break
    phone = _phone_at(live_server, new_page, login, tournament, smallest)
    [busted] = _bust(phone)
    _expect_place_toast(phone, busted, 19)
    assert FloorAction.objects.get(tournament=tournament, kind="break_table").from_table == (
        smallest
    )
    # The hand is over and the table is closed: nothing for the dealer to worry about.
    expect(phone.locator("#toasts .toast.bad")).to_have_count(0)


# Cells of the floor's to-do moves that end right of the phone's window (read only by scrolling
# the table sideways).
CUT_CELLS = """() => [...document.querySelectorAll('#floor-todo tr[data-move] > td')]
  .filter((td) => td.getBoundingClientRect().right > window.innerWidth + 0.5)
  .map((td) => td.textContent.trim())"""


def test_a_table_break_on_the_floor_phone_shows_each_new_seat_and_done(
    live_server, new_page, login, screenshot, director, tournament
):
    """The evening (production run): on the floor phone (390 px) a table break's moves were a
    table wider than the screen: the new seats ("T3 · S3") and each move's Done were off to the
    right, behind a sideways scroll."""
    _arrange(director, tournament, 19)
    floor = with_password(make_staff("floor", "floor"))
    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    login(phone, floor, PASSWORD)
    phone.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    # the bust-out is made once the page listens (made before, under load, it was missed)
    expect(phone.locator("body")).to_have_attribute("data-floor-stream", "online")
    fullest = (
        Entry.objects.filter(tournament=tournament, status="active")
        .values_list("tournament_table__number", flat=True)
        .order_by("tournament_table__number")
    )
    counts = {n: list(fullest).count(n) for n in set(fullest)}
    table = max(counts, key=lambda n: (counts[n], -n))
    victim = Entry.objects.filter(tournament=tournament, tournament_table__number=table).first()
    eliminations_record(
        actor=director, tournament_id=tournament.pk, eliminations=[(victim.pk, None)]
    )
    brk = phone.locator('#floor-todo li.floor-action[data-kind="break_table"]')
    expect(brk.locator("tr[data-move]")).to_have_count(6)
    brk.scroll_into_view_if_needed()
    assert phone.evaluate(CUT_CELLS) == []
    for row in brk.locator("tr[data-move]").all():
        expect(row.locator("td.floor-seat-big")).to_be_in_viewport()
        expect(row.locator("form.floor-move-done button")).to_be_visible()
    screenshot(phone, "floor-phone-break-moves", full_page=False)
