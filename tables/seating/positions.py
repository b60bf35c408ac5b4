"""Button and blinds of tables that come into play during the event (docs/rules.md §3.7,
§4.7): a table opened mid-event gets its button by the high-card draw once two players sit
there, and a table brought back by an undo never shows the big blind on an empty seat.

Inside the caller's transaction, the tournament locked.
"""

import random
from collections import defaultdict
from collections.abc import Iterable

from django.utils.translation import gettext_noop

from tables.domain.button import first_hand_blinds, restored_blinds
from tables.domain.seating import draw_button
from tables.models import TournamentTable
from tables.seating.selectors import blinds_fields, table_blinds
from tourney.audit.log import audit_record, audit_text
from tourney.events.log import event_append
from tourney.models import Entry, Tournament

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
