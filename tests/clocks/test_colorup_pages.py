"""The color-up pages (clocks/color_ups/views.py): the chip-race page per table, its live plan,
the forms, the console's card and the dealer page's banner."""
# ruff: noqa: F811 (the `game` fixture is imported from tests/clocks/color_up_game.py)

import json

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from clocks.models import ColorUp
from tests.clocks.color_up_game import BREAK_100, game, jump  # noqa: F401 (fixture)
from tests.conftest import make_staff
from tourney.models import Tournament

pytestmark = pytest.mark.django_db
HTMX = {"HX-Request": "true"}


@pytest.fixture
def client(director_client):
    return director_client


def url(name, game, *args):
    return reverse(f"clocks:{name}", args=[game.pk, 1, *args])


def race_form(**seats) -> dict:
    form = {"method": "race", "entry_mode": "virtual"}
    for seat, odd in seats.items():
        form[f"odd_{seat[1:]}"] = str(odd)
    return form


def test_outside_a_color_up_break_the_page_says_when_and_the_console_shows_no_card(client, game):
    page = client.get(url("colorup", game))
    assert page.status_code == 200
    html = page.content.decode()
    # The director sees the form for the next break; a floor person sees no color-up now.
    assert "Not a color-up break" in html and 'name="override"' in html
    floor = Client()
    floor.force_login(make_staff("floor-person", "floor"))
    assert "No color-up now" in floor.get(url("colorup", game)).content.decode()
    console = client.get(reverse("tourney:console", args=[game.pk])).content.decode()
    assert 'id="floor-colorup"' in console and 'id="colorup-card"' not in console


def test_the_czech_page_outside_a_break_does_not_call_the_level_a_break(client, game):
    """The Czech evening, level 6: a director opening table 2's color-up page read 'Tato
    přestávka nemá color-up' ('this break has no color-up') while no break was on."""
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    html = client.get(url("colorup", game)).content.decode()
    assert 'name="override"' in html
    assert "Teď není přestávka s color-upem" in html and "Tato přestávka" not in html


def test_the_plan_then_a_virtual_deal_then_confirm_then_undo(client, game, api):
    jump(api, game, BREAK_100)
    page = client.get(url("colorup", game)).content.decode()
    assert 'name="odd_1"' in page and "Anna" in page and 'max="4"' in page
    plan = client.post(url("colorup_preview", game), race_form(s1=3, s4=4, s7=2, s9=1))
    text = plan.content.decode()
    assert "10 odd chips of 100" in text and "2 × 500" in text
    needed = text.split('data-cards-needed="')[1].split('"')[0]
    assert json.loads(needed.replace("&quot;", '"')) == {"1": 3, "4": 4, "7": 2, "9": 1}

    form = race_form(s1=3, s4=4, s7=2, s9=1) | {"mode": "virtual"}
    dealt = client.post(url("colorup_run", game), form, headers=HTMX)
    assert dealt.status_code == 204, dealt.headers.get("HX-Trigger")
    color_up = ColorUp.objects.get()
    assert color_up.status == "open"
    live = client.get(url("colorup_live", game)).content.decode()
    assert 'data-status="open"' in live and live.count('data-outcome="win"') == 2
    card = client.get(reverse("clocks:floor_colorup", args=[game.pk])).content.decode()
    assert 'data-state="dealt"' in card

    done = client.post(url("colorup_confirm", game), {"color_up": color_up.pk}, headers=HTMX)
    assert done.status_code == 204
    trigger = json.loads(done.headers["HX-Trigger"])["floor:done"]
    assert trigger["ok"] and "undoUrl" in trigger["toasts"][0]
    card = client.get(reverse("clocks:floor_colorup", args=[game.pk])).content.decode()
    assert 'data-all-done="true"' in card and 'data-state="done"' in card
    banner = client.get(url("colorup_banner", game)).content.decode()
    assert 'data-state="done"' in banner

    undone = client.post(url("colorup_undo", game), {"color_up": color_up.pk}, headers=HTMX)
    assert undone.status_code == 204
    assert Tournament.objects.get(pk=game.pk).chips_color_up == 0


