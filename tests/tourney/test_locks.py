"""The tournament lock reads its row with plain SQL: the instance must be the ORM's own; a
lock held never holds up another write's foreign-key checks (PostgreSQL)."""

import threading

import pytest
from django.db import DatabaseError, connection, transaction
from django.utils import timezone

from tables.cash.operations import room_lock
from tables.models import Table
from tourney.core.errors import NotFound
from tourney.core.locks import tournament_lock, tournament_lock_reading
from tourney.models import Entry, Player, SitAndGoSeries, Tournament
from tourney.sit_and_go.selectors import series_of

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


def _held_while(lock, write) -> None:
    """`lock` held in one connection while `write` commits in another, which must not wait:
    on PostgreSQL a lock of FOR UPDATE strength made the write's foreign-key check at COMMIT
    (Django's constraints are deferred) wait on the holder, which in CI waited on the write."""
    held, done = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def holder() -> None:
        try:
            with transaction.atomic():
                lock()
                held.set()
                done.wait(30)
        except BaseException as exc:  # reported by the main thread
            errors.append(exc)
            held.set()
        finally:
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert held.wait(30)
        with transaction.atomic():
            with connection.cursor() as cursor:  # a wait fails at once instead of hanging
                cursor.execute("SET LOCAL lock_timeout = '2s'")
            write()
    finally:
        done.set()
        thread.join()
    assert not errors, errors


@pytest.mark.django_db(transaction=True)
def test_a_held_lock_never_holds_up_another_writes_commit(tournament, room, structure):
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's (SQLite writes one transaction at a time)")
    series = SitAndGoSeries.objects.create(
        name="Genius SNG",
        room=room,
        structure=structure,
        starting_stack=5_000,
        buy_in=9_000,
        seats=6,
    )
    player = Player.objects.create(name="Őri Zsolt")
    _held_while(
        lambda: tournament_lock(tournament.pk),
        lambda: Entry.objects.create(
            tournament_id=tournament.pk, player=player, number=1, created_at=timezone.now()
        ),
    )
    _held_while(
        lambda: series_of(series.pk, lock=True),  # nor the room's row it reads beside
        lambda: (
            Tournament.objects.filter(pk=tournament.pk).update(sng_series=series),
            Table.objects.create(room=room, number=77, seats=9),
        ),
    )
    _held_while(
        lambda: room_lock(room.pk), lambda: Table.objects.create(room=room, number=78, seats=9)
    )
    assert Tournament.objects.get(pk=tournament.pk).sng_series_id == series.pk
