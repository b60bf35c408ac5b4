"""Seats pending moves hold, and calling a pending move off: to seat a newcomer in its place,"""

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.domain.button import first_hand_blinds, restored_blinds
from tables.domain.seating import PendingMove, draw_button, held_by_moves
from tables.floor.selectors import floor_actions_out
from tables.models import FloorAction, TournamentTable
from tables.seating.selectors import blinds_fields, table_blinds
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict
from tourney.events.log import event_append
from tourney.models import Entry, Tournament


def pending_moves(tournament: Tournament) -> list[PendingMove]:
    """The tournament's moves the floor has not confirmed: one statement, whatever their
    number. `charted`: the chart shows a named mover in the seat his move gives him (so
    calling it off puts things back as they really are)."""
    rows = (
        FloorAction.objects.filter(
            tournament=tournament,
            kind=FloorAction.Kind.MOVE,
            status=FloorAction.Status.PENDING,
        )
        .order_by("pk")
        .values_list(
            "pk",
            "parent_id",
            "entry_id",
            "from_table",
            "from_seat",
            "to_table",
            "to_seat",
            "entry__tournament_table__number",
            "entry__seat",
        )
    )
    return [
        PendingMove(
            entry_id,
            from_table,
            from_seat,
            to_table,
            to_seat,
            pk,
            parent_id is None,
            charted=entry_id is None or tuple(at) == (to_table, to_seat),
        )
        for pk, parent_id, entry_id, from_table, from_seat, to_table, to_seat, *at in rows
    ]


def held_seats(tournament: Tournament) -> dict[int, set[int]]:
    """Seats nobody else may be given, per table number, though the chart shows nobody in
    them (`held_by_moves`)."""
    return held_by_moves(pending_moves(tournament))


CALL_OFF_REFUSED = {
    "move_confirmed": gettext_noop(
        "The floor has confirmed this move: the player has moved, it cannot be called off."
    ),
    "move_not_pending": gettext_noop("This move is no longer pending: it cannot be called off."),
    "mover_moved_on": gettext_noop(
        "This move cannot be called off: its player is no longer in the seat it gave him, or "
        "the seat he left is not free."
    ),
}


def call_off_refusal(tournament: Tournament, action: FloorAction | None) -> str | None:
    """Why `action` cannot be called off (a `CALL_OFF_REFUSED` code), or None. Only a move
    still pending can be: a confirmed one has happened (TDA: the player has moved). Its named
    mover must still be charted in the seat it gives him, and the seat he has not left must be
    free at a table in play, or calling it off would tell one seat to two people, or leave
    him none."""
    if action is None or action.kind != FloorAction.Kind.MOVE:
        return "move_not_pending"
    if action.status == FloorAction.Status.DONE:
        return "move_confirmed"
    if action.status != FloorAction.Status.PENDING:
        return "move_not_pending"
    if action.entry_id is None:
        return None
    position = action.payload.get("before", {}).get(str(action.entry_id))
    mover = Entry.objects.filter(pk=action.entry_id, status=Entry.Status.ACTIVE).first()
    if position is None or mover is None or mover.seat != action.to_seat:
        return "mover_moved_on"
    table_pk, seat, _waits = position
    at_destination = TournamentTable.objects.filter(
        pk=mover.tournament_table_id, number=action.to_table
    ).exists()
    source_open = TournamentTable.objects.filter(
        pk=table_pk, status=TournamentTable.Status.OPEN
    ).exists()
    taken = (
        Entry.objects.filter(
            seat_row__tournament_table_id=table_pk, seat=seat, status=Entry.Status.ACTIVE
        )
        .exclude(pk=mover.pk)
        .exists()
    )
    if not at_destination or not source_open or taken:
        return "mover_moved_on"
    return None


def _called_off(tournament: Tournament, action: FloorAction, summary: str, params: dict) -> dict:
    """Call `action` off (`call_off_refusal` said it can be): its mover, who has not got up,
    stays in his seat (the chart puts him back there); audited as floor.call_off. Returns the
    action's row for the event."""
    before = floor_actions_out([action])[0]
    if action.entry_id is not None:
        table_pk, seat, waits = action.payload["before"][str(action.entry_id)]
        Entry.objects.filter(pk=action.entry_id).update(
            tournament_table_id=table_pk, seat=seat, waits_for_button=waits
        )
    action.status = FloorAction.Status.SUPERSEDED
    action.save(update_fields=["status"])
    row = floor_actions_out([action])[0]
    audit_record(
        actor=None,
        action="floor.call_off",
        summary=audit_text(
            summary,
            {
                "name": row["player_name"] or _("the player who is big blind next"),
                "table": action.to_table,
                "seat": action.to_seat,
                **params,
            },
        ),
        tournament=tournament,
        target=action,
        before=before,
        after=row,
    )
    return row