def test_the_cards_typed_and_a_round_up(client, game, api):
    jump(api, game, BREAK_100)
    form = race_form(s1=3, s4=4, s7=2, s9=1) | {"zero_7": "1", "entry_mode": "cards"}
    form |= {"cards_1": "K♥ 2c 3d", "cards_4": "Ks 4c 5d 6h", "cards_7": "9d 8c", "cards_9": "Ac"}
    preview = client.post(url("colorup_preview", game), form).content.decode()
    assert "With these cards" in preview
    response = client.post(url("colorup_run", game), form | {"mode": "cards"}, headers=HTMX)
    assert response.status_code == 204, response.headers.get("HX-Trigger")
    row = ColorUp.objects.get()
    assert (row.status, row.cards_recorded, row.chips_change) == ("open", True, 500)
    client.post(url("colorup_confirm", game), {"color_up": row.pk}, headers=HTMX)
    assert Tournament.objects.get(pk=game.pk).chips_color_up == 500
    client.post(url("colorup_undo", game), {"color_up": row.pk}, headers=HTMX)

    stacks = {"method": "round_up", "stack_1": "1 100", "stack_4": "12,300", "mode": "confirm"}
    preview = client.post(url("colorup_preview", game), stacks).content.decode()
    assert "1,500" in preview and "+600" in preview.replace("\u00a0", "")
    assert client.post(url("colorup_run", game), stacks, headers=HTMX).status_code == 204
    assert Tournament.objects.get(pk=game.pk).chips_color_up == 600


def test_a_refused_form_says_why_and_changes_nothing(client, game, api):
    jump(api, game, BREAK_100)
    bad = client.post(url("colorup_run", game), race_form(s1=7) | {"mode": "virtual"}, headers=HTMX)
    assert bad.status_code == 422
    assert "change up every full group" in bad.headers["HX-Trigger"]
    plan = client.post(url("colorup_preview", game), race_form(s4=9)).content.decode()
    assert "Check the counts" in plan and "Seats 4 have 5 or more" in plan
    assert ColorUp.objects.count() == 0
    desk = Client()
    desk.force_login(make_staff("desk-person", "desk"))
    assert desk.post(url("colorup_run", game), race_form(s1=1)).status_code == 403


def test_the_dealer_page_links_to_the_color_up_during_the_break(client, game, api):
    dealer = reverse("tables:dealer", args=[game.pk, 1])
    assert 'id="dealer-colorup-banner"' not in client.get(dealer).content.decode()
    jump(api, game, BREAK_100)
    html = client.get(dealer).content.decode()
    assert 'id="dealer-colorup-banner"' in html and url("colorup", game) in html
    assert "race off the" in html


def test_the_czech_dealer_banner_names_the_chips_raced_off(client, game, api):
    """The Czech evening's dealer pages read 'Color-up: chip race o ⚪100 žetony' during the
    break: 'a chip race for 100 chips', not the 100 chips leaving the table (the Hungarian says
    'Color-up, chip race: ⚪100 ...')."""
    jump(api, game, BREAK_100)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "cs"
    html = client.get(reverse("tables:dealer", args=[game.pk, 1])).content.decode()
    assert "Color-up, chip race:" in html and "chip race o" not in html


@pytest.mark.parametrize(
    "bad",
    [
        {"odd_1": "three"},  # was read as 0: a race dealt without seat 1's odd chips
        {"odd_1": "-3"},
        {"odd_1": "9" * 25},
        {"method": "coin_flip"},
        {"mode": "cards", "entry_mode": "cards", "cards_1": "As " * 100},
    ],
)
def test_a_bad_color_up_form_is_refused_and_changes_nothing(client, game, api, bad):
    jump(api, game, BREAK_100)
    form = race_form(s4=1) | {"mode": "virtual"} | bad
    response = client.post(url("colorup_run", game), form, headers=HTMX)
    assert response.status_code == 422
    assert json.loads(response.headers["HX-Trigger"])["floor:done"]["ok"] is False
    plan = client.post(url("colorup_preview", game), form)
    assert plan.status_code == 200 and "Check the counts" in plan.content.decode()
    assert ColorUp.objects.count() == 0


@pytest.mark.parametrize(
    ("name", "bad"),
    [
        ("colorup_confirm", {"color_up": "9" * 25}),  # an id past 64 bits was a 500
        ("colorup_undo", {"color_up": "x"}),
        ("colorup_found", {"color_up": "1", "seat": "9" * 25, "value": "100"}),
        ("colorup_found", {"color_up": "1", "seat": "1", "value": "9" * 25}),
        ("colorup_found", {"color_up": "9" * 25, "seat": "1", "value": "100"}),
    ],
)
def test_a_bad_color_up_id_seat_or_value_is_refused(client, game, api, name, bad):
    jump(api, game, BREAK_100)
    response = client.post(url(name, game), bad, headers=HTMX)
    assert response.status_code == 422
    assert json.loads(response.headers["HX-Trigger"])["floor:done"]["ok"] is False
    assert ColorUp.objects.count() == 0
