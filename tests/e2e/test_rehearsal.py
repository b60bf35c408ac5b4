"""The rehearsal (issue 13): one evening played on six screens at once, as a room runs it.

"Friday Deepstack #12" in a room of 43 seats (four tables of 9 and one of 7): the console and the
desk at 1366x768, two dealer phones at 390x844, a lobby TV at 1920x1080 and one in portrait at
1080x1920, each in its own browser context; the console and the first phone in Hungarian, the
second phone and the portrait TV in Czech, the desk and the landscape TV in English and
Hungarian. Long Hungarian names with accents ("Szentgyörgyvölgyi-Kovácsné Ágnes").

The evening: 38 players registered before the doors open, seats drawn, the clock started;
late registration at the desk by keyboard up to level 4 fills the room and puts two players on
the waiting list (45 players); two bust-outs on the dealer phones seat the waiting list; two
more busted players rebuy at the desk; at the break after level 4 every table colors up the
25s and 100s on a phone and the console's card turns done; a penalty from the console; bust-outs
until a table breaks (its moves confirmed on the console, seen on the TVs), down to the
final-table redraw, an ICM deal on the console among the last three, and the winner on the TVs.

Levels pass by the clock's own controls (`clock_operate`, the API's `jump`), never by waiting;
between the stages the field is played down through the services (fast), the steps a person
takes are taken on the pages, and every wait is on a page condition. At every stage each of
the six screens is reloaded, checked by the geometry check (tests/e2e/geometry.py: nothing
overlapping, outside the window or cut) and photographed into test-artifacts/rehearsal/
<stage>-<screen>.png (CI keeps test-artifacts/). The problems of the whole evening are listed
together at the end.
"""

from __future__ import annotations

import os
import random

import pytest
from django.db import transaction
from django.urls import reverse
from playwright.sync_api import Page, expect

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from tables.floor.usecases import floor_action_done
from tables.models import FloorAction
from tables.rooms.usecases import room_create
from tables.seating.usecases import seats_draw
from tests.e2e.conftest import MANUAL_MODE, PASSWORD, open_tool, save_manual_picture, with_password
from tests.e2e.desk_steps import desk_search
from tests.e2e.evening import _payouts, _structure
from tests.e2e.geometry import geometry_problems
from tests.e2e.penalty_steps import penalty_search
from tourney.chip_counts.usecases import chip_counts_set
from tourney.core.locks import tournament_lock
from tourney.domain.purchases import MoneySettings
from tourney.eliminations.follow import eliminations_record_locked
from tourney.eliminations.usecases import eliminations_record
from tourney.flights.usecases import flight_create
from tourney.models import ChipPurchase, Entry, Penalty, Tournament
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register
from tourney.tournaments.selectors import tournament_summary
from tourney.tournaments.usecases import tournament_create

pytestmark = [
    pytest.mark.django_db(transaction=True),
    # Layout does not depend on the database: like the geometry matrix, the SQLite run only.
    pytest.mark.skipif(
        os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="the rehearsal runs in the SQLite run",
    ),
]

ARTIFACTS = os.path.join(
    os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
    "test-artifacts",
    "rehearsal",
)
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
TV = {"width": 1920, "height": 1080}
PORTRAIT = {"width": 1080, "height": 1920}

EARLY = [
    "Szentgyörgyvölgyi-Kovácsné Ágnes", "Mészáros Enikő Krisztina", "Molnár Dávid",
    "Varga Ferenc Zsolt", "Kovács Ádám", "Nagy Éva", "Szabó Zoltán", "Tóth Ödön", "Papp Réka",
    "Horváth Júlia Boglárka", "Varga Lili", "Balogh Máté", "Fekete Bence", "Kiss Anna",
    "Farkas Gergő", "Lakatos Ilona", "Simon Ákos", "Takács Zsófia", "Juhász Levente",
    "Oláh Bálint", "Rácz Csilla", "Fehér Gábor", "Csizmadia Ede", "Zsigmond Örs",
    "Gyöngyösi-Szentmiklóssy Bernadett", "Orbán Zoltán", "Öreg Béla", "Sánta Éva",
    "Szalai Gyula", "Benkő Tamás", "Lukács Ildikó", "Pintér Szilveszter", "Vörös Kristóf",
    "Bíró Henrietta", "Hegedűs Norbert", "Dvořáková Markéta", "Řezníček Přemysl",
    "Šťastný Jiří",
]  # fmt: skip
LATE = [  # at the desk, by keyboard, levels 1 to 3: the last two wait for a seat
    "Kőszegi-Ördögh Szabolcs", "Báthory Erzsébet Villő", "Czinege Nándor", "Ujvári Győző",
    "Édes Orsolya", "Hajdú-Szoboszlay Kornélia", "Gulyás-Pörköltné Zsuzsanna",
]  # fmt: skip
LATE_REGISTRATION_LEVEL = 4
BREAK = 4  # period index of the break after level 4: the 25s and 100s color up
LEVEL = {1: 0, 2: 1, 3: 2, 4: 3, 5: 5, 6: 6, 7: 7, 8: 8, 9: 9}  # level -> period index