def move_call_off(tournament: Tournament, action_id: int, newcomer: Entry) -> None:
    """Call off the pending move `action_id` so that `newcomer` takes the seat it promised:
    its mover, who has not got up yet, stays in his seat (the chart puts him back there);
    audited and announced to the floor's pages. Refused (409, nothing changed) when the move
    cannot be called off any more (`call_off_refusal`: confirmed meanwhile, say)."""
    action = (
        FloorAction.objects.select_for_update().filter(pk=action_id, tournament=tournament).first()
    )
    refused = call_off_refusal(tournament, action)
    if action is None or refused is not None:
        code = refused or "move_not_pending"
        raise Conflict(code, _(CALL_OFF_REFUSED[code]))
    row = _called_off(
        tournament,
        action,
        gettext_noop(
            "Move of %(name)s called off: %(newcomer)s takes table %(table)s seat %(seat)s"
        ),
        {"newcomer": newcomer.player.name},
    )
    event_append(tournament, "actions", {"reason": "called_off", "actions": [row]})


def moves_call_off_for_break(
    tournament: Tournament, actions: Sequence[FloorAction]
) -> list[FloorAction]:
    """Call off the pending moves `actions` whose seats a table break the field calls for
    needs (docs/rules.md §3.4, `_call_off_blocking_moves`): each one that can be
    (`call_off_refusal`) is, its mover staying where he sits, audited as floor.call_off; one
    event refreshes the floor's pages. Returns those called off."""
    called, rows = [], []
    for action in actions:
        if call_off_refusal(tournament, action) is not None:
            continue
        rows.append(
            _called_off(
                tournament,
                action,
                gettext_noop(
                    "Move of %(name)s called off for a table break: the player stays at "
                    "table %(from_table)s seat %(from_seat)s"
                ),
                {"from_table": action.from_table, "from_seat": action.from_seat or "?"},
            )
        )
        called.append(action)
    if rows:
        event_append(tournament, "actions", {"reason": "called_off", "actions": rows})
    return called


OPEN = TournamentTable.Status.OPEN


def _seats(tables: Iterable[TournamentTable]) -> dict[int, set[int]]:
    seats: dict[int, set[int]] = defaultdict(set)
    for table_id, seat in Entry.objects.filter(
        seat_row__tournament_table__in=[t.pk for t in tables], status=Entry.Status.ACTIVE
    ).values_list("tournament_table_id", "seat"):
        seats[table_id].add(seat)
    return seats


def new_tables_button_draw(actor, tournament: Tournament, rng: random.Random) -> list[int]:
    """Every open table without a button and with at least two players (opened for a late
    entry or the waiting list, then filled by balancing) draws for it by high card, as at the
    start of play (§3.3); everyone there is new, so everyone is dealt in. Returns the numbers
    of the tables that drew."""
    tables = list(
        TournamentTable.objects.filter(
            tournament=tournament, status=OPEN, button_seat__isnull=True, players__gte=2
        )
    )
    if not tables:
        return []
    seats = _seats(tables)
    drawn = []
    for table in tables:
        occupied = sorted(seats[table.pk])
        if len(occupied) < 2:
            continue
        button = draw_button(occupied, rng)
        blinds = first_hand_blinds(button.button_seat, occupied, table.seats)
        table.button_draw = [{"seat": s, "card": c.code} for s, c in button.cards]
        for name, value in blinds_fields(blinds).items():
            setattr(table, name, value)
        table.save(update_fields=["button_draw", *blinds_fields(blinds)])
        Entry.objects.filter(seat_row__tournament_table=table, status=Entry.Status.ACTIVE).update(
            waits_for_button=False
        )
        audit_record(
            actor=actor,
            action="seating.button_draw",
            summary=audit_text(
                gettext_noop("Table %(t)s drew for the button: seat %(s)s"),
                {"t": table.number, "s": blinds.button},
            ),
            tournament=tournament,
            target=table,
            after={"button_draw": table.button_draw, **blinds_fields(blinds)},
        )
        event_append(
            tournament,
            "seating",
            {"reason": "button_draw", "table": table.number, "button_seat": blinds.button},
        )
        drawn.append(table.number)
    return drawn


def restored_tables_positions(actor, tournament: Tournament, table_pks: Iterable[int]) -> None:
    """Tables an undo brought back: where the stored big-blind seat has lost its player, the
    positions are set again as the dead-button rule would have without him (§4.7)."""
    tables = [
        t
        for t in TournamentTable.objects.filter(
            tournament=tournament, status=OPEN, pk__in=list(table_pks)
        )
        if table_blinds(t) is not None
    ]
    if not tables:
        return
    seats = _seats(tables)
    for table in tables:
        stored = table_blinds(table)
        occupied = seats[table.pk]
        if len(occupied) < 2 or stored is None or stored.big_blind in occupied:
            continue
        blinds = restored_blinds(stored, occupied, table.seats)
        TournamentTable.objects.filter(pk=table.pk).update(**blinds_fields(blinds))
        audit_record(
            actor=actor,
            action="seating.positions",
            summary=audit_text(
                gettext_noop("Table %(t)s back in play: big blind seat %(bb)s, button seat %(b)s"),
                {"t": table.number, "bb": blinds.big_blind, "b": blinds.button},
            ),
            tournament=tournament,
            target=table,
            before=blinds_fields(stored),
            after=blinds_fields(blinds),
        )
        event_append(tournament, "seating", {"reason": "positions", "table": table.number})
