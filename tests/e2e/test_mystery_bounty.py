"""A mystery bounty on the screens (issue 27, docs/rules.md §16.5): the lobby TV's bounties
page lists the envelopes left and the latest draws, landscape and portrait, en and hu, and a
draw shows up live; the console's Bounties page shows the envelopes, the drawn ones marked.
The geometry check passes at each step. Screenshots: test-artifacts/screenshots/mystery-*.png."""

import pytest
from django.urls import reverse
from playwright.sync_api import expect

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import display_token
from tests.conftest import friday_deepstack, seat_players
from tests.e2e.conftest import PASSWORD, TV, with_password
from tests.e2e.geometry import assert_geometry
from tourney.models import Elimination, Entry

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = [
    "Gyöngyösi-Szentmiklóssy Bernadett", "Kovács Péter", "Horváth Júlia Boglárka",
    "Nagy István", "Szabó Éva", "Tóth Gábor", "Kiss Katalin", "Varga Zoltán", "Molnár Anna",
    "Farkas Dóra", "Balogh Ádám", "Papp Lilla",
]  # fmt: skip

# The rotation turns to the bounties' page after 20 s; the test turns to it at once.
SHOW_BOUNTIES = """() => {
  document.querySelectorAll("[data-display-screen]").forEach((s) => { s.hidden = true; });
  document.querySelector("[data-display-bounties]").hidden = false;
}"""


@pytest.fixture(autouse=True)
def quick_heartbeat(settings):
    settings.EVENTS_HEARTBEAT_SECONDS = 0.5


def _bust(api, t, busted, winners):
    response = api.post(
        f"/tournaments/{t.pk}/eliminations",
        {"eliminations": [{"entry_id": busted, "busted_by": winners}]},
    )
    assert response.status_code == 200, response.json()


def _left(t):
    return list(
        Entry.objects.filter(tournament=t, status="active")
        .order_by("seat")
        .values_list("pk", flat=True)
    )


def test_the_tv_and_the_bounties_page_show_the_envelopes_and_the_draws(
    live_server, new_page, login, api, director, structure, room, manual_picture
):
    mystery = friday_deepstack(
        director, structure, room, name="Mystery Sunday",
        bounty={"kind": "mystery", "amount": 5_000, "phase_players": 10},
    )  # fmt: skip
    seat_players(api, mystery, NAMES)
    clock_operate(actor=director, tournament_id=mystery.pk, operation="start")
    for _ in range(2):  # 12 -> 10: before the phase, nothing is drawn
        left = _left(mystery)
        _bust(api, mystery, left[0], [left[1]])
    assert not Elimination.objects.filter(tournament=mystery).exclude(envelope=None).exists()
    for _ in range(3):  # the phase: three draws
        left = _left(mystery)
        _bust(api, mystery, left[0], [left[1]])
    tv = new_page(viewport=TV)
    display = live_server.url + reverse("clocks:display", args=[display_token(mystery.pk)])
    for size in (TV, {"width": 1080, "height": 1920}):
        tv.set_viewport_size(size)
        for lang in ("en", "hu"):
            tv.context.add_cookies(
                [{"name": "django_language", "value": lang, "url": live_server.url}]
            )
            tv.goto(display)
            tv.evaluate(SHOW_BOUNTIES)
            expect(tv.locator("[data-bounties-list] li")).to_have_count(3)
            kicker = tv.locator("[data-bounties-kicker]")
            expect(kicker).to_contain_text("7 of 10" if lang == "en" else "10 borítékból 7")
            assert_geometry(
                tv, f"mystery-tv-{size['width']}x{size['height']}-{lang}", fixed_height=True
            )
            if size == TV and lang == "en":
                manual_picture(tv, "mystery-tv")
    left = _left(mystery)
    _bust(api, mystery, left[0], [left[1], left[2]])  # a split pot draws one envelope: live
    expect(tv.locator("[data-bounties-list] li")).to_have_count(4)
    expect(tv.locator("[data-bounties-kicker]")).to_contain_text("10 borítékból 6")  # hu: last

    with_password(director)
    page = new_page(viewport={"width": 1366, "height": 768})
    login(page, director, PASSWORD)
    page.goto(live_server.url + reverse("bounties:page", args=[mystery.pk]))
    envelopes = page.locator("#bounty-envelopes li")
    expect(envelopes).to_have_count(10)
    expect(page.locator("#bounty-envelopes li.is-drawn")).to_have_count(4)
    assert_geometry(page, "mystery-bounties-page-1366x768-en", full_page=True)
    manual_picture(page, "mystery-bounties-page", full_page=True)
