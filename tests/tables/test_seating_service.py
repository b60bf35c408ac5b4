"""The seat draw and late seating through the services, against the database."""

import random

import pytest
from django.db import IntegrityError, transaction

from tables.draw.operations import _sent_together
from tables.models import TournamentTable
from tables.rooms.usecases import seat_restriction_set
from tables.seating.operations import update_rows
from tables.seating.selectors import tournament_tables_layout
from tables.seating.usecases import seats_draw
from tests.factories import entries_register, seats_taken, tda_tournament
from tourney.core.errors import Conflict
from tourney.models import Entry
from tourney.registration.usecases import entry_unregister

pytestmark = pytest.mark.django_db


def test_blocked_and_reserved_seats_are_never_drawn(director, room, structure):
    seat_restriction_set(actor=director, room_id=room.pk, table_number=1, seat=3, kind="blocked")
    seat_restriction_set(actor=director, room_id=room.pk, table_number=2, seat=7, kind="reserved")
    tournament = tda_tournament(director, room, structure)
    entries_register(director, tournament, 17)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(7))
    places = seats_taken(tournament)
    assert (1, 3) not in places and (2, 7) not in places
    assert len(set(places)) == 17


def test_the_draw_returns_the_seating_chart_it_wrote(director, room, structure):
    """The chart is built from the draw's own result, not read back: it must be the one the
    selector reads (restrictions within the seats in play only, names, buttons, card labels)."""
    seat_restriction_set(actor=director, room_id=room.pk, table_number=1, seat=3, kind="blocked")
    seat_restriction_set(actor=director, room_id=room.pk, table_number=2, seat=7, kind="reserved")
    seat_restriction_set(actor=director, room_id=room.pk, table_number=2, seat=10, kind="blocked")
    tournament = tda_tournament(director, room, structure, seats_per_table=9)
    entries_register(director, tournament, 25)
    layout = seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(3))
    assert layout == tournament_tables_layout(tournament)
    assert [t["seats"] for t in layout] == [9, 9, 9]
    assert layout[1]["restricted_seats"] == {"7": "reserved"}
    assert sum(len(t["players"]) for t in layout) == 25


def test_the_chart_of_a_single_table_draw_shows_restrictions_past_the_usual_seats(
    director, room, structure
):
    seat_restriction_set(actor=director, room_id=room.pk, table_number=1, seat=10, kind="reserved")
    tournament = tda_tournament(director, room, structure, seats_per_table=9, single_table_seats=10)
    entries_register(director, tournament, 8)
    layout = seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(5))
    assert layout == tournament_tables_layout(tournament)
    assert layout[0]["seats"] == 10 and layout[0]["restricted_seats"] == {"10": "reserved"}


def test_a_failed_write_sent_with_the_draws_is_a_database_error_in_its_transaction(
    director, room, structure
):
    """The draw's writes are sent without waiting for answers (PostgreSQL's pipeline): an error
    among them still raises Django's error and rolls the transaction back."""
    tournament = tda_tournament(director, room, structure)
    first, second = entries_register(director, tournament, 2)
    table = TournamentTable.objects.filter(tournament=tournament).first()
    with pytest.raises(IntegrityError), transaction.atomic(), _sent_together():
        update_rows(Entry, ["tournament_table", "seat"], [(first.pk, table.pk, 1)])
        update_rows(Entry, ["tournament_table", "seat"], [(second.pk, table.pk, 1)])
    assert seats_taken(tournament) == [(None, None), (None, None)]
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(1))
    assert len(set(seats_taken(tournament))) == 2


def test_rimoc_thresholds_give_three_tables_for_nineteen(director, room, structure):
    tournament = tda_tournament(director, room, structure, house_rules="rimoc")
    entries_register(director, tournament, 19)
    seats_draw(actor=director, tournament_id=tournament.pk)
    counts = sorted(
        Entry.objects.filter(tournament=tournament)
        .order_by()
        .values_list("tournament_table__number", flat=True)
        .distinct()
    )
    assert counts == [1, 2, 3]


def test_ten_players_sit_at_one_ten_seat_table(director, room, structure):
    tournament = tda_tournament(director, room, structure)
    entries_register(director, tournament, 10)
    seats_draw(actor=director, tournament_id=tournament.pk)
    assert {t for t, _ in seats_taken(tournament)} == {1}
    assert TournamentTable.objects.get(tournament=tournament, number=1).seats == 10


