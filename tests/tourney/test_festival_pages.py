"""The festival's pages (issue 26): the console's panel, a table's count sheet from the floor
and the dealer link, the count list, the bag slips and the public page with its cache headers."""

import pytest
from django.test import Client

from tables.dealer_links.selectors import dealer_token
from tests.tourney.festival_steps import (
    bag_flight,
    festival_hall,
    flight,
    main_event,
    play_flight,
    players,
    seated,
)
from tourney.models import Entry, Tournament

pytestmark = pytest.mark.django_db


def seated_bags(tournament) -> dict[int, list[int]]:
    """A flight's bags by the table they were bagged at."""
    out: dict[int, list[int]] = {}
    for e in Entry.objects.filter(tournament=tournament, status="bagged").order_by("pk"):
        out.setdefault(e.tournament_table.number, []).append(e.pk)
    return out


@pytest.fixture
def festival(api, director, structure):
    main = main_event(director, structure, festival_hall(director))
    pid = players(api, [f"Őri Zsolt {i}" for i in range(14)])
    day1a = flight(api, main, "Day 1A", [1, 2])
    left = play_flight(api, day1a, list(pid.values()), busts=2)
    return main, day1a, left


def test_the_console_shows_the_flight_panel_and_the_count_sheet_saves(director_client, festival):
    _main, day1a, _left = festival
    page = director_client.get(f"/tournaments/{day1a.pk}/").content.decode()
    assert 'id="festival-panel"' in page and 'id="end-of-day"' in page
    payouts = director_client.get(f"/tournaments/{day1a.pk}/payouts/panel/")
    assert payouts.status_code == 200, payouts.status_code
    assert 'id="payouts-flight"' in payouts.content.decode()
    assert 'id="payout-structure-select"' not in payouts.content.decode()
    number, entries = next(iter(seated(day1a).items()))
    sheet = director_client.get(f"/tournaments/{day1a.pk}/tables/{number}/chip-counts/")
    assert sheet.status_code == 200 and "Őri Zsolt" in sheet.content.decode()
    posted = {f"chips-{e}": "52 500" for e in entries}
    saved = director_client.post(f"/tournaments/{day1a.pk}/tables/{number}/chip-counts/", posted)
    assert saved.status_code == 302
    again = director_client.get(f"/tournaments/{day1a.pk}/tables/{number}/chip-counts/")
    assert again.content.decode().count('value="52500"') == len(entries)  # the last counts
    assert {Entry.objects.get(pk=e).chips for e in entries} == {52_500}
    bad = director_client.post(
        f"/tournaments/{day1a.pk}/tables/{number}/chip-counts/", {f"chips-{entries[0]}": "12x"}
    )
    assert bad.status_code == 422
    assert 'value="12x"' in bad.content.decode()  # what was typed is kept
    assert Entry.objects.get(pk=entries[0]).chips == 52_500
    panel = director_client.get(f"/tournaments/{day1a.pk}/festival/").content.decode()
    assert "52,500" in panel or "52 500" in panel or "52.500" in panel


def test_a_dealer_link_counts_its_own_table_only(festival):
    _main, day1a, _left = festival
    tables = seated(day1a)
    (mine, entries), (_other, theirs) = list(tables.items())[:2]
    client = Client()
    url = f"/dealer/{dealer_token(day1a.pk, mine, 0)}/chip-counts/"
    assert client.get(url).status_code == 200
    assert client.post(url, {f"chips-{e}": "40000" for e in entries}).status_code == 302
    # a player of another table is not on this sheet: nothing to save
    assert client.post(url, {f"chips-{theirs[0]}": "40000"}).status_code == 422
    assert Entry.objects.get(pk=theirs[0]).chips is None


def test_bag_slips_list_and_the_public_page(api, director_client, festival):
    main, day1a, left = festival
    bag_flight(api, day1a, left)
    # a bag corrected on its table's sheet until Day 2 is drawn
    number, _entries = next(iter(seated_bags(day1a).items()))
    sheet_url = f"/tournaments/{day1a.pk}/tables/{number}/chip-counts/"
    bag = seated_bags(day1a)[number][0]
    assert f'name="chips-{bag}"' in director_client.get(sheet_url).content.decode()
    assert director_client.post(sheet_url, {f"chips-{bag}": "77 000"}).status_code == 302
    assert Entry.objects.get(pk=bag).chips == 77_000
    activity = director_client.get(f"/tournaments/{day1a.pk}/activity/").content.decode()
    assert f"/api/v1/tournaments/{day1a.pk}/end-of-day/undo" in activity
    slips = director_client.get(f"/tournaments/{day1a.pk}/bag-slips/").content.decode()
    assert slips.count('class="seat-card bag-slip"') == len(left)
    listing = director_client.get(f"/tournaments/{main.pk}/chip-counts/")
    assert listing.status_code == 200 and "Day 1A" in listing.content.decode()
    url = api.get(f"/tournaments/{main.pk}/public-link").json()["url"]
    path = url.split("testserver", 1)[1]
    reader = Client()
    first = reader.get(path + "?lang=hu")
    body = first.content.decode()
    assert first.status_code == 200 and "Day 1A" in body and "Őri Zsolt" in body
    assert "public" in first["Cache-Control"] and first["ETag"]
    assert "@" not in body  # no contact details
    again = reader.get(path + "?lang=hu", HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304
    api.post(f"/tournaments/{main.pk}/day2/draw")
    late = director_client.post(sheet_url, {f"chips-{bag}": "1 000"})
    assert late.status_code == 409 and Entry.objects.get(pk=bag).chips == 77_000
    changed = reader.get(path + "?lang=hu", HTTP_IF_NONE_MATCH=first["ETag"])
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    new = api.post(f"/tournaments/{main.pk}/public-link/revoke").json()["url"]
    assert new != url and reader.get(path).status_code == 404
    assert Tournament.objects.get(pk=main.pk).public_link_generation == 1


def test_a_new_tournament_becomes_a_main_event_from_its_console(director_client, tournament):
    page = director_client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="festival-start"' in page
    added = director_client.post(
        f"/tournaments/{tournament.pk}/flights/add/",
        {"name": "Day 1A", "tables": "1 2", "day_end_level": "8"},
    )
    flight = Tournament.objects.get(main_event=tournament)
    assert added.status_code == 302 and added["Location"] == f"/tournaments/{flight.pk}/"
    assert flight.day_end_level == 8
    assert sorted(flight.tournament_tables.values_list("number", flat=True)) == [1, 2]
    page = director_client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert 'id="festival-start"' not in page and 'id="festival-panel"' in page
    bad = director_client.post(
        f"/tournaments/{tournament.pk}/flights/add/", {"name": "Day 1B", "day_end_level": "x"}
    )
    assert bad.status_code == 302 and Tournament.objects.filter(main_event=tournament).count() == 1
