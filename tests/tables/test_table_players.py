"""`TournamentTable.players`, the playing entries at a table, is kept by database triggers
(tables migration 0006) whichever way the seating changes: the draw's bulk UPDATE, a late
seat, a bust-out and its undo, a table break, an unregistration, a raw update, a delete. The
floor reads it instead of counting every table's entries after each bust-out."""

import random

import pytest
from django.db import connection

from tables.floor.usecases import floor_action_done
from tables.models import TournamentTable
from tables.seating.selectors import table_players_drift
from tests.conftest import numbered_players, seat_players
from tests.factories import register, seating_of, started_tournament
from tests.tables.table_counts import assert_counts_right, stored_counts
from tourney.core.db_triggers import (
    TRIGGER_TABLES,
    triggers_drop,
    triggers_install,
    triggers_installed,
)
from tourney.eliminations.usecases import elimination_undo, eliminations_record
from tourney.models import Entry, LedgerEntry, Tournament, TournamentEvent
from tourney.registration.usecases import entry_unregister

pytestmark = pytest.mark.django_db


def test_the_triggers_are_installed():
    """Installed after migrate (tourney/core/db_triggers.py), whatever the migrations rebuilt."""
    assert triggers_installed(connection) == set(TRIGGER_TABLES)


def test_a_migration_that_rebuilds_the_tables_keeps_them(director, structure):
    """A rebuilt table loses its triggers on SQLite; the next migrate puts them back and
    recounts what was written meanwhile."""
    rng = random.Random(8)
    tournament = started_tournament(director, structure, 20, "rimoc", rng, tables=4)
    triggers_drop(connection)
    assert triggers_installed(connection) == set()
    victim = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    Entry.objects.filter(pk=victim.pk).update(status=Entry.Status.ELIMINATED)
    assert table_players_drift(tournament.pk) != {}
    triggers_install(connection)
    assert triggers_installed(connection) == set(TRIGGER_TABLES)
    assert_counts_right(tournament)


def test_an_event_sets_the_tournament_version(director, structure):
    rng = random.Random(9)
    tournament = started_tournament(director, structure, 12, "rimoc", rng, tables=2)
    latest = TournamentEvent.objects.filter(tournament=tournament).order_by("-version").first()
    assert Tournament.objects.get(pk=tournament.pk).version == latest.version > 0


def test_counts_follow_the_draw_late_seats_bust_outs_undo_and_breaks(director, structure):
    rng = random.Random(5)
    tournament = started_tournament(director, structure, 30, "rimoc", rng, tables=6)
    assert sum(stored_counts(tournament).values()) == 30
    assert_counts_right(tournament)

    late = register(director, tournament, rng)
    assert late.tournament_table_id is not None
    assert_counts_right(tournament)

    busted = next(iter(seating_of(tournament)[1].values()))
    eliminations_record(actor=director, tournament_id=tournament.pk, eliminations=[(busted, None)])
    assert_counts_right(tournament)
    elimination_undo(actor=director, tournament_id=tournament.pk, entry_id=busted)
    assert_counts_right(tournament)

    # Bust players until a table breaks; the movers' seats change in bulk.
    while len(stored_counts(tournament)) == 4:
        seating = seating_of(tournament)
        largest = max(seating.values(), key=len)
        result = eliminations_record(
            actor=director,
            tournament_id=tournament.pk,
            eliminations=[(next(iter(largest.values())), None)],
        )
        assert_counts_right(tournament)
        for action in result["actions"]:
            floor_action_done(actor=director, tournament_id=tournament.pk, action_id=action["id"])
            assert_counts_right(tournament)
    assert (
        sum(stored_counts(tournament).values())
        == Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    )