def test_a_new_table_opens_in_order_when_every_seat_is_taken(director, room, structure):
    tournament = tda_tournament(director, room, structure, table_numbers=[4, 2, 6])
    entries_register(director, tournament, 18)
    seats_draw(actor=director, tournament_id=tournament.pk)
    assert {t for t, _ in seats_taken(tournament)} == {4, 2}
    late = entries_register(director, tournament, 1, start=100)[0]
    assert late.tournament_table.number == 6
    assert TournamentTable.objects.get(tournament=tournament, number=6).status == "open"


def test_draw_needs_two_players(director, room, structure):
    tournament = tda_tournament(director, room, structure)
    entries_register(director, tournament, 1)
    with pytest.raises(Conflict) as exc:
        seats_draw(actor=director, tournament_id=tournament.pk)
    assert exc.value.code == "not_enough_players"


def test_unregistering_after_the_draw_frees_the_seat_for_the_waiting_list(
    director, room, structure
):
    tournament = tda_tournament(director, room, structure, table_numbers=[1], seats_per_table=4)
    entries = entries_register(director, tournament, 5)
    assert entries[-1].status == "waiting"
    seats_draw(actor=director, tournament_id=tournament.pk)
    freed = Entry.objects.get(pk=entries[0].pk)
    entry_unregister(actor=director, tournament_id=tournament.pk, entry_id=freed.pk)
    promoted = Entry.objects.get(pk=entries[-1].pk)
    assert promoted.status == "active" and promoted.seat is not None
    assert len(set(seats_taken(tournament))) == 4


def test_late_seat_is_never_between_button_and_small_blind(director, room, structure):
    from tables.domain.button import seats_not_dealt
    from tables.seating.selectors import table_blinds

    for seed in range(6):
        tournament = tda_tournament(director, room, structure, table_numbers=[1], seats_per_table=9)
        entries_register(director, tournament, 4, start=seed * 100)
        seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(seed))
        table = TournamentTable.objects.get(tournament=tournament, number=1)
        dead = seats_not_dealt(table_blinds(table), table.seats)
        free = set(range(1, 10)) - {seat for _, seat in seats_taken(tournament)}
        late = entries_register(director, tournament, 1, start=seed * 100 + 50)[0]
        if free - dead:
            assert late.seat not in dead and not late.waits_for_button


def test_capacity_counts_only_restricted_seats_in_play(director, room, structure):
    from tourney.tournaments.selectors import tournament_capacity

    tournament = tda_tournament(director, room, structure, table_numbers=[1, 2])
    assert tournament_capacity(tournament) == 18  # 9-handed on two ten-seat tables
    seat_restriction_set(actor=director, room_id=room.pk, table_number=1, seat=10, kind="blocked")
    assert tournament_capacity(tournament) == 18  # seat 10 is not played
    seat_restriction_set(actor=director, room_id=room.pk, table_number=2, seat=4, kind="reserved")
    assert tournament_capacity(tournament) == 17


