"""The tournament lock reads its row with plain SQL: the instance must be the ORM's own."""

import pytest
from django.db import transaction
from django.utils import timezone

from tourney.errors import NotFound
from tourney.models import Tournament
from tourney.services.locks import tournament_lock

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
