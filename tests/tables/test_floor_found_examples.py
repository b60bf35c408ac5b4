"""What the floor's state machine (test_floor_state_machine.py) found, kept as plain examples:
seats held for movers not named yet, breaks and the final table voiding unnamed moves, bust-outs
and their undo (docs/rules.md §3.4, §5, §6, §7, §11).
"""

import random

import pytest
from django.utils import timezone

from tables.hands.usecases import hand_finished_with_busts
from tables.models import FloorAction, TournamentTable
from tests.factories import register, seating_of, started_tournament
from tourney.eliminations.usecases import elimination_undo, eliminations_record
from tourney.models import Elimination, Entry, Tournament

pytestmark = pytest.mark.django_db

OPEN = TournamentTable.Status.OPEN
ACTIVE = Entry.Status.ACTIVE
PENDING = FloorAction.Status.PENDING


def hold_seat(tournament: Tournament, from_table: int, to_table: int, to_seat: int) -> FloorAction:
    """A pending move whose mover the floor has not named (the source's button is unknown):
    the seat at `to_table` is held for the player who is big blind next at `from_table`."""
    return FloorAction.objects.create(
        tournament=tournament,
        kind=FloorAction.Kind.MOVE,
        from_table=from_table,
        to_table=to_table,
        to_seat=to_seat,
        created_at=timezone.now(),
        payload={"sits_out": False, "wait_hands": None, "before": {}},
    )


def assert_seating_consistent(tournament: Tournament) -> None:
    """Nobody shares a seat, and a seat held for a mover not named yet is empty and in play."""
    seats = list(
        Entry.objects.filter(tournament=tournament, status=ACTIVE).values_list(
            "tournament_table__number", "tournament_table__status", "seat"
        )
    )
    assert all(status == OPEN for _n, status, _s in seats)
    taken = [(number, seat) for number, _status, seat in seats]
    assert len(taken) == len(set(taken))
    open_numbers = set(
        TournamentTable.objects.filter(tournament=tournament, status=OPEN).values_list(
            "number", flat=True
        )
    )
    for to_table, to_seat in FloorAction.objects.filter(
        tournament=tournament, kind=FloorAction.Kind.MOVE, status=PENDING, entry=None
    ).values_list("to_table", "to_seat"):
        assert to_table in open_numbers and (to_table, to_seat) not in taken


def test_a_late_entry_never_takes_a_seat_held_for_a_mover_not_named_yet(director, structure):
    """Rimóc, 18 players on two full tables of 9. One busts at T1 and the floor holds that
    seat for T2's next big blind: the only free seat in play. The late entry used to sit
    there, and the plan after it failed ('a reserved seat is occupied'): registration broke.
    Now it opens a table, which then breaks into that seat, the held move being void."""
    rng = random.Random(1)
    tournament = started_tournament(director, structure, 18, "rimoc", rng, tables=4)
    (seat, victim), *_ = seating_of(tournament)[1].items()
    eliminations_record(actor=director, tournament_id=tournament.pk, eliminations=[(victim, None)])
    hold_seat(tournament, from_table=2, to_table=1, to_seat=seat)
    late = register(director, tournament, rng)
    assert late.status == ACTIVE
    assert_seating_consistent(tournament)
    assert sorted(len(s) for s in seating_of(tournament).values()) == [9, 9]


def test_an_undone_bust_out_does_not_return_to_a_seat_held_for_a_mover(director, structure):
    """The same held seat was the busted player's own: undoing the bust-out used to put them
    back there and fail the same way."""
    rng = random.Random(2)
    tournament = started_tournament(director, structure, 18, "rimoc", rng, tables=4)
    (seat, victim), *_ = seating_of(tournament)[1].items()
    eliminations_record(actor=director, tournament_id=tournament.pk, eliminations=[(victim, None)])
    hold_seat(tournament, from_table=2, to_table=1, to_seat=seat)
    elimination_undo(actor=director, tournament_id=tournament.pk, entry_id=victim, rng=rng)
    assert Entry.objects.get(pk=victim).status == ACTIVE
    assert_seating_consistent(tournament)


def test_a_break_voids_the_moves_not_named_from_or_to_the_broken_table(director, structure):
    """Rimóc, 19 players on [7, 6, 6]; a seat at one 6-table is held for the other's next big
    blind. At 18 players two tables are wanted: the planner used to count the held seat, find
    the survivors one seat short and not break at all (three tables for 18 players), and a
    break of either table would leave the held move pointing at a closed table."""
    rng = random.Random(3)
    tournament = started_tournament(director, structure, 19, "rimoc", rng, tables=3)
    seating = seating_of(tournament)
    big = next(n for n, s in seating.items() if len(s) == 7)
    source, destination = sorted(n for n in seating if n != big)
    free = next(s for s in range(1, 10) if s not in seating[destination])
    held = hold_seat(tournament, from_table=source, to_table=destination, to_seat=free)
    victim = next(iter(seating[big].values()))
    eliminations_record(actor=director, tournament_id=tournament.pk, eliminations=[(victim, None)])
    held.refresh_from_db()
    assert held.status == FloorAction.Status.SUPERSEDED
    assert sorted(len(s) for s in seating_of(tournament).values()) == [9, 9]
    assert_seating_consistent(tournament)


def test_the_final_table_voids_the_moves_not_named(director, structure):
    """Rimóc, 11 players on two tables with a seat held for a mover: at 9 players everybody is
    redrawn to the final table and the held move is void (it pointed at a closed table)."""
    rng = random.Random(4)
    tournament = started_tournament(director, structure, 11, "rimoc", rng, tables=2)
    seating = seating_of(tournament)
    free = next(s for s in range(1, 10) if s not in seating[2])
    held = hold_seat(tournament, from_table=1, to_table=2, to_seat=free)
    victims = list(seating[1].values())[:2]
    eliminations_record(
        actor=director, tournament_id=tournament.pk, eliminations=[(v, None) for v in victims]
    )
    held.refresh_from_db()
    assert held.status == FloorAction.Status.SUPERSEDED
    assert [len(s) for s in seating_of(tournament).values()] == [9]
    assert_seating_consistent(tournament)