def test_a_late_seat_reads_as_many_statements_whatever_the_number_of_tables(
    director, room, structure
):
    """The late seat reads its open tables once (a field read per table cost a statement each:
    150 more for a late registration in a 150-table room, docs/benchmarks.md)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    # 4 players on 2 tables, 11 on 4 (three seats each): a free seat for the late one at both
    for k, (numbers, players) in enumerate((([1, 2], 4), ([1, 2, 3, 4, 5, 6], 11))):
        tournament = tda_tournament(
            director, room, structure, table_numbers=numbers, seats_per_table=3
        )
        entries_register(director, tournament, players, start=k * 100)
        seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(k))
        with CaptureQueriesContext(connection) as queries:
            late = entries_register(director, tournament, 1, start=k * 100 + 50)[0]
        assert late.seat is not None
        counts.append(len(queries))
    assert counts[0] == counts[1]


def _pending_move_out_of_table_two(director, room, structure):
    """Two 3-seat tables of three players; two bust-outs at table 1 make the floor move a
    player of table 2 there. The move is pending: the chart shows him at table 1 at once,
    but he still sits at table 2 (docs/rules.md §3.4). Returns (tournament, move)."""
    from tests.factories import pending_move_into_table_one

    tournament, move = pending_move_into_table_one(director, room, structure)
    assert move.from_table == 2
    return tournament, move


def test_a_seat_a_pending_move_leaves_is_given_to_nobody_else(director, room, structure):
    """The mover's old seat looks empty on the chart but he still sits in it: a late entry
    gets the seat that is really free, the floor may not give his seat by hand, and the next
    late entry, with no seat free, takes the seat the move promised: the move is called off
    and the mover stays where he sits. Nobody is told a seat another player is told."""
    from tables.models import FloorAction
    from tables.seating.usecases import entry_seat_assign

    tournament, move = _pending_move_out_of_table_two(director, room, structure)
    left, promised = (move.from_table, move.from_seat), (move.to_table, move.to_seat)
    assert left not in seats_taken(tournament)  # the chart already shows him at table 1

    first = entries_register(director, tournament, 1, start=100)[0]
    assert first.status == "active"
    assert (first.tournament_table.number, first.seat) not in (left, promised)
    with pytest.raises(Conflict) as exc:
        entry_seat_assign(
            actor=director,
            tournament_id=tournament.pk,
            entry_id=first.pk,
            table_number=left[0],
            seat=left[1],
        )
    assert exc.value.code == "seat_taken"

    second = entries_register(director, tournament, 1, start=101)[0]
    assert second.status == "active"
    assert (second.tournament_table.number, second.seat) == promised
    assert FloorAction.objects.get(pk=move.pk).status == "superseded"
    mover = Entry.objects.get(pk=move.entry_id)
    assert (mover.tournament_table.number, mover.seat) == left
    places = seats_taken(tournament)
    assert len(places) == 6 and len(set(places)) == 6
    assert not FloorAction.objects.filter(tournament=tournament, status="pending").exists()


def test_the_mover_can_be_sent_back_and_his_seat_is_free_once_he_has_moved(
    director, room, structure
):
    """Undoing the pending move puts the mover back in the seat nobody was given; once the
    floor confirms a move, the seat he left is free for anybody."""
    from tables.floor.usecases import floor_action_done, floor_action_undo
    from tables.models import FloorAction
    from tables.seating.usecases import entry_seat_assign

    tournament, move = _pending_move_out_of_table_two(director, room, structure)
    left = (move.from_table, move.from_seat)
    late = entries_register(director, tournament, 1, start=100)[0]
    floor_action_undo(actor=director, tournament_id=tournament.pk, action_id=move.pk)
    mover = Entry.objects.get(pk=move.entry_id)
    assert (mover.tournament_table.number, mover.seat) == left

    tournament, move = _pending_move_out_of_table_two(director, room, structure)
    left = (move.from_table, move.from_seat)
    late = entries_register(director, tournament, 1, start=200)[0]
    floor_action_done(actor=director, tournament_id=tournament.pk, action_id=move.pk)
    assert FloorAction.objects.get(pk=move.pk).status == "done"
    moved = entry_seat_assign(
        actor=director,
        tournament_id=tournament.pk,
        entry_id=late.pk,
        table_number=left[0],
        seat=left[1],
    )
    assert (moved.tournament_table.number, moved.seat) == left


def test_the_waiting_list_takes_the_seat_a_confirmed_redraw_frees(director, room, structure):
    """A final-table redraw of three to a table of four: the player in seat 4 is drawn to
    seat 2 but still sits in seat 4 until the floor confirms. A redraw is not called off, so
    a late entry, with the seat count not full, waits; the floor's confirmation seats him in
    the seat the mover left (docs/rules.md §3.4), as a bust-out's freed seat would (§2.1)."""
    from clocks.clock.usecases import clock_operate
    from tables.floor.usecases import floor_action_done
    from tables.models import FloorAction
    from tourney.eliminations.usecases import eliminations_record

    tournament = tda_tournament(
        director,
        room,
        structure,
        table_numbers=[1, 2],
        seats_per_table=4,
        single_table_seats=4,
        final_table_size=4,
        short_handed_final_table_size=4,
    )
    entries_register(director, tournament, 8)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(0))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    ids = list(
        Entry.objects.filter(tournament=tournament)
        .order_by("tournament_table__number", "seat")
        .values_list("pk", flat=True)
    )
    result = eliminations_record(
        actor=director,
        tournament_id=tournament.pk,
        eliminations=[(ids[i], None) for i in (0, 1, 2, 4, 5)],
        rng=random.Random(0),
    )
    assert [a["kind"] for a in result["actions"]] == ["final_table_redraw"]
    redraw = result["actions"][0]["id"]
    left = {
        (m.from_table, m.from_seat)
        for m in FloorAction.objects.filter(parent_id=redraw, from_table=1)
    } - set(seats_taken(tournament))
    assert left == {(1, 4)} and sorted(seats_taken(tournament)) == [(1, 1), (1, 2), (1, 3)]

    late = entries_register(director, tournament, 1, start=100)[0]
    assert late.status == "waiting"

    floor_action_done(actor=director, tournament_id=tournament.pk, action_id=redraw)
    late.refresh_from_db()
    assert late.status == "active"
    assert (late.tournament_table.number, late.seat) == (1, 4)
