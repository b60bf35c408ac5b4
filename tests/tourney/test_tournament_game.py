"""The game on every event (issue 31 item 9; docs/api.md `game`): set on creation, in the
settings and by a PATCH, refused when unknown, shown on the console, the lobby TV, the seat
card and the results."""

import pytest
from django.test import Client
from django.urls import reverse

from clocks.display.selectors import display_token
from tests.conftest import seat_players
from tourney.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def test_an_event_deals_its_game_everywhere_it_is_named(api, director, structure, room):
    body = {
        "name": "PLO Thursday",
        "structure_id": structure.pk,
        "starting_stack": 30_000,
        "buy_in": 8_000,
        "room_id": room.pk,
        "game": {"kind": "omaha", "limit": "pot_limit"},
    }
    created = api.post("/tournaments", body).json()
    assert created["game"] == {"kind": "omaha", "limit": "pot_limit", "name": "Pot-limit Omaha"}
    tournament = Tournament.objects.get(pk=created["id"])
    seat_players(api, tournament, ["Őri Zsolt", "Ács Ödön"])
    entry = Entry.objects.filter(tournament=tournament).first()
    client = Client()
    client.force_login(director)
    pages = {
        "console": reverse("tourney:console", args=[tournament.pk]),
        "seat card": reverse("tourney:seat_card", args=[tournament.pk, entry.pk]),
        "results": reverse("payouts:results", args=[tournament.pk]),
        "tv": reverse("clocks:display", args=[display_token(tournament.pk)]),
    }
    for where, url in pages.items():
        assert "Pot-limit Omaha" in client.get(url).content.decode(), where
    client.cookies["django_language"] = "hu"
    assert "Pot-limit Omaha" in client.get(pages["console"]).content.decode()


def test_the_game_is_changed_by_a_patch_and_a_wrong_one_refused(api, tournament):
    assert api.get(f"/tournaments/{tournament.pk}").json()["game"]["name"] == "No-limit Hold'em"
    changed = api.patch(
        f"/tournaments/{tournament.pk}", {"game": {"kind": "mixed", "limit": "mixed"}}
    )
    assert changed.status_code == 200 and changed.json()["game"]["name"] == "Mixed games"
    refused = api.patch(f"/tournaments/{tournament.pk}", {"game": {"kind": "checkers"}})
    assert refused.status_code == 422
    assert api.get(f"/tournaments/{tournament.pk}").json()["game"]["kind"] == "mixed"


def test_the_new_tournament_form_takes_the_game(director_client, structure, room):
    answer = director_client.post(
        reverse("tourney:tournament_new"),
        {
            "name": "Short deck special",
            "structure": structure.pk,
            "room": room.pk,
            "house_rules": "tda2024",
            "starting_stack": 20_000,
            "buy_in": 5_000,
            "fee": 1_000,
            "game": "short_deck",
            "game_limit": "no_limit",
            "waiting_list": "on",
            "rebuy_condition": "busted",
        },
    )
    assert answer.status_code == 302, answer.content.decode()[:500]
    made = Tournament.objects.get(name="Short deck special")
    assert (made.game, made.game_limit) == ("short_deck", "no_limit")
