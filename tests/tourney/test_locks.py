"""The tournament lock reads its row with plain SQL: the instance must be the ORM's own."""

import pytest
from django.db import DatabaseError, transaction
from django.utils import timezone

from tourney.core.errors import NotFound
from tourney.core.locks import tournament_lock, tournament_lock_reading
from tourney.models import Tournament

pytestmark = pytest.mark.django_db


def test_the_locked_tournament_is_the_row_the_orm_reads(tournament):
    Tournament.objects.filter(pk=tournament.pk).update(
        rules_overrides={"reentry_max": 2}, started_at=timezone.now(), late_registration_level=6
    )
    stored = Tournament.objects.get(pk=tournament.pk)
    with transaction.atomic():
        locked = tournament_lock(tournament.pk)
    fields = [f.attname for f in Tournament._meta.concrete_fields]
    assert {f: getattr(locked, f) for f in fields} == {f: getattr(stored, f) for f in fields}
    assert locked.rules_overrides == {"reentry_max": 2} and locked.started_at is not None
    assert not locked._state.adding and locked._state.db == stored._state.db
    locked.name = "Renamed"
    locked.save(update_fields=["name"])  # an instance like any other
    assert Tournament.objects.get(pk=tournament.pk).name == "Renamed"


def test_no_such_tournament_is_not_found(db):
    with pytest.raises(NotFound) as refused, transaction.atomic():
        tournament_lock(987_654)
    assert refused.value.code == "tournament_not_found"


def test_a_read_sent_with_the_lock_gives_its_first_row(tournament):
    with transaction.atomic():
        locked, row = tournament_lock_reading(
            tournament.pk,
            "SELECT name, %s FROM tourney_tournament WHERE id = %s",
            [7, tournament.pk],
        )
        assert row == (tournament.name, 7) and locked.pk == tournament.pk
        locked, row = tournament_lock_reading(
            tournament.pk, "SELECT id FROM tourney_tournament WHERE id = %s", [987_654]
        )
        assert row is None  # no row read: None, the lock taken all the same


def test_no_such_tournament_is_not_found_with_a_read_sent_along(db):
    with pytest.raises(NotFound) as refused, transaction.atomic():
        tournament_lock_reading(987_654, "SELECT 1", [])
    assert refused.value.code == "tournament_not_found"


def test_a_read_that_fails_fails_the_lock_with_the_database_error(tournament):
    with pytest.raises(DatabaseError), transaction.atomic():
        tournament_lock_reading(tournament.pk, "SELECT no_such_column FROM tourney_tournament", [])
