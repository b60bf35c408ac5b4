"""A pending move holds the seat its mover has not left (docs/rules.md §3.4), whatever moves
follow it, and calling a move off never leaves a seat told to two people: use cases against
the database."""

import random

import pytest
from django.db import transaction
from django.utils import timezone

from clocks.clock.usecases import clock_operate
from tables.floor.usecases import floor_action_done, floor_action_undo
from tables.models import FloorAction
from tables.seating.operations import held_seats, move_call_off
from tables.seating.usecases import entry_seat_assign, seats_draw
from tests.factories import (
    entries_register,
    pending_move_into_table_one,
    seats_taken,
    short_tables_tournament,
)
from tourney.core.errors import Conflict
from tourney.core.locks import tournament_lock
from tourney.eliminations.usecases import eliminations_record
from tourney.models import AuditEntry, Entry, TournamentEvent

pytestmark = pytest.mark.django_db


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


def _void_summary(move: FloorAction) -> str:
    """The activity log's line of a pending move void (floor.void: one per move, it names the
    player and the move's tables and seats)."""
    (void,) = AuditEntry.objects.filter(action="floor.void", target_id=move.pk)
    assert (void.before["status"], void.after["status"]) == ("pending", "superseded")
    assert void.summary_params == {
        "name": Entry.objects.get(pk=move.entry_id).player.name,
        "from": move.from_table,
        "from_seat": move.from_seat,
        "to": move.to_table,
        "to_seat": move.to_seat,
    }
    return void.summary


def _moved_twice(director, room, structure):
    """Three 4-seat tables of four; two bust-outs at table 3 make the floor move a player
    there (pending: he still sits in his old seat). Then the rest of table 3 and one more
    player of the mover's table bust: table 3 breaks and its draw moves him again, before he
    ever got up. Returns (tournament, first move, second move)."""
    tournament = short_tables_tournament(director, room, structure, [1, 2, 3], 4)
    entries_register(director, tournament, 12)
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
    assert _void_summary(first).endswith("; moved again before it was confirmed")
    return tournament, first, second


def test_the_hold_follows_a_mover_moved_again_before_he_left(director, room, structure):
    """A mover moved again while his first move is pending still sits in the seat he had
    before either move: that seat stays held (nobody is seated or promised there), the new
    move leads from it, and undoing it puts him back there."""
    tournament, first, second = _moved_twice(director, room, structure)
    sits = (first.from_table, first.from_seat)
    late = entries_register(director, tournament, 1, start=100)[0]
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
    places = seats_taken(tournament)
    assert len(places) == len(set(places)) and sits not in places

    floor_action_undo(actor=director, tournament_id=tournament.pk, action_id=second.parent_id)
    mover = Entry.objects.get(pk=first.entry_id)
    assert (mover.tournament_table.number, mover.seat) == sits


def test_a_break_whose_only_mover_busts_before_moving_is_void_and_audited(
    director, room, structure
):
    """Table 3's break moves one player, whose first move is still pending; he busts where
    he sits before the floor confirmed either: his move is void, and so is the break, which
    has nothing left to confirm; each has its floor.void entry (docs/rules.md §3.4)."""
    tournament, _first, second = _moved_twice(director, room, structure)
    assert list(second.parent.children.values_list("pk", flat=True)) == [second.pk]
    _bust(director, tournament, [second.entry_id])
    assert FloorAction.objects.get(pk=second.pk).status == "superseded"
    assert FloorAction.objects.get(pk=second.parent_id).status == "superseded"
    assert "went out at table" in _void_summary(second)
    (broken,) = AuditEntry.objects.filter(action="floor.void", target_id=second.parent_id)
    assert broken.summary == (
        f"Break of table {second.parent.from_table} void: none of its moves is left to confirm"
    )


def _state(tournament) -> tuple:
    """What a refused call-off must leave as it was."""
    return (
        sorted(seats_taken(tournament)),
        sorted(FloorAction.objects.filter(tournament=tournament).values_list("pk", "status")),
        AuditEntry.objects.filter(tournament=tournament).count(),
        TournamentEvent.objects.filter(tournament=tournament).count(),
    )


def test_a_confirmed_move_is_never_called_off(director, room, structure):
    """Once the floor has confirmed a move the player has moved (TDA): a call-off that comes
    after it (a registration racing the confirmation) is refused, 409 move_confirmed, and
    nothing changes; the newcomer gets the seat the mover left."""
    tournament, move = pending_move_into_table_one(director, room, structure)
    floor_action_done(actor=director, tournament_id=tournament.pk, action_id=move.pk)
    newcomer = entries_register(director, tournament, 1, start=100)[0]
    assert newcomer.seat is not None
    assert FloorAction.objects.get(pk=move.pk).status == "done"
    before = _state(tournament)
    with pytest.raises(Conflict) as exc, transaction.atomic():
        move_call_off(tournament_lock(tournament.pk), move.pk, newcomer)
    assert exc.value.code == "move_confirmed" and exc.value.status_code == 409
    assert exc.value.detail
    assert _state(tournament) == before


