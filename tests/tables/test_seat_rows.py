"""The seats' table (`tables.Seat`, tourney/core/db_triggers.py): the database keeps a row per
playing entry from the entry's own columns, holds the seat's uniqueness there, and no index of
the entry table names a table or a seat, so that the draw's UPDATE is heap-only on PostgreSQL
(docs/benchmarks.md, "Seats in a table of their own")."""

import random

import pytest
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from tables.models import Seat
from tables.seating.usecases import seats_draw
from tests.conftest import numbered_players, seat_players
from tests.factories import PlayerFactory, register, started_tournament
from tests.tables.table_counts import assert_counts_right
from tourney.eliminations.usecases import elimination_undo, eliminations_record
from tourney.models import Entry, Tournament
from tourney.registration.usecases import entries_register_bulk

pytestmark = pytest.mark.django_db


def entry_index_sql() -> list[str]:
    """The definitions of the entry table's indexes, conditions included."""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT indexdef FROM pg_indexes WHERE tablename = 'tourney_entry'")
        else:
            cursor.execute(
                "SELECT sql FROM sqlite_master WHERE type = 'index'"
                " AND tbl_name = 'tourney_entry' AND sql IS NOT NULL"
            )
        return [row[0] for row in cursor.fetchall()]


def test_no_index_of_the_entry_table_names_its_table_or_seat():
    """A change of an indexed column (or of one an index's condition names) is never
    heap-only: the draw would write every index of 25,000 rows again."""
    definitions = entry_index_sql()
    assert len(definitions) >= 3  # live entry, tournament and status, player (and more)
    for sql in definitions:
        assert "tournament_table_id" not in sql
        assert '"seat"' not in sql and " seat" not in sql.replace("tourney_entry", "")


def test_a_seat_row_for_every_playing_entry_through_the_evening(director, structure):
    rng = random.Random(11)
    tournament = started_tournament(director, structure, 30, "rimoc", rng, tables=4)
    assert_counts_right(tournament)
    assert Seat.objects.filter(tournament=tournament).count() == 30
    late = register(director, tournament, rng)
    assert Seat.objects.get(entry=late).seat == Entry.objects.get(pk=late.pk).seat
    victims = list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).order_by("pk")[:3]
    )
    for victim in victims:
        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(victim.pk, None)]
        )
        assert_counts_right(tournament)
    assert not Seat.objects.filter(entry__in=victims).exists()
    elimination_undo(actor=director, tournament_id=tournament.pk, entry_id=victims[-1].pk)
    assert_counts_right(tournament)
    assert Seat.objects.filter(entry=victims[-1]).exists()


def test_two_players_never_share_a_seat_and_a_swap_in_one_statement_holds(
    api, director, tournament
):
    seat_players(api, tournament, numbered_players(12))
    a, b = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)[:2]
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.filter(pk=a.pk).update(tournament_table_id=b.tournament_table_id, seat=b.seat)
    assert_counts_right(tournament)
    if connection.vendor == "postgresql":  # SQLite checks row by row, PostgreSQL per statement
        from tables.seating.operations import update_rows

        update_rows(
            Entry,
            ("tournament_table", "seat"),
            [(a.pk, b.tournament_table_id, b.seat), (b.pk, a.tournament_table_id, a.seat)],
        )
        assert Seat.objects.get(entry=a).seat == b.seat
        assert_counts_right(tournament)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's heap-only updates")
def test_the_draw_updates_every_entry_in_its_own_page(api, director, tournament):
    """fillfactor 45 (tourney migration 0017) leaves each page room for its rows' new
    versions; the counters are this transaction's."""
    names = numbered_players(40)
    for name in names:
        player_id = api.post("/players", {"name": name}).json()["id"]
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player_id})
    counters = (
        "SELECT pg_stat_get_xact_tuples_updated('tourney_entry'::regclass),"
        " pg_stat_get_xact_tuples_hot_updated('tourney_entry'::regclass)"
    )
    with connection.cursor() as cursor:
        cursor.execute(counters)
        updated, hot = cursor.fetchone()
        seats_draw(actor=director, tournament_id=tournament.pk)
        cursor.execute(counters)
        updated_after, hot_after = cursor.fetchone()
    assert updated_after - updated == 40
    assert hot_after - hot == 40
    assert_counts_right(tournament)


def stored_playing(tournament) -> int:
    return Tournament.objects.values_list("playing", flat=True).get(pk=tournament.pk)


def test_the_count_in_play_follows_every_statement_across_tournaments(director, structure):
    """`Tournament.playing` (registration's seats check) is kept by the database: rows in and
    out of play one at a time, and statements that change entries of two tournaments, in
    equal numbers in and out too (PostgreSQL's statement trigger counts them per tournament)."""
    rng = random.Random(5)
    first = started_tournament(director, structure, 12, "rimoc", rng, tables=2)
    second = started_tournament(director, structure, 12, "rimoc", rng, tables=2)
    assert (stored_playing(first), stored_playing(second)) == (12, 12)
    a, a2 = Entry.objects.filter(tournament=first, status=Entry.Status.ACTIVE)[:2]
    b, b2 = Entry.objects.filter(tournament=second, status=Entry.Status.ACTIVE)[:2]
    Entry.objects.filter(pk__in=[a.pk, b.pk]).update(status=Entry.Status.ELIMINATED)
    assert (stored_playing(first), stored_playing(second)) == (11, 11)
    with connection.cursor() as cursor:  # one back in play, one out, one statement
        cursor.execute(
            "UPDATE tourney_entry SET status = CASE WHEN id = %s THEN 'active'"
            " ELSE 'eliminated' END WHERE id IN (%s, %s)",
            [a.pk, a.pk, b2.pk],
        )
    assert (stored_playing(first), stored_playing(second)) == (12, 10)
    Entry.objects.filter(pk__in=[a2.pk, b.pk]).update(status=Entry.Status.WAITING)
    assert (stored_playing(first), stored_playing(second)) == (11, 10)
    extra = Entry.objects.create(
        tournament=first,
        player=PlayerFactory(name="Kovács-Szentmiklóssy Bernadett"),
        number=99,
        status=Entry.Status.ACTIVE,
        created_at=timezone.now(),
    )
    assert stored_playing(first) == 12
    extra.delete()
    assert stored_playing(first) == 11
    first.name = "Saved in full"
    first.save()  # a full save leaves the count to the database
    assert stored_playing(first) == 11
    assert_counts_right(first)
    assert_counts_right(second)


def test_a_bulk_insert_counts_its_entries_in_play_at_once(director, tournament):
    """A field registered in bulk (the simulation) is counted once per statement on
    PostgreSQL: a row trigger updated the tournament's row once per entry, and the draw after
    it read the row through every dead version. The counters are the test's transaction's (the
    use case's durable block runs inside it, as a test's database always is)."""
    updated = (
        "SELECT pg_stat_get_xact_tuples_updated('tourney_tournament'::regclass)"
        if connection.vendor == "postgresql"
        else None
    )
    with connection.cursor() as cursor:
        before = cursor.execute(updated).fetchone()[0] if updated else 0
        entries_register_bulk(
            actor=director, tournament_id=tournament.pk, names=[f"Játékos {i}" for i in range(60)]
        )
        after = cursor.execute(updated).fetchone()[0] if updated else 1
    assert stored_playing(tournament) == 60
    assert after - before == 1
    Entry.objects.filter(tournament=tournament, number__lte=10).update(
        status=Entry.Status.ELIMINATED
    )
    assert stored_playing(tournament) == 50
    assert_counts_right(tournament)
