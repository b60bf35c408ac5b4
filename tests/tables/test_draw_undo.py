"""The seat draw taken back before the start (issue 32: a draw made by mistake had no undo):
every player unseated and every table out of play with no button, the draw made again; refused
once the event has started, for a draw not made, and for a bystander; audited, and offered as
Undo in the activity list until the start."""

import pytest
from django.urls import reverse

from tables.models import Seat, TournamentTable
from tests.conftest import numbered_players, seat_players
from tests.factories import start
from tourney.audit.selectors import undo_links
from tourney.models import AuditEntry, Entry, Tournament

pytestmark = pytest.mark.django_db


def _seated(tournament) -> int:
    return Entry.objects.filter(tournament=tournament, seat__isnull=False).count()


def test_the_draw_is_undone_and_made_again(api, director, tournament):
    seat_players(api, tournament, numbered_players(14))
    assert _seated(tournament) == 14
    before = TournamentTable.objects.filter(tournament=tournament, status="open").count()
    assert before == 2
    answer = api.post(f"/tournaments/{tournament.pk}/draw/undo")
    assert answer.status_code == 200, answer.content
    assert answer.json() == {"tables": []}
    tournament.refresh_from_db()
    assert tournament.seats_drawn_at is None
    assert _seated(tournament) == 0
    assert not Seat.objects.filter(tournament=tournament, tournament_table__isnull=False).exists()
    tables = TournamentTable.objects.filter(tournament=tournament)
    assert set(tables.values_list("status", flat=True)) == {"idle"}
    assert all(t.players == 0 and t.button_seat is None and not t.button_draw for t in tables)
    audit = AuditEntry.objects.get(action="seating.draw_undo")
    assert audit.before["tables"] == [1, 2] and audit.target_id == tournament.pk
    # made again: every player seated once, the tables opened again
    again = api.post(f"/tournaments/{tournament.pk}/draw")
    assert again.status_code == 200
    assert _seated(tournament) == 14
    assert sum(t["players"].__len__() for t in again.json()["tables"]) == 14


def test_the_undo_is_refused_after_the_start_and_without_a_draw(api, api_as, tournament):
    refused = api.post(f"/tournaments/{tournament.pk}/draw/undo")
    assert refused.status_code == 409 and refused.json()["code"] == "draw_not_done"
    seat_players(api, tournament, numbered_players(6))
    assert api_as("desk").post(f"/tournaments/{tournament.pk}/draw/undo").status_code == 403
    start(api, tournament)
    refused = api.post(f"/tournaments/{tournament.pk}/draw/undo")
    assert refused.status_code == 409 and refused.json()["code"] == "tournament_started"
    assert _seated(tournament) == 6
    assert Tournament.objects.get(pk=tournament.pk).seats_drawn_at is not None


def test_the_activity_list_offers_the_undo_until_the_start(api, director, tournament):
    seat_players(api, tournament, numbered_players(6))
    row = undo_links(AuditEntry.objects.filter(action="seating.draw"), director)[0]
    assert row.undo.url == f"/api/v1/tournaments/{tournament.pk}/draw/undo"
    assert not row.undo.done
    start(api, tournament)
    row = undo_links(AuditEntry.objects.filter(action="seating.draw"), director)[0]
    assert row.undo is None


def test_the_console_offers_it_with_a_question(api, director_client, tournament):
    seat_players(api, tournament, numbered_players(6))
    page = director_client.get(reverse("tourney:console", args=[tournament.pk])).content.decode()
    assert 'id="draw-undo"' in page and "Every player loses his seat" in page
    start(api, tournament)
    page = director_client.get(reverse("tourney:console", args=[tournament.pk])).content.decode()
    assert 'id="draw-undo"' not in page