def test_a_move_called_off_cannot_be_confirmed_after(director, room, structure, api):
    """The other order of the race: a newcomer took the seat of a pending move (called off,
    its mover stays); the floor's confirmation that comes after is refused, 409 with a code
    and a detail, and nothing changes."""
    tournament, move = pending_move_into_table_one(director, room, structure, (1, 2, 3))
    entries_register(director, tournament, 2, start=100)  # the free seat, then the move's seat
    assert FloorAction.objects.get(pk=move.pk).status == "superseded"
    before = _state(tournament)
    response = api.post(f"/tournaments/{tournament.pk}/actions/{move.pk}/done")
    assert response.status_code == 409
    assert response.json()["code"] == "action_not_pending" and response.json()["detail"]
    assert _state(tournament) == before


def test_a_move_whose_mover_has_another_seat_is_not_called_off(director, room, structure):
    """A pending move whose mover the chart no longer shows in the seat it gave him, or
    whose old seat somebody sits in, is not called off for a newcomer: that would tell one
    seat to two people or leave the mover none. The newcomer is not seated there; a direct
    call-off is refused (409 mover_moved_on) with nothing changed."""
    tournament, move = pending_move_into_table_one(director, room, structure)
    # The mover was given another free seat of table 1 by hand while the move is pending.
    taken = {s for n, s in seats_taken(tournament) if n == 1}
    other_seat = min({1, 2, 3} - taken)
    Entry.objects.filter(pk=move.entry_id).update(seat=other_seat)
    newcomer = entries_register(director, tournament, 1, start=100)[0]
    assert FloorAction.objects.get(pk=move.pk).status == "pending"
    assert newcomer.seat is None or (newcomer.tournament_table.number, newcomer.seat) != (
        move.from_table,
        move.from_seat,
    )
    before = _state(tournament)
    with pytest.raises(Conflict) as exc, transaction.atomic():
        move_call_off(tournament_lock(tournament.pk), move.pk, newcomer)
    assert exc.value.code == "mover_moved_on"
    assert _state(tournament) == before


def test_a_break_held_up_by_pending_moves_audits_each_call_off(director, room, structure):
    """Three 3-seat tables: a move into table 1 is pending when table 1's last other player
    busts. Table 1 must break, but its mover's seat at his old table is held by himself: the
    move is called off (he stays where he sits) and the floor plans again. The call-off is
    audited (floor.call_off, a summary in the staff's language) and announced."""
    tournament, move = pending_move_into_table_one(director, room, structure, (1, 2, 3))
    events = TournamentEvent.objects.filter(tournament=tournament).order_by("version")
    last = events.last().version
    _bust(director, tournament, _active_at(tournament, 1, exclude=move.entry_id))
    assert FloorAction.objects.get(pk=move.pk).status == "superseded"
    mover = Entry.objects.get(pk=move.entry_id)
    assert (mover.tournament_table.number, mover.seat) == (move.from_table, move.from_seat)
    audit = AuditEntry.objects.get(action="floor.call_off", target_id=move.pk)
    assert audit.after["status"] == "superseded" and audit.before["status"] == "pending"
    assert "break" in str(audit.summary)
    called = [
        e.payload
        for e in events.filter(version__gt=last, kind="actions")
        if e.payload.get("reason") == "called_off"
    ]
    assert [row["id"] for row in called[0]["actions"]] == [move.pk]
    places = seats_taken(tournament)
    assert len(places) == len(set(places))


