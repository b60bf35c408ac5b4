"""Members only (Doyle 001:3, issue 31 item 11): where the house rule `membership_required` is
on, a player without a membership number and his signature that he read the house rules is
refused before his first buy-in; the desk asks for both under his row and finds him again."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import friday_deepstack, make_staff
from tourney.models import AuditEntry, Entry

pytestmark = pytest.mark.django_db


@pytest.fixture
def doyle(director, structure, room):
    return friday_deepstack(director, structure, room, name="Doyle csütörtök", house_rules="doyle")


def test_a_non_member_is_refused_until_his_membership_is_recorded(api, doyle):
    player = api.post("/players", {"name": "Őri Zsolt"}).json()
    refused = api.post(f"/tournaments/{doyle.pk}/entries", {"player_id": player["id"]})
    assert refused.status_code == 409 and refused.json()["code"] == "membership_required"
    assert not Entry.objects.filter(tournament=doyle).exists()
    half = api.put(
        f"/players/{player['id']}/membership", {"membership_number": "D-0042", "rules_read": False}
    )
    assert half.status_code == 200 and half.json()["rules_acknowledged_ms"] is None
    assert (
        api.post(f"/tournaments/{doyle.pk}/entries", {"player_id": player["id"]}).status_code == 409
    )
    signed = api.put(
        f"/players/{player['id']}/membership", {"membership_number": "D-0042", "rules_read": True}
    ).json()
    assert signed["membership_number"] == "D-0042" and signed["rules_acknowledged_ms"]
    assert (
        api.post(f"/tournaments/{doyle.pk}/entries", {"player_id": player["id"]}).status_code == 201
    )
    assert AuditEntry.objects.filter(action="player.membership").count() == 2
    bad = api.put(
        f"/players/{player['id']}/membership", {"membership_number": "", "rules_read": True}
    )
    assert bad.status_code == 422


def test_other_rooms_take_anyone(api, tournament):
    player = api.post("/players", {"name": "Kiss Anna"}).json()
    assert (
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player["id"]}).status_code
        == 201
    )


def test_the_desk_asks_for_the_membership_and_finds_him_again(api, doyle):
    player = api.post("/players", {"name": "Ács Ödön"}).json()
    client = Client()
    client.force_login(make_staff("desk1", "desk"))
    found = client.get(f"/tournaments/{doyle.pk}/desk/search/?q=Ács").content.decode()
    assert f'data-membership-for="{player["id"]}"' in found
    url = reverse("tourney:desk_membership", args=[doyle.pk])
    unsigned = client.post(
        url, {"player_id": player["id"], "membership_number": "D-7"}, follow=True
    )
    assert [m.level_tag for m in unsigned.context["messages"]] == ["bad"]
    saved = client.post(
        url, {"player_id": player["id"], "membership_number": "D-7", "rules_read": "on"}
    )
    assert saved.status_code == 302 and saved["Location"].endswith(f"?player={player['id']}")
    desk = client.get(saved["Location"]).content.decode()
    assert 'value="Ács Ödön" data-search-now' in desk
    again = client.get(f"/tournaments/{doyle.pk}/desk/search/?q=Ács").content.decode()
    assert "data-membership-for" not in again
    registered = client.post(
        reverse("tourney:desk_register", args=[doyle.pk]),
        {"player_id": player["id"], "method": "cash"},
    )
    assert registered.status_code == 302
    assert Entry.objects.filter(tournament=doyle, player_id=player["id"]).exists()