def test_a_late_entry_after_a_bust_out_keeps_places_distinct(director, structure):
    """12 players; one busts (12th). A late entry makes 13 entries, 12 playing: the first
    bust-out now finished 13th (it used to stay 12th and the next bust-out got 12th too,
    nobody 13th). The next bust-out is 12th."""
    rng = random.Random(5)
    tournament = started_tournament(director, structure, 12, "rimoc", rng, tables=2)
    first, second = list(seating_of(tournament)[1].values())[:2]
    eliminations_record(actor=director, tournament_id=tournament.pk, eliminations=[(first, None)])
    register(director, tournament, rng)
    # At once, not only when the next bust-out comes: results and payouts read these.
    assert Entry.objects.get(pk=first).place == 13
    assert Elimination.objects.values_list("place", "place_to").get(entry_id=first) == (13, 13)
    eliminations_record(actor=director, tournament_id=tournament.pk, eliminations=[(second, None)])
    places = dict(Entry.objects.filter(pk__in=[first, second]).values_list("pk", "place"))
    assert places == {first: 13, second: 12}
    # Undoing the first bust-out: 13 entries, 12 playing, the second bust-out is 13th.
    elimination_undo(actor=director, tournament_id=tournament.pk, entry_id=first, rng=rng)
    assert Entry.objects.get(pk=second).place == 13


def test_the_last_bust_out_is_recorded_with_the_hand_finished(director, structure):
    """Heads-up at the final table, the dealer's "Bust-out and hand finished": the bust-out
    ends the tournament and no hand follows."""
    rng = random.Random(6)
    tournament = started_tournament(director, structure, 12, "rimoc", rng, tables=2)
    for _ in range(10):
        seating = seating_of(tournament)
        victim = next(iter(next(iter(seating.values())).values()))
        eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(victim, None)]
        )
    ((number, heads_up),) = seating_of(tournament).items()
    hand_finished_with_busts(
        actor=director,
        tournament_id=tournament.pk,
        table_number=number,
        eliminations=[(next(iter(heads_up.values())), None)],
    )
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_a_bust_out_at_a_table_without_a_button_is_recorded_with_the_hand(director, structure):
    """Rimóc, 18 players on two full tables; two late entries open T3, which draws for its
    button once balancing seats players there (docs/rules.md §3.7). A bust-out there with
    "hand finished" stands."""
    rng = random.Random(7)
    tournament = started_tournament(director, structure, 18, "rimoc", rng, tables=3)
    register(director, tournament, rng)
    register(director, tournament, rng)
    seating = seating_of(tournament)
    assert TournamentTable.objects.get(tournament=tournament, number=3).button_seat is not None
    victim = next(iter(seating[3].values()))
    hand_finished_with_busts(
        actor=director, tournament_id=tournament.pk, table_number=3, eliminations=[(victim, None)]
    )
    assert Entry.objects.get(pk=victim).status == Entry.Status.ELIMINATED


def test_undoing_a_bust_out_does_not_move_a_player_back_into_a_held_seat(director, structure):
    """Rimóc, 16 players on [8, 8]; the third bust-out at one table moves the other's next big
    blind over. Then the seat that player left is held for a mover not named yet. Undoing the
    bust-out used to take the move back into that held seat and fail the next plan; the move
    now stays (play has moved on), and the seating holds together."""
    rng = random.Random(8)
    tournament = started_tournament(director, structure, 16, "rimoc", rng, tables=2)
    seating = seating_of(tournament)
    small = min(seating)
    victims = list(seating[small].values())[:3]
    for victim in victims:
        result = eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(victim, None)]
        )
    (move,) = result["actions"]
    hold_seat(tournament, from_table=small, to_table=move["from_table"], to_seat=move["from_seat"])
    elimination_undo(actor=director, tournament_id=tournament.pk, entry_id=victims[2], rng=rng)
    assert FloorAction.objects.get(pk=move["id"]).status != FloorAction.Status.UNDONE
    assert_seating_consistent(tournament)


def test_undoing_a_bust_out_never_moves_a_player_back_to_a_broken_table(director, structure):
    """TDA 2024, 27 players on three tables of 9; bust-outs at T1 and T2 by turns. The third
    one moves T3's next big blind to T1; at 18 players T3 breaks. Undoing that third bust-out
    used to take the move back: the player went to their old seat at broken T3."""
    rng = random.Random(9)
    tournament = started_tournament(director, structure, 27, "tda2024", rng, tables=4)
    move = None
    active = 27
    while active > 18:
        seating = seating_of(tournament)
        table = 1 if active % 2 else 2
        mover = move["entry_id"] if move else None
        victim = next(e for e in seating[table].values() if e != mover)
        result = eliminations_record(
            actor=director, tournament_id=tournament.pk, eliminations=[(victim, None)], rng=rng
        )
        active -= 1
        if move is None and result["actions"]:
            (move,) = result["actions"]
            cause = victim
    assert (move["kind"], move["from_table"]) == ("move", 3)
    assert FloorAction.objects.get(pk=move["id"]).status == PENDING
    assert TournamentTable.objects.get(tournament=tournament, number=3).status == "closed"
    elimination_undo(actor=director, tournament_id=tournament.pk, entry_id=cause, rng=rng)
    assert_seating_consistent(tournament)