TV_READY = """() => window.Tourney && Tourney.displayScreens &&
  !document.querySelector('[data-pager]:not([data-paged])')"""
SETTLED = """() => document.readyState === "complete" && !document.querySelector(
  ".htmx-request, [hx-trigger^='load']:empty")"""
# The manual's pictures (docs/contributing.md, "The manual"): with TOURNEY_MANUAL_PICTURES=1 the
# evening is played once in English and once in Hungarian, every screen in that language, and
# these screens of these stages are kept as docs/pictures/evening/<lang>/<picture>.png, scrolled
# to the part the manual's page shows (None: the top).
MANUAL_SHOTS = {
    ("01-seats-drawn", "console"): ("draw-console", "#floor-tables"),
    ("01-seats-drawn", "tv"): ("lobby-seating-tv", None),
    ("02-level-1-late-registration", "desk"): ("desk", None),
    ("02-level-1-late-registration", "console"): ("clock-console", None),
    ("02-level-1-late-registration", "tv"): ("clock-tv", None),
    ("02-level-1-late-registration", "phone1"): ("dealer-phone", None),
    ("03-level-3-waiting-list", "desk"): ("desk-waiting-list", None),
    ("03-level-3-waiting-list", "tv-portrait"): ("clock-tv-portrait", None),
    ("05-level-4-rebuys", "desk"): ("rebuys-desk", None),
    ("06-break-color-up", "console"): ("color-up-console", "#floor-todo"),
    ("06-break-color-up", "phone1"): ("color-up-phone", None),
    ("06-break-color-up", "tv"): ("color-up-tv", None),
    ("08-level-5-penalty", "console"): ("penalties-console", "#sitting-out"),
    ("09-table-break-moves", "console"): ("moves-console", "#floor-todo"),
    ("09-table-break-moves", "tv"): ("moves-tv", None),
    ("09-table-break-moves", "phone2"): ("moves-phone", None),
    ("11-final-table-redraw", "console"): ("final-table-console", "#floor-todo"),
    ("11-final-table-redraw", "tv"): ("final-table-tv", None),
    ("12-final-table", "phone2"): ("final-table-seating-phone", None),
    ("13-deal", "console"): ("deal-console", "#deal-in-force"),
    ("14-winner", "tv"): ("winner-tv", None),
    ("14-winner", "phone2"): ("results-phone", None),
}
SCROLL_BELOW_TOPBAR = """(el) => {
  const bar = document.querySelector(".topbar");
  const stuck = bar && ["sticky", "fixed"].includes(getComputedStyle(bar).position);
  const top = el.getBoundingClientRect().top + window.scrollY;
  window.scrollTo(0, Math.max(0, top - (stuck ? bar.getBoundingClientRect().height : 0) - 12));
}"""
CLOSE_TOASTS = "document.querySelectorAll('#toasts .toast-close').forEach(b => b.click())"


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    """Every screen holds an event stream; a short heartbeat ends its thread once left."""
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


