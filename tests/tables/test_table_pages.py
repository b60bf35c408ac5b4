"""The dealer's hand form and the room pages (tables/seating/views.py): bad input is refused with a
message and changes nothing."""

import pytest
from django.urls import reverse

from tables.models import HandReport, Room, SeatRestriction
from tests.conftest import numbered_players, seat_players

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("button", ["abc", "9" * 25, "13"])
def test_a_bad_button_seat_records_no_hand(api, tournament, director_client, button):
    # "abc" was read as no seat (the button moved on its own), 25 digits reached the database
    seat_players(api, tournament, numbered_players(6))
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    url = reverse("tables:dealer_hand", args=[tournament.pk, 1])
    response = director_client.post(url, {"button_seat": button}, follow=True)
    assert response.status_code == 200
    assert [m.level_tag for m in response.context["messages"]] == ["bad"]
    assert HandReport.objects.count() == 0


def test_a_room_refuses_bad_tables_seats_and_releases(director_client):
    rooms = reverse("tables:rooms")
    for bad in ("1-2 x 99", "99998-99999 x 10", "1 x 1"):
        response = director_client.post(rooms, {"name": "Main", "tables": bad})
        assert response.status_code == 200 and response.context["form"].errors
    assert Room.objects.count() == 0
    assert director_client.post(rooms, {"name": "Main", "tables": "1-2 x 10"}).status_code == 302
    room = Room.objects.get()
    url = reverse("tables:room", args=[room.pk])
    kept = {"table": "1", "seat": "3", "kind": SeatRestriction.Kind.choices[0][0], "note": ""}
    assert director_client.post(url, kept).status_code == 302
    director_client.get(url)  # the messages so far, shown
    for bad in ("x", "1:", "1:2:3", "99999999999999999999:1", "1:99"):  # "x" was a 500
        response = director_client.post(url, {"release": bad}, follow=True)
        assert response.status_code == 200
        assert [m.level_tag for m in response.context["messages"]] == ["bad"]
    assert SeatRestriction.objects.count() == 1
    assert director_client.post(url, {"release": "1:3"}).status_code == 302
    assert SeatRestriction.objects.count() == 0


def test_a_seat_at_table_1000_is_released(director_client):
    # the button's value read "1,000:3" (thousands grouped) and the release was refused
    rooms = reverse("tables:rooms")
    assert director_client.post(rooms, {"name": "Far", "tables": "1000 x 10"}).status_code == 302
    url = reverse("tables:room", args=[Room.objects.get().pk])
    kept = {"table": "1000", "seat": "3", "kind": SeatRestriction.Kind.choices[0][0], "note": ""}
    assert director_client.post(url, kept).status_code == 302
    assert 'value="1000:3"' in director_client.get(url).content.decode()
    assert director_client.post(url, {"release": "1000:3"}).status_code == 302
    assert SeatRestriction.objects.count() == 0


def test_the_rooms_operator_and_gaming_day_are_set_and_printed(
    api, director, director_client, tournament
):
    """Mirage 000:6-14 (issue 31 item 8): who runs the room, on its receipts and results; the
    gaming day's start on the room page; bad input refused, nothing changed, audited."""
    from tourney.models import AuditEntry, Entry

    url = reverse("tables:room", args=[tournament.room_id])
    settings = {
        "room_settings": "1",
        "gaming_day_starts": "06:00",
        "operator_name": "Diamond Seven Kft.",
        "operator_address": "1087 Budapest, Kerepesi út 9.",
        "operator_tax_number": "12345678-2-42",
    }
    response = director_client.post(url, settings | {"gaming_day_starts": "25:00"}, follow=True)
    assert [m.level_tag for m in response.context["messages"]] == ["bad"]
    # NUL in a text field: refused before the view (infra/web/page_answers), nothing changed.
    response = director_client.post(url, settings | {"operator_name": "Diamond\x00Seven"})
    assert response.status_code == 422
    assert Room.objects.get(pk=tournament.room_id).operator_name == ""
    assert director_client.post(url, settings).status_code == 302
    assert AuditEntry.objects.filter(action="room.update").count() == 1
    seat_players(api, tournament, numbered_players(2))
    entry = Entry.objects.filter(tournament=tournament).first()
    receipt = director_client.get(
        reverse("tourney:receipt", args=[tournament.pk, entry.pk]), follow=True
    ).content.decode()
    assert "Diamond Seven Kft." in receipt and "12345678-2-42" in receipt
    results = director_client.get(reverse("payouts:results", args=[tournament.pk]))
    assert "Diamond Seven Kft." in results.content.decode()
    # The API: read and changed the same way, a wrong time refused.
    room = api.get("/rooms").json()[0]
    assert room["operator_name"] == "Diamond Seven Kft." and room["gaming_day_starts"] == "06:00"
    refused = api.patch(f"/rooms/{tournament.room_id}", {"gaming_day_starts": "6 am"})
    assert refused.status_code == 422
    changed = api.patch(f"/rooms/{tournament.room_id}", {"operator_name": "Diamond King Kft."})
    assert changed.json()["operator_name"] == "Diamond King Kft."
