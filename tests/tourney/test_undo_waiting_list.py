"""Undoing the bust-out that seated an alternate (docs/rules.md §2.1, §11.7), through the use
cases: the busted player takes his seat back, and the alternate, who has been playing, sits
down again at once in a seat that is free (the late seat pool, TDA 8-A) instead of going back
to the waiting list; only with no seat free does he wait, at the head of the list. The same for
a busted player's rebuy and a disqualification's undo, which take the bust-out back too."""

import random

import pytest

from clocks.clock.usecases import clock_operate
from tables.seating.usecases import seats_draw
from tests.factories import entries_register, tda_tournament
from tourney.domain.purchases import MoneySettings
from tourney.eliminations.usecases import elimination_undo, eliminations_record
from tourney.models import AuditEntry, Entry, Player, TournamentEvent
from tourney.penalties.usecases import penalty_give, penalty_undo
from tourney.purchases.usecases import entry_rebuy
from tourney.registration.usecases import entry_register

pytestmark = pytest.mark.django_db

SEATS = 3


def full_room(director, room, structure, waiting: int):
    """Two 3-handed tables, full and running (rebuys open for busted players), and `waiting`
    alternates on the list. Returns (tournament, playing entries, alternates)."""
    tournament = tda_tournament(
        director,
        room,
        structure,
        table_numbers=[1, 2],
        money=MoneySettings(
            rebuy_until_level=4, rebuy_condition="busted", rebuy_buy_in=100, rebuy_chips=40_000
        ),
        seats_per_table=SEATS,
        single_table_seats=SEATS,
        final_table_size=SEATS,
        short_handed_final_table_size=SEATS,
    )
    players = entries_register(director, tournament, 2 * SEATS)
    seats_draw(actor=director, tournament_id=tournament.pk, rng=random.Random(5))
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    alternates = entries_register(director, tournament, waiting, start=100)
    assert [e.status for e in alternates] == ["waiting"] * waiting
    return tournament, players, alternates


def bust(director, tournament, entry: Entry) -> None:
    eliminations_record(
        actor=director,
        tournament_id=tournament.pk,
        eliminations=[(entry.pk, None)],
        rng=random.Random(1),
    )


def where(entry: Entry) -> tuple[str, int | None, int | None]:
    entry.refresh_from_db()
    number = entry.tournament_table.number if entry.tournament_table_id else None
    return entry.status, number, entry.seat


def night(director, room, structure):
    """The production steps: a bust-out seats the alternate; a bust-out at the other table
    frees a seat there. Returns (tournament, first busted, his seat, second busted's seat,
    alternate)."""
    tournament, players, (alternate,) = full_room(director, room, structure, waiting=1)
    first = players[0]
    _s, *first_seat = where(first)
    bust(director, tournament, first)
    assert where(alternate) == ("active", *first_seat)  # the first alternate takes the seat
    second = next(
        p for p in players[1:] if where(p)[1] != first_seat[0]
    )  # a player at the other table
    _s, *second_seat = where(second)
    bust(director, tournament, second)
    assert where(second)[0] == "eliminated"
    return tournament, first, tuple(first_seat), tuple(second_seat), alternate


def assert_reseated(tournament, first, first_seat, second_seat, alternate) -> None:
    assert where(first) == ("active", *first_seat)  # his own seat back
    # The alternate plays on, in the seat the second bust-out left free: not on the list.
    assert where(alternate) == ("active", *second_seat)
    assert not Entry.objects.filter(tournament=tournament, status="waiting").exists()
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 2 * SEATS
    # Audited step by step: back on the list as the seat was not free, seated again.
    actions = list(
        AuditEntry.objects.filter(target_id=alternate.pk, action__startswith="entry.promote")
        .order_by("pk")
        .values_list("action", flat=True)
    )
    assert actions == ["entry.promote", "entry.promote_undo", "entry.promote"]
    # Every screen is told where he sits now (the last event about him).
    last = (
        TournamentEvent.objects.filter(
            tournament=tournament, kind="entry", payload__id=alternate.pk
        )
        .order_by("version")
        .last()
    )
    assert last.payload["action"] == "promote"
    assert (last.payload["status"], last.payload["table"], last.payload["seat"]) == (
        "active",
        *second_seat,
    )