class Room:
    """The six screens of the evening, the tournament, and what the geometry check found."""

    def __init__(self, browser, base: str, director, manual_lang: str | None = None):
        self.base = base
        self.manual_lang = manual_lang
        self.director = director
        self.problems: list[str] = []
        self.contexts = []
        self.screens: dict[str, tuple[Page, str, dict]] = {}
        self.tournament: Tournament | None = None
        self.browser = browser
        os.makedirs(ARTIFACTS, exist_ok=True)

    # --- arrangement ---------------------------------------------------------------------

    def arrange(self) -> None:
        director = self.director
        room = room_create(
            actor=director,
            name="Aréna terem",
            tables=[{"number": n, "seats": 9} for n in range(1, 5)] + [{"number": 5, "seats": 7}],
        )
        self.tournament = tournament_create(
            actor=director,
            name="Friday Deepstack #12 · Rimóc bajnokság",
            structure_id=_structure(director).pk,
            starting_stack=40_000,
            buy_in=10_000,
            fee=2_000,
            room_id=room.pk,
            house_rules="rimoc",
            payout_structure_id=_payouts(director).pk,
            late_registration_level=LATE_REGISTRATION_LEVEL,
            money=MoneySettings(
                rebuy_until_level=4,
                rebuy_max=2,
                rebuy_condition="busted",
                rebuy_buy_in=10_000,
                rebuy_chips=40_000,
            ),
        )
        for name in EARLY:
            player = player_create(actor=director, name=name)
            entry_register(actor=director, tournament_id=self.tournament.pk, player_id=player.pk)
        seats_draw(actor=director, tournament_id=self.tournament.pk, rng=random.Random(12))

    def open_screens(self) -> None:
        t = self.tournament.pk
        token = display_token(t)
        self._open("console", DESKTOP, "hu", reverse("tourney:console", args=[t]))
        self._open("desk", DESKTOP, "en", reverse("tourney:desk", args=[t]))
        self._open("phone1", PHONE, "hu", reverse("tables:dealer", args=[t, 1]), mobile=True)
        self._open("phone2", PHONE, "cs", reverse("tables:dealer", args=[t, 2]), mobile=True)
        tv_lang = self.manual_lang or "hu"
        self._open("tv", TV, "hu", f"/display/{token}/?lang={tv_lang}", tv=True)
        tv_lang = self.manual_lang or "cs"
        self._open("tv-portrait", PORTRAIT, "cs", f"/display/{token}/?lang={tv_lang}", tv=True)

    def _open(self, name, viewport, lang, path, mobile=False, tv=False) -> None:
        lang = self.manual_lang or lang
        options = {"is_mobile": True, "has_touch": True} if mobile else {}
        context = self.browser.new_context(viewport=viewport, locale="en-GB", **options)
        context.set_default_timeout(15_000)
        self.contexts.append(context)
        page = context.new_page()
        if not tv:
            context.add_cookies([{"name": "django_language", "value": lang, "url": self.base}])
            page.goto(f"{self.base}/login/")
            page.fill("#id_username", self.director.get_username())
            page.fill("#id_password", PASSWORD)
            page.press("#id_password", "Enter")
            page.wait_for_url(f"{self.base}/")
        page.goto(self.base + path)
        self.screens[name] = (page, path, {"tv": tv, "phone": mobile})

    def close(self) -> None:
        for context in self.contexts:
            context.close()

    # --- looking at every screen -------------------------------------------------------------

    def page(self, name: str) -> Page:
        return self.screens[name][0]

    def goto(self, name: str, path: str) -> Page:
        page, _old, info = self.screens[name]
        self.screens[name] = (page, path, info)
        page.goto(self.base + path)
        return page

    def look(self, stage: str) -> None:
        """Every screen reloaded, checked and photographed: test-artifacts/rehearsal/."""
        for name, (page, path, info) in self.screens.items():
            page.goto(self.base + path)
            page.wait_for_function(TV_READY if info["tv"] else SETTLED)
            page.evaluate("document.fonts.ready")
            page.screenshot(
                path=os.path.join(ARTIFACTS, f"{stage}-{name}.png"),
                full_page=not info["tv"],
                animations="disabled",
            )
            found = geometry_problems(page, fixed_height=info["tv"])
            self.problems += [f"{stage}-{name}: {p}" for p in found]
            if self.manual_lang and (stage, name) in MANUAL_SHOTS:
                self.keep_for_manual(page, *MANUAL_SHOTS[stage, name])

    def keep_for_manual(self, page: Page, picture: str, part: str | None) -> None:
        if part:  # the part just below the sticky top bar
            page.locator(part).first.evaluate(SCROLL_BELOW_TOPBAR)
        save_manual_picture(page, f"evening/{self.manual_lang}/{picture}")

    # --- the room's work -----------------------------------------------------------------

    def level(self, number: int) -> None:
        """The clock's controls (the API's jump): level `number` now, without waiting."""
        clock_operate(
            actor=self.director,
            tournament_id=self.tournament.pk,
            operation="jump",
            period_index=LEVEL[number],
        )

    def entry(self, name: str) -> Entry:
        return Entry.objects.select_related("tournament_table", "player").get(
            tournament=self.tournament, player__name=name
        )

    def active(self) -> list[Entry]:
        return list(
            Entry.objects.filter(tournament=self.tournament, status=Entry.Status.ACTIVE)
            .select_related("tournament_table", "player")
            .order_by("tournament_table__number", "seat")
        )

    def register_at_desk(self, name: str) -> Entry:
        """The desk creates `name` in place and registers him, by keyboard."""
        desk = self.goto("desk", reverse("tourney:desk", args=[self.tournament.pk]))
        desk_search(desk, name)
        expect(desk.locator("#search-results .search-empty")).to_be_visible()
        desk.keyboard.press("Enter")
        expect(desk.locator("#id_name")).to_be_focused()
        desk.locator("#id_name").press("Enter")
        expect(desk.locator("#last-registration")).to_contain_text(name)  # or waiting
        return self.entry(name)

    def bust_on_phone(self, phone: str, entry: Entry) -> None:
        """The dealer of `entry`'s table taps him out: "Bust-out and hand finished"."""
        table = entry.tournament_table.number
        page = self.goto(phone, reverse("tables:dealer", args=[self.tournament.pk, table]))
        page.locator("#bustout-open").tap()
        dialog = page.locator("#bustout-dialog")
        expect(dialog).to_be_visible()
        dialog.locator(f'label[for="bust-{entry.pk}"]').tap()
        expect(dialog.locator(f'input[name=entry][value="{entry.pk}"]')).to_be_checked()
        dialog.locator("#bustout-finish").tap()
        expect(dialog).to_be_hidden()
        expect(page.locator(f'.dealer-oval .seat[data-entry="{entry.pk}"]')).to_have_count(0)
        page.evaluate(CLOSE_TOASTS)

    def bust_quietly(self, entry_id: int) -> None:
        """A bust-out recorded through the services (the evening fast-forwarded)."""
        eliminations_record(
            actor=self.director,
            tournament_id=self.tournament.pk,
            eliminations=[(entry_id, None)],
            rng=random.Random(entry_id),
        )

    def confirm_moves(self) -> None:
        for action in FloorAction.objects.filter(
            tournament=self.tournament, status=FloorAction.Status.PENDING, parent__isnull=True
        ).order_by("pk"):
            floor_action_done(
                actor=self.director, tournament_id=self.tournament.pk, action_id=action.pk
            )

    def would_break(self, entry_id: int) -> bool:
        """Whether busting `entry_id` now breaks a table: tried, and rolled back (the bust-out's
        steps on the tournament locked here, as a use case runs them: a use case's own durable
        transaction cannot be rolled back from outside)."""
        with transaction.atomic():
            eliminations_record_locked(
                actor=self.director,
                tournament=tournament_lock(self.tournament.pk),
                eliminations=[(entry_id, None)],
                rng=random.Random(entry_id),
            )
            breaks = self.pending("break_table").exists()
            transaction.set_rollback(True)
        return breaks

    def pending(self, kind: str):
        return FloorAction.objects.filter(
            tournament=self.tournament,
            status=FloorAction.Status.PENDING,
            parent__isnull=True,
            kind=kind,
        )

    def confirm_on_console(self, kind: str) -> None:
        """The console, never reloaded, shows the action live; its last Done confirms all."""
        console = self.page("console")
        action = console.locator(f'#floor-todo li.floor-action[data-kind="{kind}"]')
        expect(action).to_have_count(1)
        console.evaluate(CLOSE_TOASTS)
        action.locator("form.floor-done button[type=submit]").last.click()
        expect(console.locator(f'#floor-todo li.floor-action[data-kind="{kind}"]')).to_have_count(0)


