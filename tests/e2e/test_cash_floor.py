"""The cash floor in the browser (issue 33): a room's evening of 6 tables of 3 games and 40
players on the lists (long Hungarian names, some on two lists); the floor's phone at 390x844
calls an open seat, the called player is seated, another passed over; the lobby TV shows the
call and the lists at 1920x1080 and 1080x1920; en and hu; the geometry check on every page."""

from __future__ import annotations

import os
import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.festival.selectors import board_token
from tables.cash.usecases import cash_list_create, cash_list_join, cash_table_open
from tables.cash_seats.usecases import cash_seat_call, cash_seat_direct
from tables.models import CashList, CashSeat
from tables.rooms.usecases import room_create
from tests.e2e.conftest import PASSWORD, with_password
from tests.e2e.geometry import assert_geometry
from tourney.players.usecases import player_create

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        os.environ.get("DATABASE_URL", "").startswith("postgres"),
        reason="layout: runs in the SQLite run",
    ),
]

NAMES = [
    "Ősz-Würtzburger Évike Ágnes",
    "Őri Zsolt",
    "Kovács Péter",
    "Nagy Éva",
    "Szabó Zoltán",
    "Tóth Ödön",
    "Horváth Ildikó Boglárka",
    "Varga Ferenc Zsolt",
    "Kiss Anna",
    "Molnár Dávid",
    "Németh Gergely",
    "Farkas Gergő",
    "Balogh Máté",
    "Papp Réka",
    "Takács Zsófia",
    "Juhász Levente",
    "Lakatos Ilona",
    "Mészáros Enikő Krisztina",
    "Oláh Bálint",
    "Simon Ákos",
    "Rácz Csilla",
    "Fekete Bence",
    "Szalai Gyula",
    "Török Ágota",
    "Fehér Gábor",
    "Balázs Nóra",
    "Gál Tímea",
    "Kocsis Ádám",
    "Orsós Ferenc",
    "Pintér Szilveszter",
    "Fodor Katalin",
    "Szűcs Lili",
    "Hegedűs Norbert",
    "Sipos Kristóf",
    "Csonka Emese",
    "Lengyel Ábel",
    "Magyar Kinga",
    "Bíró Henrietta",
    "Sándor Örs",
    "Kelemen Ilka",
]


def cash_evening(director):
    """6 tables of 3 games, 22 seated, 40 on the lists (some on two)."""
    room = room_create(
        actor=director,
        name="Mirage Legend terem",
        tables=[{"number": n, "seats": 9} for n in range(1, 11)],
    )
    games = [
        ("holdem", "no_limit", 200, 400, (1, 2, 3)),
        ("omaha", "pot_limit", 500, 1000, (4, 5)),
        ("holdem", "no_limit", 500, 1000, (6,)),
    ]
    players = [player_create(actor=director, name=n) for n in NAMES]
    tables = []
    for game, limit, sb, bb, numbers in games:
        for n in numbers:
            tables.append(
                cash_table_open(
                    actor=director,
                    room_id=room.pk,
                    table_number=n,
                    game=game,
                    game_limit=limit,
                    small_blind=sb,
                    big_blind=bb,
                    min_buy_in=bb * 50,
                    max_buy_in=bb * 200,
                    straddle=n == 1,
                )
            )
    seated = iter(players[18:])
    for table in tables:
        for seat in range(1, 9 if table.number != 6 else 5):
            player = next(seated, None)
            if player is None:
                break
            cash_seat_direct(actor=director, cash_table_id=table.pk, seat=seat, player_id=player.pk)
    lists = list(CashList.objects.filter(room=room).order_by("big_blind", "id"))
    interest = cash_list_create(
        actor=director,
        room_id=room.pk,
        game="omaha5",
        game_limit="pot_limit",
        small_blind=1000,
        big_blind=2000,
    )
    for i, player in enumerate(players[:18]):
        cash_list_join(actor=director, cash_list_id=lists[i % 3].pk, player_id=player.pk)
        if i % 4 == 0:
            cash_list_join(actor=director, cash_list_id=interest.pk, player_id=player.pk)
    return room, tables


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_floor_calls_a_seat_from_the_phone(
    live_server, new_page, login, director, lang, manual_picture
):
    room, tables = cash_evening(director)
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    login(phone, with_password(director), PASSWORD)
    phone.goto(live_server.url + reverse("tables:cash_floor", args=[room.pk]))
    assert_geometry(phone, f"cash-floor-phone-{lang}", full_page=True)
    table9 = phone.locator('[data-cash-table="1"]')
    seat9 = table9.locator(".cash-seat").nth(8)
    expect(seat9).to_have_class(re.compile(r"\bis-open\b"))
    seat9.locator('button[value="call"]').click()
    calls = phone.locator("#cash-calls .cash-call")
    expect(calls).to_have_count(1)
    first = calls.first.locator("strong").inner_text()
    expect(calls.first.locator(".cash-countdown")).to_have_text(re.compile(r"^[45]:\d\d$"))
    assert_geometry(phone, f"cash-floor-call-phone-{lang}", full_page=True)
    if lang == "hu":
        phone.evaluate("window.scrollTo(0, 0)")
        manual_picture(phone, "cash-floor-phone")
    calls.first.locator('button[value="take"]').click()
    expect(phone.locator("#cash-calls")).to_have_count(0)
    assert CashSeat.objects.filter(cash_table=tables[0], seat=9, player__name=first).exists()
    # the next seat offered, and passed over: the player goes to his list's end
    table9.locator(".cash-seat").nth(8).locator('button[value="leave"]').click()
    phone.locator('[data-cash-table="1"] .cash-seat').nth(8).locator('button[value="call"]').click()
    called = phone.locator("#cash-calls .cash-call strong").inner_text()
    phone.locator('#cash-calls button[value="pass"]').click()
    nlh = phone.locator(".cash-list").first
    expect(nlh.locator(".cash-waiting li").last).to_contain_text(called)