def test_undoing_the_first_bust_out_seats_its_alternate_again_in_the_free_seat(
    director, room, structure
):
    tournament, first, first_seat, second_seat, alternate = night(director, room, structure)
    elimination_undo(
        actor=director, tournament_id=tournament.pk, entry_id=first.pk, rng=random.Random(2)
    )
    assert_reseated(tournament, first, first_seat, second_seat, alternate)


def test_a_rebuy_of_the_first_busted_player_seats_the_alternate_again(director, room, structure):
    tournament, first, first_seat, second_seat, alternate = night(director, room, structure)
    entry_rebuy(actor=director, tournament_id=tournament.pk, entry_id=first.pk)
    assert_reseated(tournament, first, first_seat, second_seat, alternate)


def test_a_disqualification_undone_seats_the_alternate_again(director, room, structure):
    tournament, players, (alternate,) = full_room(director, room, structure, waiting=1)
    first = players[0]
    _s, *first_seat = where(first)
    penalty = penalty_give(
        actor=director,
        tournament_id=tournament.pk,
        entry_id=first.pk,
        kind="disqualification",
        reason="Abuse",
        chips=40_000,
    )
    assert where(alternate) == ("active", *first_seat)
    second = next(p for p in players[1:] if where(p)[1] != first_seat[0])
    _s, *second_seat = where(second)
    bust(director, tournament, second)
    penalty_undo(actor=director, tournament_id=tournament.pk, penalty_id=penalty["penalty"]["id"])
    assert_reseated(tournament, first, tuple(first_seat), tuple(second_seat), alternate)


def test_with_no_seat_free_the_alternate_waits_at_the_head_of_the_list(director, room, structure):
    tournament, players, (w0, w1) = full_room(director, room, structure, waiting=2)
    first = players[0]
    _s, *first_seat = where(first)
    bust(director, tournament, first)
    assert where(w0) == ("active", *first_seat)
    second = next(p for p in players[1:] if where(p)[1] != first_seat[0])
    bust(director, tournament, second)  # W1 takes that seat: the room is full again
    assert where(w1)[0] == "active"
    late = entry_register(
        actor=director,
        tournament_id=tournament.pk,
        player_id=Player.objects.create(name="Late", search_text="late").pk,
    )
    assert late.status == "waiting"
    elimination_undo(
        actor=director, tournament_id=tournament.pk, entry_id=first.pk, rng=random.Random(2)
    )
    assert where(first) == ("active", *first_seat)
    assert where(w0) == ("waiting", None, None)
    # At the head of the list, ahead of the later registration: the next free seat is his.
    bust(director, tournament, players[-1] if players[-1].pk != second.pk else players[-2])
    assert where(w0)[0] == "active" and where(late)[0] == "waiting"


def test_undoing_the_second_bust_out_then_gives_its_seat_back(director, room, structure):
    """The alternate seated again sits in the second bust-out's seat: its undo gives it back
    to its player, and with the room full the alternate waits, at the head of the list."""
    tournament, first, first_seat, second_seat, alternate = night(director, room, structure)
    elimination_undo(
        actor=director, tournament_id=tournament.pk, entry_id=first.pk, rng=random.Random(2)
    )
    second = Entry.objects.get(
        tournament=tournament, status="eliminated", tournament_table__number=second_seat[0]
    )
    elimination_undo(
        actor=director, tournament_id=tournament.pk, entry_id=second.pk, rng=random.Random(2)
    )
    assert where(second) == ("active", *second_seat)
    assert where(first) == ("active", *first_seat)
    assert where(alternate) == ("waiting", None, None)
