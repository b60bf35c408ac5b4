"""Two desks registering at the same instant serialize on the tournament row: nothing is lost."""

import pytest

from tests.factories import run_at_once
from tourney.models import Entry, LedgerEntry, Player
from tourney.registration.usecases import entry_register
from tourney.tournaments.usecases import tournament_create


@pytest.mark.django_db(transaction=True)
def test_simultaneous_registrations_never_overbook(director, room, structure):
    tournament = tournament_create(
        actor=director,
        name="Rush",
        structure_id=structure.pk,
        starting_stack=1000,
        buy_in=100,
        fee=10,
        room_id=room.pk,
        table_numbers=[1],
        rules_overrides={"seats_per_table": 4},
    )
    players = [Player.objects.create(name=f"P{i}", search_text=f"p{i}") for i in range(8)]
    errors = run_at_once(
        [
            (
                lambda p=p: entry_register(
                    actor=director, tournament_id=tournament.pk, player_id=p.pk
                )
            )
            for p in players
        ]
    )
    assert errors == []
    entries = list(Entry.objects.filter(tournament=tournament))
    assert len(entries) == 8
    assert sorted(e.number for e in entries) == list(range(1, 9))
    assert sum(e.status == "active" for e in entries) == 4
    assert sum(e.status == "waiting" for e in entries) == 4
    assert LedgerEntry.objects.filter(tournament=tournament).count() == 16


@pytest.mark.django_db(transaction=True)
def test_simultaneous_late_registrations_get_distinct_seats(director, room, structure):
    from tables.seating.usecases import seats_draw

    tournament = tournament_create(
        actor=director,
        name="Late rush",
        structure_id=structure.pk,
        starting_stack=1000,
        buy_in=100,
        room_id=room.pk,
        table_numbers=[1, 2],
        rules_overrides={"seats_per_table": 9},
    )
    players = [Player.objects.create(name=f"P{i}", search_text=f"p{i}") for i in range(16)]
    for p in players[:10]:
        entry_register(actor=director, tournament_id=tournament.pk, player_id=p.pk)
    seats_draw(actor=director, tournament_id=tournament.pk)
    errors = run_at_once(
        [
            (
                lambda p=p: entry_register(
                    actor=director, tournament_id=tournament.pk, player_id=p.pk
                )
            )
            for p in players[10:]
        ]
    )
    assert errors == []
    seated = list(
        Entry.objects.filter(tournament=tournament, status="active").values_list(
            "tournament_table__number", "seat"
        )
    )
    assert len(seated) == 16 and len(set(seated)) == 16