@pytest.mark.parametrize("size", [(1920, 1080), (1080, 1920)])
@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_lobby_tv_shows_the_calls_and_the_lists(
    live_server, new_page, director, size, lang, manual_picture
):
    room, tables = cash_evening(director)
    cash_seat_call(actor=director, cash_table_id=tables[0].pk, seat=9)
    width, height = size
    tv = new_page(viewport={"width": width, "height": height})
    tv.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    tv.goto(live_server.url + reverse("tables:cash_tv", args=[board_token(room)]))
    expect(tv.locator(".ct-calls li")).to_have_count(1)
    expect(tv.locator(".ct-game")).to_have_count(4)
    expect(tv.locator(".ct-call-time")).to_have_text(re.compile(r"^[45]:\d\d$"))
    assert tv.evaluate("document.documentElement.scrollHeight") <= height  # one screen
    assert_geometry(tv, f"cash-tv-{width}x{height}-{lang}")
    if lang == "hu" and size == (1920, 1080):
        manual_picture(tv, "cash-tv")


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_player_follows_his_places_and_is_called_on_his_phone(
    live_server, new_page, login, director, lang, manual_picture
):
    room, tables = cash_evening(director)
    desk = new_page(viewport={"width": 1366, "height": 768})
    desk.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    login(desk, with_password(director), PASSWORD)
    desk.goto(live_server.url + reverse("tables:cash_floor", args=[room.pk]) + "?q=Nagy")
    desk.locator("#cash-found [data-give-code]").first.click()
    code = desk.locator("#cash-given [data-code]").inner_text()
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{6}", code), code
    assert_geometry(desk, f"cash-floor-code-{lang}")
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    phone.goto(live_server.url + reverse("tables:cash_entrance", args=[board_token(room)]))
    assert_geometry(phone, f"cash-entrance-phone-{lang}", full_page=True)
    phone.locator("#cp-code").fill(code.lower())
    phone.locator("#cp-code").press("Enter")
    expect(phone.locator(".pp-title")).to_have_text("Nagy Éva")
    # she is on the first list already (the evening put her there): 2nd of 6
    first = phone.locator(".cp-rows li").first
    expect(first.locator("[data-position]")).to_have_text(re.compile(r"^2\. .*6$"))
    # she joins the interest list herself and leaves it again
    last = phone.locator(".cp-rows li").last
    last.locator('button[value="join"]').click()
    expect(phone.locator(".cp-rows li").last.locator("[data-position]")).to_be_visible()
    phone.locator(".cp-rows li").last.locator('button[value="leave"]').click()
    expect(phone.locator(".cp-rows li").last.locator('button[value="join"]')).to_be_visible()
    # the floor calls two seats of her game: her phone calls her, the minutes counting down
    cash_seat_call(actor=director, cash_table_id=tables[0].pk, seat=9)
    cash_seat_call(actor=director, cash_table_id=tables[1].pk, seat=9)
    expect(phone.locator(".cp-call")).to_be_visible(timeout=10_000)
    expect(phone.locator(".cp-call-seat")).to_contain_text("2")
    expect(phone.locator(".cp-call .cash-countdown")).to_have_text(re.compile(r"^[45]:\d\d$"))
    assert_geometry(phone, f"cash-player-called-phone-{lang}", full_page=True)
    if lang == "hu":
        manual_picture(phone, "cash-player-phone")


