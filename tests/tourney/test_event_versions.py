"""One writer for the tournament's version: the insert of its next event (the database trigger
of migration 0013); `(tournament, version)` is unique on the events; `sqlmigrate` shows the
triggers."""

import io

import pytest
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.utils import timezone

from tourney.core.locks import tournament_lock
from tourney.events.log import event_append
from tourney.models import Tournament, TournamentEvent

pytestmark = pytest.mark.django_db


@pytest.mark.django_db(transaction=True)  # SQLite's schema editor wants no open transaction
def test_sqlmigrate_shows_the_triggers_and_the_constraint():
    out = io.StringIO()
    call_command("sqlmigrate", "tourney", "0013", stdout=out)
    sql = out.getvalue()
    for name in (
        "entry_table_players_insert",
        "entry_table_players_update",
        "entry_table_players_delete",
        "event_tournament_version",
        "tournamentevent_version_unique",
    ):
        assert name in sql


def test_two_events_of_a_tournament_cannot_share_a_version(tournament):
    with transaction.atomic():
        locked = tournament_lock(tournament.pk)
        event = event_append(locked, "message", {"message": "one"})
    with pytest.raises(IntegrityError), transaction.atomic():
        TournamentEvent.objects.create(
            tournament=tournament,
            kind="message",
            version=event.version,
            payload={},
            at=timezone.now(),
        )


def test_the_event_sets_the_version_and_a_save_leaves_it(tournament):
    stale = Tournament.objects.get(pk=tournament.pk)
    with transaction.atomic():
        locked = tournament_lock(tournament.pk)
        event = event_append(locked, "message", {"message": "one"})
    assert Tournament.objects.get(pk=tournament.pk).version == event.version
    stale.name = "Renamed"
    stale.save()  # a full save of an instance read before the event
    stored = Tournament.objects.get(pk=tournament.pk)
    assert (stored.name, stored.version) == ("Renamed", event.version)