def test_a_pending_mover_the_floor_moves_elsewhere_leaves_from_the_seat_he_sat_in(
    director, room, structure
):
    """A move is pending into table 1 when the floor, confirming another move out of table 1
    (its mover not named), says the first mover went instead: he walked from the seat he
    still sat in, so his first move is void and the confirmed one leads from that seat, and
    undoing it puts him back there."""
    tournament, move = pending_move_into_table_one(director, room, structure, (1, 2, 3), 4)
    sits = (move.from_table, move.from_seat)
    third = next(n for n in (2, 3) if n != move.from_table)
    _bust(director, tournament, _active_at(tournament, third)[:1])
    assert not FloorAction.objects.filter(tournament=tournament, status="pending").exclude(
        pk=move.pk
    )
    free = ({1, 2, 3, 4} - {s for n, s in seats_taken(tournament) if n == third}).pop()
    out = FloorAction.objects.create(
        tournament=tournament,
        kind="move",
        from_table=1,
        to_table=third,
        to_seat=free,
        created_at=timezone.now(),
        payload={"sits_out": False, "wait_hands": None, "before": {}, "arrived_at_hand": 0},
    )
    floor_action_done(
        actor=director, tournament_id=tournament.pk, action_id=out.pk, entry_id=move.entry_id
    )
    out.refresh_from_db()
    assert FloorAction.objects.get(pk=move.pk).status == "superseded"
    assert _void_summary(move).endswith("; moved again before it was confirmed")
    assert (out.from_table, out.from_seat) == sits
    assert sits[1] not in held_seats(tournament).get(sits[0], set())
    floor_action_undo(actor=director, tournament_id=tournament.pk, action_id=out.pk)
    mover = Entry.objects.get(pk=move.entry_id)
    assert (mover.tournament_table.number, mover.seat) == sits


def test_a_pending_mover_seated_by_hand_has_left_his_seat(director, room, structure):
    """The floor seats a pending mover by hand (in another free seat, or back in the one he
    has not left): that is where he is now, so his pending move is void (audited with the
    assignment, announced) and holds nothing; it can no longer be confirmed or called off."""
    tournament, move = pending_move_into_table_one(director, room, structure, (1, 2, 3))
    sits = (move.from_table, move.from_seat)
    entry_seat_assign(
        actor=director,
        tournament_id=tournament.pk,
        entry_id=move.entry_id,
        table_number=sits[0],
        seat=sits[1],
    )
    assert FloorAction.objects.get(pk=move.pk).status == "superseded"
    assert held_seats(tournament) == {}
    audit = AuditEntry.objects.filter(action="seating.assign").latest("pk")
    assert audit.after["moves_void"] == [move.pk]
    assert _void_summary(move).endswith("; seated by hand instead")
    places = seats_taken(tournament)
    assert len(places) == len(set(places)) and sits in places


def test_an_undo_never_charts_a_player_in_a_seat_a_pending_mover_still_sits_in(
    director, room, structure
):
    """A confirmed move frees the seat its mover left; a newcomer sits there, and the floor
    moves him on (pending: he has not got up, his move holds that seat). Undoing the first move
    now would chart its mover back in the seat the newcomer still sits in: refused (409
    undo_stale), nothing changed."""
    tournament, move = pending_move_into_table_one(director, room, structure)
    left = (move.from_table, move.from_seat)
    floor_action_done(actor=director, tournament_id=tournament.pk, action_id=move.pk)
    newcomer = entries_register(director, tournament, 1, start=100)[0]
    if (newcomer.tournament_table.number, newcomer.seat) != left:
        entry_seat_assign(
            actor=director,
            tournament_id=tournament.pk,
            entry_id=newcomer.pk,
            table_number=left[0],
            seat=left[1],
        )
    _bust(director, tournament, _active_at(tournament, 1, exclude=move.entry_id)[:1])
    moved_on = FloorAction.objects.get(tournament=tournament, kind="move", status="pending")
    assert moved_on.entry_id == newcomer.pk and (moved_on.from_table, moved_on.from_seat) == left
    assert left[1] in held_seats(tournament)[left[0]]
    before = _state(tournament)
    with pytest.raises(Conflict) as exc:
        floor_action_undo(actor=director, tournament_id=tournament.pk, action_id=move.pk)
    assert exc.value.code == "undo_stale"
    assert _state(tournament) == before


def test_the_activity_log_says_who_moved_where(director, room, structure):
    """The evening (production run): the log said "Floor-teendő kész: 1", an action number."""
    from django.utils import translation

    tournament, move = pending_move_into_table_one(director, room, structure)
    floor_action_done(actor=director, tournament_id=tournament.pk, action_id=move.pk)
    entry = AuditEntry.objects.get(action="floor.done", target_id=str(move.pk))
    name = Entry.objects.get(pk=move.entry_id).player.name
    where = f"table {move.from_table} seat {move.from_seat} → table 1 seat {move.to_seat}"
    assert entry.display_summary() == f"Move done: {name}, {where}"
    with translation.override("hu"):
        assert entry.display_summary().startswith(f"Átültetés kész: {name}, ")

    floor_action_undo(actor=director, tournament_id=tournament.pk, action_id=move.pk)
    undone = AuditEntry.objects.get(action="floor.undo", target_id=move.pk)
    back = f"back from table 1 seat {move.to_seat} to table {move.from_table} seat {move.from_seat}"
    assert undone.display_summary() == f"Move undone: {name}, {back}"
    with translation.override("cs"):
        assert undone.display_summary().startswith(f"Přesazení vráceno: {name}, ")