def test_every_cash_page_at_its_sizes_in_every_language(live_server, new_page, login, director):
    """The geometry check over the floor's page, the report, the TV and the entrance page at
    the sizes each is read at, in en, hu and cs (a call running); one browser page a
    language for the staff's pages and one for the room's, resized between them."""
    room, tables = cash_evening(director)
    cash_seat_call(actor=director, cash_table_id=tables[0].pk, seat=9)
    staff_pages = [
        (reverse("tables:cash_floor", args=[room.pk]), [(1920, 1080), (1366, 768)]),
        (reverse("tables:cash_report", args=[room.pk]), [(390, 844)]),
    ]
    room_pages = [
        (reverse("tables:cash_tv", args=[board_token(room)]), [(1280, 720)]),
        (reverse("tables:cash_entrance", args=[board_token(room)]), [(360, 740)]),
    ]
    for lang in ("en", "hu", "cs"):
        staff = new_page(viewport={"width": 1440, "height": 900})
        room_screen = new_page(viewport={"width": 1280, "height": 720})
        for screen in (staff, room_screen):
            screen.context.add_cookies(
                [{"name": "django_language", "value": lang, "url": live_server.url}]
            )
        login(staff, with_password(director), PASSWORD)
        for screen, pages in ((staff, staff_pages), (room_screen, room_pages)):
            for path, sizes in pages:
                for width, height in sizes:
                    screen.set_viewport_size({"width": width, "height": height})
                    screen.goto(live_server.url + path)
                    name = path.strip("/").replace("/", "-")[:40]
                    assert_geometry(screen, f"cash-{name}-{width}x{height}-{lang}", full_page=True)
        staff.close()
        room_screen.close()


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_the_dealer_keeps_the_hand_and_runs_the_cash_clock(
    live_server, new_page, login, director, lang, manual_picture
):
    room, tables = cash_evening(director)
    table = tables[0]
    phone = new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    phone.clock.install()
    phone.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    login(phone, with_password(director), PASSWORD)
    phone.goto(live_server.url + reverse("tables:cash_dealer", args=[room.pk, table.pk]))
    phone.locator('[data-seat="1"] button[value="button"]').click()
    expect(phone.locator("#cash-next-hand")).to_be_visible()
    phone.locator('[data-seat="4"] button[value="away"]').click()
    phone.locator("#cash-next-hand").click()
    phone.locator("#cash-next-hand").click()
    expect(phone.locator('[data-seat="4"] [data-owes]')).to_be_visible()
    # the cash clock: 180 s of thinking, then the call, then 60 s (time moved, not slept)
    clock = phone.locator("#cash-clock")
    clock.locator('[data-clock="think"]').click()
    expect(clock.locator('[data-clock="call"]')).to_be_disabled()
    phone.clock.run_for(180_000)
    expect(clock.locator('[data-clock="call"]')).to_be_enabled()
    clock.locator('[data-clock="call"]').click()
    expect(clock.locator("[data-clock-time]")).to_have_text(re.compile(r"^(1:00|0:59)$"))
    assert_geometry(phone, f"cash-dealer-phone-{lang}", full_page=True)
    if lang == "hu":
        manual_picture(phone, "cash-dealer-phone")
    phone.clock.run_for(61_000)
    expect(clock).to_have_class(re.compile(r"\bis-expired\b"))
    # the same page by the table's dealer link, on the dealer's tablet: no login
    link = phone.locator("#cash-dealer-link").get_attribute("href")
    tablet = new_page(viewport={"width": 800, "height": 1280}, has_touch=True)
    tablet.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    tablet.goto(link)
    expect(tablet.locator("#cash-next-hand")).to_be_visible()
    tablet.locator("#cash-next-hand").click()
    expect(tablet.locator('[data-seat="4"] [data-owes]')).to_be_visible()
    assert_geometry(tablet, f"cash-dealer-link-tablet-{lang}", full_page=True)
