"""The console clock strip driven by keyboard in a real browser: start, space to pause (the
strip says PAUSED), undo, next level, undo again; screenshots of each state."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.models import Clock
from tables.seating.usecases import seats_draw
from tests.e2e.conftest import PASSWORD, open_tool, with_password
from tourney.models import Tournament
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register

pytestmark = pytest.mark.django_db(transaction=True)


def test_console_clock_by_keyboard(live_server, page, login, screenshot, director, tournament):
    with_password(director)
    for name in ["Kovács Péter", "Nagy Éva", "Szabó Zoltán", "Tóth Ödön", "Papp Réka"]:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_level=2)

    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    panel = page.locator("#console-clock")
    status = page.locator("#cc-status-text")
    expect(status).to_have_text("Not started")
    expect(page.locator("#cc-time")).to_have_text("15:00")
    expect(page.locator("[data-op=next] kbd")).to_have_text("N")  # each button wears its key
    screenshot(page, "console-clock-pending", full_page=False)

    with page.expect_navigation():  # starting also starts the tournament: the page reloads
        page.locator("#cc-start").click()
    expect(status).to_have_text("Running")
    expect(panel).to_have_class(re.compile(r"\bis-running\b"))
    expect(page.locator("#cc-blinds")).to_have_text("100 / 200")

    page.keyboard.press("Space")
    expect(status).to_have_text("PAUSED")
    expect(panel).to_have_class(re.compile(r"\bis-paused\b"))
    expect(page.locator("#cc-toggle")).to_contain_text("Resume")
    expect(page.locator("#toasts .toast").last).to_contain_text("Clock paused")
    expect(page.locator("#toasts .toast-undo").last).to_be_visible()  # undo offered in the toast
    assert Clock.objects.get(tournament=tournament).status == "paused"
    screenshot(page, "console-clock-paused", full_page=False)

    page.keyboard.press("u")  # undo the pause: the time kept running meanwhile
    expect(status).to_have_text("Running")
    assert Clock.objects.get(tournament=tournament).status == "running"

    page.keyboard.press("n")
    expect(page.locator("#cc-level")).to_have_text("Level 2")
    expect(page.locator("#cc-blinds")).to_have_text("200 / 400")
    expect(page.locator("#cc-next")).to_have_text("Level 3: 300 / 600")
    screenshot(page, "console-clock-running", full_page=False)

    page.keyboard.press("Control+z")  # the level change was a mistake
    expect(page.locator("#cc-blinds")).to_have_text("100 / 200")
    clock = Clock.objects.get(tournament=tournament)
    assert (clock.status, clock.period_index) == ("running", 0)

    page.keyboard.press("u")  # nothing left to undo: said plainly, nothing changes
    expect(page.locator("#toasts .toast.bad").last).to_contain_text("no clock change to undo")
    screenshot(page, "console-full", full_page=True)

    # The desk shows the late-registration time left (L1 running + L2 = about 30 minutes).
    page.goto(live_server.url + reverse("tourney:desk", args=[tournament.pk]))
    late = page.locator("#late-registration")
    expect(late).to_contain_text("until the end of level 2")
    expect(late.locator("[data-late-reg-left]")).to_have_text(re.compile(r"^(29|30):\d\d$"))
    screenshot(page, "desk-late-registration", full_page=False)


def test_a_floor_phone_open_before_the_start_gets_the_running_tools_when_the_director_starts(
    live_server, new_page, login, director, tournament
):
    """The evening (production run): the floor phone, opened on the console before the start,
    kept "Registering" and no bust-out, hand-for-hand or penalty tools once the director started
    the tournament from his laptop, until someone reloaded it by hand."""
    from tests.conftest import make_staff
    from tests.e2e.conftest import PHONE

    with_password(director)
    floor = make_staff("floor", "floor")
    with_password(floor)
    for name in ["Szentgyörgyvölgyi Kovács Bálint Zsigmond", "Nagy Éva", "Tóth Ödön"]:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk)
    console_url = live_server.url + reverse("tourney:console", args=[tournament.pk])

    phone = new_page(viewport=PHONE, is_mobile=True, has_touch=True)
    login(phone, floor, PASSWORD)
    phone.goto(console_url)
    expect(phone.locator("#quick-bustout")).to_have_count(0)
    laptop = new_page()
    login(laptop, director, PASSWORD)
    laptop.goto(console_url)
    with laptop.expect_navigation():
        laptop.locator("#cc-start").click()

    expect(phone.locator("#quick-bustout")).to_be_visible()
    expect(phone.locator("#penalty-search")).to_have_count(1)
    expect(phone.locator("#cc-status-text")).to_have_text("Running")


def test_the_desk_counts_down_the_late_registration(live_server, page, login, director, tournament):
    """Evening production run: the desk said "6:08 left" for minutes: its closing instant was
    written with thousand separators (data-closes-at-ms="1,796,198,059,888"), which the page
    could not read, so the time left never moved."""
    from clocks.clock.usecases import clock_operate

    with_password(director)
    for name in ["Kovács Péter", "Nagy Éva"]:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk)
    Tournament.objects.filter(pk=tournament.pk).update(late_registration_level=2)
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")

    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:desk", args=[tournament.pk]))
    left = page.locator("#late-registration [data-late-reg-left]")
    first = left.inner_text()
    expect(left).not_to_have_text(first, timeout=3_000)  # it counts, a second at a time


def _started(director, tournament, names: list[str]) -> None:
    """`names` registered and seated, the tournament started (the director may sign in)."""
    from clocks.clock.usecases import tournament_start

    with_password(director)
    for name in names:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk)
    tournament_start(actor=director, tournament_id=tournament.pk)


def test_the_console_open_at_the_last_bust_out_shows_the_finished_tournament(
    live_server, page, login, director, tournament
):
    """The evening (production run): the last bust-out, recorded from another screen, left the
    console saying "Running" with its pause button until someone reloaded it by hand."""
    from tourney.eliminations.usecases import eliminations_record
    from tourney.models import Entry

    _started(director, tournament, ["Szentgyörgyvölgyi-Kovácsné Ágnes", "Hódmezővásárhelyi Bálint"])
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    expect(page.locator("#cc-status-text")).to_have_text("Running")
    expect(page.locator(".page-subtitle .badge")).to_have_text("Running")

    loser = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    with page.expect_navigation():
        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(loser.pk, None)]
        )
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    expect(page.locator(".page-subtitle .badge")).to_have_text("Finished")
    expect(page.locator("#cc-status-text")).to_have_text("Finished")
    expect(page.locator("#cc-toggle")).to_be_disabled()


def test_a_finished_tournaments_console_disables_the_clock_controls(
    live_server, page, login, screenshot, director, tournament
):
    """After the finish the console still offered Previous/Next, ±1 minute, Jump and Undo,
    enabled, and the API took them (a jump reopened the finished tournament's clock). Now every
    clock control is disabled with the line "The tournament is over.", the keys do nothing, and
    a button forced on is answered by the API's 409, shown in a toast, the clock unchanged.
    Undoing the finishing bust-out gives them back."""
    from tourney.eliminations.usecases import eliminations_record
    from tourney.models import Entry

    _started(director, tournament, ["Kovács Péter", "Nagy Éva"])
    loser = Entry.objects.filter(tournament=tournament).order_by("pk").first()
    eliminations_record(
        actor=director, tournament_id=tournament.pk, eliminations=[(loser.pk, None)]
    )
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.FINISHED
    clock = Clock.objects.get(tournament=tournament)
    stopped = (clock.status, clock.period_index, clock.version)
    assert stopped[0] == "finished"

    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    expect(page.locator("#cc-status-text")).to_have_text("Finished")
    expect(page.locator("#cc-over")).to_have_text("The tournament is over.")
    controls = page.locator(
        "#console-clock [data-op], #cc-jump-select, #cc-jump button[type=submit]"
    )
    assert controls.count() == 8  # pause/resume, previous, next, -1, +1, jump to, jump, undo
    for control in controls.all():
        expect(control).to_be_disabled()
    # Issue 32: no red Pause on a finished console; the disabled toggle is grey.
    expect(page.locator("#cc-toggle")).not_to_have_class(re.compile(r"\bbtn-danger\b"))
    expect(page.locator("#cc-toggle")).to_have_class(re.compile(r"\bbtn-secondary\b"))
    screenshot(page, "console-clock-finished", full_page=False)

    sent = []
    page.on("request", lambda r: sent.append(r.url) if r.method == "POST" else None)
    for key in ("n", "p", "+", "-", "u", "Space"):
        page.keyboard.press(key)
    # A button forced on anyway: its answer comes after anything the keys had queued.
    page.evaluate("document.querySelector('#console-clock [data-op=\"next\"]').disabled = false")
    with page.expect_response(lambda r: r.url.endswith("/clock/next")) as answer:
        page.locator('#console-clock [data-op="next"]').click()
    assert answer.value.status == 409
    assert [url.rsplit("/", 2)[-2:] for url in sent] == [["clock", "next"]]
    expect(page.locator("#toasts .toast.bad").last).to_have_text(
        re.compile(r"The tournament is over\.")
    )
    clock = Clock.objects.get(tournament=tournament)
    assert (clock.status, clock.period_index, clock.version) == stopped

    # The finishing bust-out undone (here, on this console): play goes on, the page is drawn
    # again with the clock running and its controls back.
    open_tool(page, "activity")
    with page.expect_navigation():
        page.locator("#activity-log li", has_text="eliminated").first.locator(
            "[data-row-undo]"
        ).click()
    expect(page.locator("#cc-status-text")).to_have_text("Running")
    expect(page.locator("#cc-over")).to_have_count(0)
    for control in controls.all():
        expect(control).to_be_enabled()


def test_the_level_picked_in_the_jump_list_stays_till_jump_is_pressed(
    live_server, page, login, director, tournament
):
    """The third evening production run: the director picked "Level 7" in the jump list, moved
    to the Jump button and pressed it; the list had gone back to the level in play within a
    second (every tick set it while it did not have the focus), so Jump restarted the current
    level, losing its elapsed time, instead of jumping."""
    from clocks.clock.usecases import clock_operate

    with_password(director)
    for name in ["Szentgyörgyvölgyi-Kovácsné Ágnes", "Hódmezővásárhelyi Bálint"]:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk)
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")

    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("tourney:console", args=[tournament.pk]))
    expect(page.locator("#cc-level")).to_have_text("Level 1")
    jump = page.locator("#cc-jump-select")
    jump.select_option("2")  # level 3 (period 2)
    page.locator("#cc-jump button[type=submit]").focus()  # the director moves to Jump
    time = page.locator("#cc-time")
    shown = time.inner_text()
    expect(time).not_to_have_text(shown, timeout=3_000)  # the clock has ticked meanwhile
    expect(jump).to_have_value("2")
    page.keyboard.press("Enter")
    expect(page.locator("#cc-level")).to_have_text("Level 3")
    assert Clock.objects.get(tournament=tournament).period_index == 2
