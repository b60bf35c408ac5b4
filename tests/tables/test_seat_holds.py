"""A pending move holds the seat its mover has not left (docs/rules.md §3.4), whatever moves
follow it, and calling a move off never leaves a seat told to two people: use cases against
the database."""

import random

import pytest

from clocks.services.clock import clock_operate
from tables.floor.usecases import floor_action_undo
from tables.models import FloorAction
from tables.services.seating import entry_seat_assign, held_seats, seats_draw
from tourney.eliminations.usecases import eliminations_record
from tourney.errors import Conflict
from tourney.models import Entry, Player
from tourney.services.entries import entry_register
from tourney.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def make_tournament(director, room, structure, table_numbers: list[int], **overrides):
    return tournament_create(
        actor=director,
        name="T",
        structure_id=structure.pk,
        starting_stack=40_000,
        buy_in=100,
        room_id=room.pk,
        house_rules="tda2024",
        table_numbers=table_numbers,
        rules_overrides=overrides,
    )


def register(director, tournament, n: int, start: int = 0) -> list[Entry]:
    return [
        entry_register(
            actor=director,
            tournament_id=tournament.pk,
            player_id=Player.objects.create(name=f"Player {i}", search_text=f"player {i}").pk,
        )
        for i in range(start, start + n)
    ]


def seated(tournament) -> list[tuple[int, int]]:
    return list(
        Entry.objects.filter(tournament=tournament, status="active").values_list(
            "tournament_table__number", "seat"
        )
    )


def _active_at(tournament, number: int, exclude: int | None = None) -> list[int]:
    entries = Entry.objects.filter(
        tournament=tournament, tournament_table__number=number, status="active"
    )
    return list(entries.exclude(pk=exclude).order_by("seat").values_list("pk", flat=True))


def _bust(director, tournament, entry_ids: list[int]) -> None:
    eliminations_record(
        actor=director,
        tournament_id=tournament.pk,
        eliminations=[(pk, None) for pk in entry_ids],
        rng=random.Random(0),
    )


def _moved_twice(director, room, structure):
    """Three 4-seat tables of four; two bust-outs at table 3 make the floor move a player
    there (pending: he still sits in his old seat). Then the rest of table 3 and one more
    player of the mover's table bust: table 3 breaks and its draw moves him again, before he
    ever got up. Returns (tournament, first move, second move)."""
    tournament = make_tournament(
        director,
        room,
        structure,
        table_numbers=[1, 2, 3],
        seats_per_table=4,
        single_table_seats=4,
        final_table_size=4,
        short_handed_final_table_size=4,
    )
    register(director, tournament, 12)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(0))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    _bust(director, tournament, _active_at(tournament, 3)[:2])
    first = FloorAction.objects.get(tournament=tournament, kind="move", status="pending")
    assert first.entry_id is not None and first.to_table == 3
    _bust(
        director,
        tournament,
        _active_at(tournament, 3, exclude=first.entry_id)
        + _active_at(tournament, first.from_table, exclude=first.entry_id)[:1],
    )
    second = FloorAction.objects.get(
        tournament=tournament, kind="move", status="pending", entry_id=first.entry_id
    )
    assert second.parent is not None and second.parent.kind == "break_table"
    assert FloorAction.objects.get(pk=first.pk).status == "superseded"
    return tournament, first, second


def test_the_hold_follows_a_mover_moved_again_before_he_left(director, room, structure):
    """A mover moved again while his first move is pending still sits in the seat he had
    before either move: that seat stays held (nobody is seated or promised there), the new
    move leads from it, and undoing it puts him back there."""
    tournament, first, second = _moved_twice(director, room, structure)
    sits = (first.from_table, first.from_seat)
    late = register(director, tournament, 1, start=100)[0]
    assert late.seat is None or (late.tournament_table.number, late.seat) != sits
    assert sits[1] in held_seats(tournament).get(sits[0], set())
    assert (second.from_table, second.from_seat) == sits
    other = Entry.objects.filter(tournament=tournament, status="active").exclude(pk=first.entry_id)[
        0
    ]
    with pytest.raises(Conflict) as exc:
        entry_seat_assign(
            actor=director,
            tournament_id=tournament.pk,
            entry_id=other.pk,
            table_number=sits[0],
            seat=sits[1],
        )
    assert exc.value.code == "seat_taken"
    places = seated(tournament)
    assert len(places) == len(set(places)) and sits not in places

    floor_action_undo(actor=director, tournament_id=tournament.pk, action_id=second.parent_id)
    mover = Entry.objects.get(pk=first.entry_id)
    assert (mover.tournament_table.number, mover.seat) == sits
