"""infra/db/write_batch.py: several rows of one model in one INSERT, each given its own key."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from infra.db.write_batch import WriteBatch
from tourney.models import Entry, LedgerEntry


@pytest.mark.django_db
def test_rows_of_one_model_go_in_one_statement_and_each_gets_its_key(tournament, director):
    player_entry = Entry.objects.create(
        tournament=tournament,
        player=_player(),
        number=1,
        status=Entry.Status.ACTIVE,
        created_at=timezone.now(),
    )
    rows = [
        LedgerEntry(
            tournament=tournament,
            entry=player_entry,
            kind=LedgerEntry.Kind.BUY_IN,
            amount=amount,
            method=LedgerEntry.Method.CASH,
            cashier=director,
            at=timezone.now(),
            receipt_number=f"R-{amount}",
        )
        for amount in (300, 200, 100)
    ]
    with transaction.atomic(), CaptureQueriesContext(connection) as queries:
        batch = WriteBatch()
        batch.insert_rows(rows)
        batch.flush()
    assert len([q for q in queries if q["sql"].startswith("INSERT")]) == 1
    assert all(row.pk is not None and not row._state.adding for row in rows)
    for row in rows:  # each key is its own row's, in the order given
        assert LedgerEntry.objects.get(pk=row.pk).amount == row.amount
    WriteBatch().insert_rows([])  # nothing to write (a freeroll's prices): no statement


def _player():  # type: ignore[no-untyped-def]
    from tourney.models import Player

    return Player.objects.create(name="Batch Player", search_text="batch player")
