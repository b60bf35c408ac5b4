"""Seat names on a table's dealer link break only between words or after a hyphen, never
inside a word; a word wider than its seat steps the seat's text down till it fits. Evening
run: "Gyöngyösi-Szentmi / klóssy" on a dealer's phone. Screenshots:
test-artifacts/screenshots/dealer-link-words-*.png.
"""

import pytest
from playwright.sync_api import expect

from tables.dealer_links.selectors import dealer_token
from tables.models import TournamentTable
from tables.rooms.usecases import room_create
from tests.conftest import friday_deepstack, seat_players
from tests.e2e.dealer_link_checks import SPLIT_WORDS
from tests.e2e.geometry import assert_geometry

pytestmark = pytest.mark.django_db(transaction=True)

# The longest names of the Hungarian rooms' player lists: place-names as surnames, double names.
LONGEST_HUNGARIAN = [
    "Gyöngyösi-Szentmiklóssy Bernadett",
    "Szigetszentmiklósi Pintér Szilveszter",
    "Hódmezővásárhelyi Bálint",
    "Szentgyörgyvölgyi-Kovácsné Ágnes",
    "Törökszentmiklósi Ifj. Ödön",
    "Bükkszentkereszti Éles Özséb",
    "Mosonmagyaróvári Győző",
    "Mátraszentimrei Füredi Ilka",
    "Hajdú-Szoboszlay Kornélia",
]

# Each name's words against its seat: the name's box and every word inside the seat's padding
# box, the seat's text size, and whether the seat had to break a word after all.
NAMES_IN_SEATS = """() => [...document.querySelectorAll(".dl-table .dl-seat")].map((seat) => {
  const s = seat.getBoundingClientRect();
  const name = seat.querySelector(".dl-seat-name");
  const range = document.createRange();
  range.selectNodeContents(name.firstChild);
  const text = [...range.getClientRects()];
  const left = Math.min(...text.map((r) => r.left)), right = Math.max(...text.map((r) => r.right));
  return {
    seat: seat.dataset.seat, name: name.firstChild.data, size: getComputedStyle(name).fontSize,
    out: Math.max(0, s.left + 2 - left, right - (s.right - 2)),
    squeezed: seat.classList.contains("is-squeezed"),
    wrap: getComputedStyle(name).overflowWrap + " " + getComputedStyle(name).wordBreak,
  };
})"""


@pytest.mark.parametrize(
    ("width", "height", "lang"), [(390, 844, "hu"), (360, 740, "hu"), (1280, 720, "cs")]
)
def test_seat_names_break_only_between_words(
    live_server, new_page, api, director, structure, width, height, lang
):
    room = room_create(actor=director, name="Kilences", tables=[{"number": 1, "seats": 9}])
    tournament = friday_deepstack(director, structure, room)
    seat_players(api, tournament, LONGEST_HUNGARIAN)
    number = TournamentTable.objects.get(tournament=tournament, status="open").number
    page = new_page(
        viewport={"width": width, "height": height}, is_mobile=width < 400, has_touch=True
    )
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    with page.expect_response(lambda r: r.url.endswith("/state.json")):
        page.goto(f"{live_server.url}/dealer/{dealer_token(tournament.pk, number, 0)}/")
    page.wait_for_function("() => document.body && document.body.dataset.stream === 'online'")
    page.evaluate("document.fonts.ready")
    expect(page.locator(".dl-table .dl-seat")).to_have_count(9)
    seats = page.evaluate(NAMES_IN_SEATS)
    where = f"{width}x{height}"
    assert page.evaluate(SPLIT_WORDS) == [], (where, seats)
    assert [s for s in seats if s["out"] > 0.5 or s["squeezed"]] == [], (where, seats)
    assert {s["wrap"] for s in seats} == {"normal normal"}
    assert_geometry(page, f"dealer-link-words-{where}-{lang}", full_page=True)
    smallest = min(float(s["size"][:-2]) for s in seats)
    print(where, "smallest name text", smallest, "px")
