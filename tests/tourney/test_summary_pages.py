"""The console's summary numbers (tourney/console/views.py) are a live part of their own:
floor.js refetches them on the events that change entries, players left, money or chips."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import make_staff, numbered_players, seat_players

pytestmark = pytest.mark.django_db


def test_the_summary_part_follows_a_bust_out(api, tournament, director):
    ids = seat_players(api, tournament, numbered_players(6))
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    client = Client()
    client.force_login(director)
    url = reverse("tourney:console_summary", args=[tournament.pk])

    console = client.get(reverse("tourney:console", args=[tournament.pk])).content.decode()
    assert f'data-floor-partial="{url}"' in console
    part = console.split('id="summary-live"')[1].split(">", 1)[0]
    for kind in ("entry", "eliminations", "money", "color_up", "penalty", "payouts"):
        assert kind in part.split('data-refresh-on="')[1].split('"')[0].split()

    body = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert 'data-stat="players_remaining">6<' in body
    busted = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": ids["P1"]}]},
    )
    assert busted.status_code == 200
    body = client.get(url).content.decode()
    assert 'data-stat="players_remaining">5<' in body
    assert 'data-stat="entries">6<' in body


def test_the_summary_part_needs_a_login_and_a_tournament(tournament):
    url = reverse("tourney:console_summary", args=[tournament.pk])
    assert Client().get(url).status_code == 302
    client = Client()
    client.force_login(make_staff("reader", "desk"))
    assert client.get(url).status_code == 200
    missing = reverse("tourney:console_summary", args=[tournament.pk + 99])
    assert client.get(missing).status_code == 404