@pytest.mark.parametrize("manual_lang", ["en", "hu"] if MANUAL_MODE else [None])
def test_one_evening_on_six_screens(live_server, browser, director, manual_lang):
    with_password(director)
    room = Room(browser, live_server.url, director, manual_lang)
    room.arrange()
    t = room.tournament.pk
    try:
        room.open_screens()
        room.look("01-seats-drawn")

        # Level 1: the clock starts; the desk registers late players by keyboard.
        clock_operate(actor=director, tournament_id=t, operation="start")
        for name in LATE[:3]:
            assert room.register_at_desk(name).tournament_table is not None
        room.look("02-level-1-late-registration")

        # Level 3: the room is full: two more wait for a seat (45 players in all).
        room.level(2)
        for name in LATE[3:5]:
            assert room.register_at_desk(name).tournament_table is not None
        room.level(3)
        waiting = [room.register_at_desk(name) for name in LATE[5:]]
        assert [e.status for e in waiting] == ["waiting", "waiting"]
        expect(room.page("desk").locator(".waiting-list li")).to_have_count(2)
        room.look("03-level-3-waiting-list")

        # Two bust-outs on the dealer phones: the waiting list takes their seats.
        players = room.active()
        room.bust_on_phone("phone1", next(e for e in players if e.tournament_table.number == 1))
        room.bust_on_phone("phone2", next(e for e in players if e.tournament_table.number == 2))
        for entry in waiting:  # each took the seat a bust-out opened, in waiting order
            entry.refresh_from_db()
            assert entry.status == "active" and entry.tournament_table_id is not None
        assert not Entry.objects.filter(tournament_id=t, status="waiting").exists()
        room.look("04-level-3-waiting-list-seated")

        # Level 4: two players bust and buy back in at the desk (in their own seats).
        room.level(4)
        rebuyers = [e for e in room.active() if e.tournament_table.number in (3, 4)][::9][:2]
        for phone, entry in zip(("phone1", "phone2"), rebuyers, strict=True):
            room.bust_on_phone(phone, entry)
        for entry in rebuyers:
            desk = room.goto("desk", reverse("tourney:desk", args=[t]) + f"?entry={entry.pk}")
            rebuy = desk.locator(
                f'.desk-purchase[data-entry-id="{entry.pk}"] button[data-buy="rebuy"]'
            )
            expect(rebuy).to_be_focused()
            desk.keyboard.press("r")
            bought = f"Rebuy for {entry.player.name}: 40,000 chips"
            expect(desk.locator("#last-purchase")).to_contain_text(
                entry.player.name if room.manual_lang else bought
            )
            entry.refresh_from_db()
            assert entry.status == "active"
        assert ChipPurchase.objects.filter(tournament_id=t, undone_at__isnull=True).count() == 2
        room.look("05-level-4-rebuys")

        # The break after level 4: every table colors up the 25s and 100s on a phone; the
        # console's card, never reloaded, turns done.
        clock_operate(actor=director, tournament_id=t, operation="jump", period_index=BREAK)
        console = room.page("console")
        console.reload()
        card = console.locator("#colorup-card")
        expect(card).to_have_attribute("data-all-done", "false")
        room.look("06-break-color-up")
        tables = sorted({e.tournament_table.number for e in room.active()})
        for i, number in enumerate(tables):
            phone = room.goto(
                ("phone1", "phone2")[i % 2], reverse("clocks:colorup", args=[t, number])
            )
            phone.locator("input[name='method'][value='round_up']").check()
            phone.locator("li.colorup-seat input[name^='stack_']").nth(0).fill("40075")
            phone.locator("#colorup-confirm-stacks").click()
            expect(phone.locator("#colorup-result")).to_have_attribute("data-status", "done")
        expect(card).to_have_attribute("data-all-done", "true")
        for i, name in enumerate(("phone1", "phone2")):
            room.goto(name, reverse("tables:dealer", args=[t, i + 1]))
        room.look("07-break-color-up-done")

        # Level 5: a one-round penalty from the console.
        room.level(5)
        offender = room.entry("Szentgyörgyvölgyi-Kovácsné Ágnes")
        console = room.goto("console", reverse("tourney:console", args=[t]))
        expect(console.locator("body")).to_have_attribute("data-floor-stream", "online")
        penalty_search(console, f"{offender.tournament_table.number} {offender.seat}")
        console.locator(f'#penalty-results [data-penalty-entry="{offender.pk}"]').click()
        console.locator('input[name="kind"][value="missed_rounds"]').check()
        console.locator("#penalty-count").fill("1")
        console.locator("#penalty-reason").fill("Trágár beszéd a dealerrel")
        console.locator("#penalty-submit").click()
        expect(console.locator("#sitting-out li.sitting-out")).to_have_count(1)
        assert Penalty.objects.filter(entry=offender).count() == 1
        room.look("08-level-5-penalty")

        # Bust-outs until a table breaks: the last one on a phone; the console shows the
        # break live and confirms its moves; the TVs list every move.
        room.level(6)
        while True:
            room.confirm_moves()
            players = room.active()
            busted = players[len(players) // 2]
            if room.would_break(busted.pk):
                break
            room.bust_quietly(busted.pk)
        console = room.goto("console", reverse("tourney:console", args=[t]))
        expect(console.locator("body")).to_have_attribute("data-floor-stream", "online")
        room.bust_on_phone("phone1", busted)
        assert room.pending("break_table").count() == 1
        expect(
            console.locator('#floor-todo li.floor-action[data-kind="break_table"]')
        ).to_have_count(1)
        room.look("09-table-break-moves")
        room.confirm_on_console("break_table")
        room.look("10-table-break-done")

        # Down to the final table: the redraw's nine moves on the console and the TVs.
        room.level(8)
        while len(room.active()) > 10:
            room.confirm_moves()
            players = room.active()
            room.bust_quietly(players[len(players) // 2].pk)
        room.confirm_moves()
        console = room.goto("console", reverse("tourney:console", args=[t]))
        expect(console.locator("body")).to_have_attribute("data-floor-stream", "online")
        players = room.active()
        room.bust_on_phone("phone2", players[-1])
        redraw = room.pending("final_table_redraw").get()
        room.look("11-final-table-redraw")
        room.confirm_on_console("final_table_redraw")
        final = redraw.to_table
        room.goto("phone1", reverse("tables:dealer", args=[t, final]))
        room.goto("phone2", reverse("tables:seating_chart", args=[t]))
        room.look("12-final-table")

        # Three left: an ICM deal on the console.
        room.level(9)
        while len(room.active()) > 3:
            room.bust_quietly(room.active()[0].pk)
        left = room.active()
        chips = tournament_summary(Tournament.objects.get(pk=t)).total_chips
        stacks = [chips // 2, chips * 3 // 10]
        stacks.append(chips - sum(stacks))
        console = room.goto("console", reverse("tourney:console", args=[t]))
        open_tool(console, "payouts")
        console.locator("#deal-open").click()
        dialog = console.locator("#deal-dialog")
        expect(dialog).to_be_visible()
        for entry, stack in zip(left, stacks, strict=True):
            dialog.locator(f"tr[data-entry='{entry.pk}'] input[name=stack]").fill(str(stack))
        expect(console.locator("#deal-confirm")).to_be_enabled()
        console.locator("#deal-confirm").click()
        expect(console.locator("#deal-in-force")).to_be_visible()
        room.look("13-deal")

        # The winner: the last bust-out on the final table's phone; the TVs show him live.
        room.bust_quietly(left[2].pk)
        room.goto("phone1", reverse("tables:dealer", args=[t, final]))
        room.bust_on_phone("phone1", Entry.objects.select_related("tournament_table").get(
            pk=left[1].pk
        ))  # fmt: skip
        assert Tournament.objects.get(pk=t).status == "finished"
        for tv in ("tv", "tv-portrait"):
            expect(room.page(tv).locator("[data-field=winner-name]")).to_have_text(
                left[0].player.name
            )
        room.goto("phone2", reverse("payouts:results", args=[t]))
        room.look("14-winner")
    finally:
        room.close()
        with open(os.path.join(ARTIFACTS, "problems.txt"), "w", encoding="utf-8") as report:
            report.write("\n".join(room.problems) or "none\n")
    assert not room.problems, "\n".join(room.problems)


class FlightRoom(Room):
    """The same room on a festival night: Day 1A of a main event, 40 players, to the end of
    the day at level 4 (issue 26)."""

    def arrange(self) -> None:
        director = self.director
        room = room_create(
            actor=director,
            name="Aréna terem",
            tables=[{"number": n, "seats": 9} for n in range(1, 5)] + [{"number": 5, "seats": 7}],
        )
        self.main = tournament_create(
            actor=director,
            name="Rimóc Poker Fesztivál · Főverseny",
            structure_id=_structure(director).pk,
            starting_stack=40_000,
            buy_in=10_000,
            fee=2_000,
            room_id=room.pk,
            house_rules="rimoc",
            payout_structure_id=_payouts(director).pk,
            rules_overrides={"day2_draw": "spread_stacks"},
        )
        self.tournament = flight_create(
            actor=director, main_id=self.main.pk, name="Day 1A", day_end_level=4
        )
        for name in EARLY + LATE[:2]:
            player = player_create(actor=director, name=name)
            entry_register(actor=director, tournament_id=self.tournament.pk, player_id=player.pk)
        seats_draw(actor=director, tournament_id=self.tournament.pk, rng=random.Random(26))

    def count_on_phone(self, phone: str, number: int) -> None:
        """The floor's phone counts table `number`: every stack typed, saved."""
        page = self.goto(phone, reverse("tourney:table_counts", args=[self.tournament.pk, number]))
        for i in range(page.locator(".cs-input").count()):
            page.locator(".cs-input").nth(i).fill(f"{41_000 + 500 * i:,}".replace(",", " "))
        page.locator("button.cs-save").click()
        expect(page.locator(".cs-message")).to_be_visible()

    def look_at_leaders(self, stage: str) -> None:
        """The TVs turned to their chip leaders' page, checked and photographed."""
        for name in ("tv", "tv-portrait"):
            page = self.page(name)
            page.evaluate(
                """() => { document.querySelectorAll("[data-display-screen]")
                  .forEach((s) => { s.hidden = true; });
                  document.querySelector("[data-display-leaders]").hidden = false; }"""
            )
            page.screenshot(path=os.path.join(ARTIFACTS, f"{stage}-{name}-leaders.png"))
            found = geometry_problems(page, fixed_height=True)
            self.problems += [f"{stage}-{name}-leaders: {p}" for p in found]


def test_a_flights_end_of_day_on_six_screens(live_server, browser, director):
    with_password(director)
    room = FlightRoom(browser, live_server.url, director)
    room.arrange()
    t = room.tournament.pk
    try:
        clock_operate(actor=director, tournament_id=t, operation="start")
        room.level(4)
        for entry in room.active()[::7]:  # six players out on the way to the last level
            room.bust_quietly(entry.pk)
        room.confirm_moves()
        room.open_screens()
        expect(room.page("console").locator(".festival-day-end .badge")).to_be_visible()
        room.look("15-flight-last-level")

        # The two phones count their tables; the other tables are counted at the console.
        room.count_on_phone("phone1", 1)
        room.count_on_phone("phone2", 2)
        left = room.active()
        rest = [(e.pk, 40_000) for e in left if e.chips is None]
        chip_counts_set(actor=director, tournament_id=t, counts=rest)
        room.look("16-flight-counted")
        room.look_at_leaders("16-flight-counted")

        # The end of the day on the console: everyone left bags his count.
        console = room.goto("console", reverse("tourney:console", args=[t]))
        console.once("dialog", lambda d: d.accept())
        console.locator("#end-of-day").click()
        expect(console.locator('#festival-panel a[href$="/bag-slips/"]')).to_be_visible()
        assert Entry.objects.filter(tournament_id=t, status="bagged").count() == len(left)
        room.goto("phone1", reverse("tourney:bag_slips", args=[t]))
        room.look("17-flight-bagged")

        # Day 2 drawn on the main event's console; its TVs show the leaders.
        main = room.main.pk
        console = room.goto("console", reverse("tourney:console", args=[main]))
        console.locator("#day2-draw").click()
        expect(console.locator("#festival-panel .festival-leaders")).to_be_visible()
        token = display_token(main)
        room.goto("tv", f"/display/{token}/?lang=hu")
        room.goto("tv-portrait", f"/display/{token}/?lang=cs")
        room.goto("phone2", reverse("tables:seating_chart", args=[main]))
        room.look("18-day2-drawn")
        room.look_at_leaders("18-day2-drawn")
        assert Entry.objects.filter(tournament_id=main, seat__isnull=False).count() == len(left)
    finally:
        room.close()
        with open(os.path.join(ARTIFACTS, "problems-flight.txt"), "w", encoding="utf-8") as out:
            out.write("\n".join(room.problems) or "none\n")
    assert not room.problems, "\n".join(room.problems)