def test_counts_follow_an_unregistration_a_raw_update_and_a_delete(api, director, tournament):
    """Unregistering (before the start) empties the seat the draw gave."""
    seat_players(api, tournament, numbered_players(20))
    assert_counts_right(tournament)
    entry = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    table = entry.tournament_table
    entry_unregister(actor=director, tournament_id=tournament.pk, entry_id=entry.pk)
    assert_counts_right(tournament)

    other = Entry.objects.filter(tournament_table=table, status=Entry.Status.ACTIVE).first()
    Entry.objects.filter(pk=other.pk).update(status=Entry.Status.ELIMINATED)
    assert_counts_right(tournament)
    Entry.objects.filter(pk=other.pk).update(status=Entry.Status.ACTIVE)
    assert_counts_right(tournament)
    Entry.objects.filter(pk=other.pk).update(seat=other.seat)  # not a change of table
    assert_counts_right(tournament)

    before = TournamentTable.objects.get(pk=table.pk).players
    LedgerEntry.objects.filter(entry=other).delete()
    Entry.objects.filter(pk=other.pk).delete()
    assert TournamentTable.objects.get(pk=table.pk).players == before - 1
    assert_counts_right(tournament)


def test_saving_a_table_never_writes_back_a_stale_count(director, structure):
    rng = random.Random(7)
    tournament = started_tournament(director, structure, 20, "rimoc", rng, tables=4)
    table = TournamentTable.objects.filter(tournament=tournament, players__gt=0).first()
    victim = Entry.objects.filter(tournament_table=table, status=Entry.Status.ACTIVE).first()
    eliminations_record(
        actor=director, tournament_id=tournament.pk, eliminations=[(victim.pk, None)]
    )
    table.hands_played += 1
    table.save()  # `table.players` is the count from before the bust-out
    assert TournamentTable.objects.get(pk=table.pk).players == table.players - 1
    assert_counts_right(tournament)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL setting")
def test_the_draw_writes_the_counts_the_trigger_leaves_to_it(api, director, tournament):
    """While `players_written` is on (the draw's one UPDATE), an UPDATE of entries leaves the
    counts alone; after it, and in every other transaction, the trigger counts again."""
    from django.db import transaction

    from tourney.core.db_triggers import PLAYERS_WRITTEN

    seat_players(api, tournament, numbered_players(20))
    assert_counts_right(tournament)  # the draw wrote them itself
    entry = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    before = TournamentTable.objects.get(pk=entry.tournament_table_id).players
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SELECT set_config(%s, 'on', true)", [PLAYERS_WRITTEN])
        Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ELIMINATED)
        assert TournamentTable.objects.get(pk=entry.tournament_table_id).players == before
        transaction.set_rollback(True)
    Entry.objects.filter(pk=entry.pk).update(status=Entry.Status.ELIMINATED)
    assert TournamentTable.objects.get(pk=entry.tournament_table_id).players == before - 1
    assert_counts_right(tournament)


def test_one_insert_of_seated_entries_keeps_their_seats_and_counts(api, director, tournament):
    """The Day-2 draw's way in (tourney/flights/operations.py): several entries at several
    tables in one INSERT statement; an entry not playing gets no seat's row."""
    from django.utils import timezone

    from tourney.models import Player

    seat_players(api, tournament, numbered_players(12))
    seated = list(Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE))
    taken = {(e.tournament_table_id, e.seat) for e in seated}
    tables = list(TournamentTable.objects.filter(tournament=tournament, players__gt=0))
    free = [(t.pk, s) for t in tables for s in range(1, t.seats + 1) if (t.pk, s) not in taken][:4]
    now = timezone.now()
    newcomers = [Player.objects.create(name=f"Newcomer {i}") for i in range(5)]
    Entry.objects.bulk_create(
        [
            Entry(
                tournament=tournament,
                player=p,
                number=100 + i,
                status=Entry.Status.ACTIVE if i < 4 else Entry.Status.WAITING,
                tournament_table_id=free[i][0] if i < 4 else None,
                seat=free[i][1] if i < 4 else None,
                created_at=now,
            )
            for i, p in enumerate(newcomers)
        ]
    )
    assert len({t for t, _s in free}) > 1
    assert_counts_right(tournament)


def test_a_table_with_entries_is_never_deleted(api, director, tournament):
    """No foreign key in the database (tourney migration 0016): the ORM's PROTECT refuses."""
    from django.db.models import ProtectedError

    seat_players(api, tournament, numbered_players(12))
    entry = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    with pytest.raises(ProtectedError):
        TournamentTable.objects.filter(pk=entry.tournament_table_id).delete()
    assert TournamentTable.objects.filter(pk=entry.tournament_table_id).exists()
