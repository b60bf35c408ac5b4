"""The seat card as printed on A6 (105 x 148 mm, the card's own page size): whole, with its QR
code, whatever the names (the third evening production run: a long tournament name and a
three-line player name pushed the QR code half off the card, the footer entirely)."""

import re

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from tables.seating.usecases import seats_draw
from tests.conftest import friday_deepstack
from tests.e2e.conftest import ARTIFACTS, save_manual_picture
from tests.e2e.desk_steps import sign_in
from tests.e2e.geometry import geometry_problems
from tourney.models import Entry
from tourney.players.usecases import player_create
from tourney.registration.usecases import entry_register

pytestmark = pytest.mark.django_db(transaction=True)

A6 = {"width": 397, "height": 559}  # 105 x 148 mm at 96 px per inch
NAMES = ["Gyöngyösi-Szentmiklóssy Bernadett", "Szentgyörgyvölgyi-Kovácsné Ágnes", "Nagy Éva"]
INSIDE = """() => {
  const card = document.querySelector("#seat-card").getBoundingClientRect();
  return Array.from(document.querySelectorAll("#seat-card svg, #seat-card .seat-card-footer"))
    .map((el) => el.getBoundingClientRect())
    .every((r) => r.top >= card.top && r.bottom <= card.bottom + 0.5);
}"""


@pytest.mark.parametrize("lang", ["en", "hu"])
def test_a_long_named_players_seat_card_prints_whole_on_a6(
    live_server, page, login, director, structure, room, lang
):
    tournament = friday_deepstack(
        director, structure, room, name="Péntek esti Deepstack #47 · Rimóc bajnokság 9. forduló"
    )
    for name in NAMES:
        player = player_create(actor=director, name=name)
        entry_register(actor=director, tournament_id=tournament.pk, player_id=player.pk)
    seats_draw(actor=director, tournament_id=tournament.pk)
    entry = Entry.objects.get(tournament=tournament, player__name=NAMES[0])
    sign_in(page, login, director)
    page.context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    page.set_viewport_size(A6)
    page.emulate_media(media="print")
    page.goto(live_server.url + reverse("tourney:seat_card", args=[tournament.pk, entry.pk]))
    expect(page.locator("#seat-card")).to_contain_text(NAMES[0])
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"seat-card-a6-long-name-{lang}.png"))
    save_manual_picture(page, f"seat-card-{lang}")
    assert page.evaluate(INSIDE), "the QR code or the footer is cut off the card"
    clipped = [p for p in geometry_problems(page) if p.startswith("clipped")]
    assert not clipped, "\n".join(clipped)

    # The same card on an 80 mm roll: the QR code under the details, beside its caption.
    page.set_viewport_size({"width": 302, "height": 900})
    page.goto(page.url + "?paper=80mm")
    expect(page.locator("body")).to_have_class(re.compile(r"\breceipt-80mm\b"))
    page.screenshot(path=str(ARTIFACTS / f"seat-card-80mm-long-name-{lang}.png"), full_page=True)
    assert page.evaluate(INSIDE), "the QR code or the footer is cut off the strip"
    problems = geometry_problems(page)
    assert not problems, "\n".join(problems)
