"""The floor's to-do list, written: the moves, table breaks and final-table redraw the house
rules call for after every change (docs/rules.md §5, §6, §7), applied to the seating and
confirmed by staff.

A plan is applied at once: the seating chart and the dealer pages show where each player must
go, and the action stays `pending` until the floor confirms it. Only a move whose mover is not
known (the source table's button is unknown) waits for the floor to name the player.

Operations: they take the locked tournament and return the actions written; what follows in
another sub-domain (a plan that formed the final table ends hand-for-hand) is the use case's
(`tables.floor.usecases.floor_follow`).
"""

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.domain.clock import ClockState
from clocks.models import Clock, StructureLevel
from clocks.structures.selectors import period_from_row
from infra.probes import probe
from tables.domain.button import first_hand_blinds
from tables.domain.floor import floor_plan_counts
from tables.domain.floor_field import (
    FinalTableDraw,
    FloorPlan,
    FloorRules,
    Move,
    TableBreak,
    tables_wanted,
)
from tables.domain.floor_rules import floor_rules
from tables.floor.selectors import (
    PENDING,
    FieldShape,
    PlanTable,
    field_shape,
    floor_actions_out,
    open_tables,
    pending_origins,
    planning_field,
)
from tables.floor_actions.operations import floor_moves_supersede, floor_moves_void
from tables.models import FloorAction, TournamentTable
from tables.seating.operations import moves_call_off_for_break, new_tables_button_draw, update_rows
from tables.seating.selectors import blinds_fields
from tourney.audit.log import audit_record, audit_text
from tourney.domain.registration import deadline
from tourney.events.log import event_append
from tourney.models import Elimination, Entry, Tournament
from tourney.tournaments.selectors import registration_deadline_level, tournament_rules

BLINDS_FIELDS = ("button_seat", "small_blind_seat", "big_blind_seat", "dead_small_blind_seat")


def late_registration_open(tournament: Tournament) -> bool:
    """Entries can still come (docs/rules.md §2.2) until a set level: the tournament has a
    late-registration level and the clock has not passed its end."""
    level = registration_deadline_level(tournament)
    if not level or tournament.status != Tournament.Status.RUNNING:
        return False
    clock = Clock.objects.filter(tournament=tournament).first()
    if clock is None:
        return False
    periods = [
        period_from_row(row)
        for row in StructureLevel.objects.filter(structure_id=tournament.structure_id).order_by(
            "position"
        )
    ]
    if not periods:
        return False
    state = ClockState(
        clock.status,
        clock.period_index,
        clock.period_ends_at_ms,
        clock.paused_remaining_ms,
        clock.version,
    )
    return not deadline(state, periods, time.time_ns() // 1_000_000, level).passed


def holding(rules: FloorRules) -> FloorRules:
    """The floor's rules while the house holds during late registration (docs/rules.md
    §5.10): no breaks, and balancing only for a table `halt_threshold` short (TDA 11-D)."""
    return replace(
        rules,
        hold_breaks=True,
        balance_threshold=max(rules.balance_threshold, rules.halt_threshold),
    )


def _needs_plan(shape: FieldShape, rules: FloorRules) -> bool:
    """Cheap test on the table counts alone: does anything call for a move, break or redraw?

    Most bust-outs in a big field change nothing; this keeps them from reading every seat.
    """
    if shape.open_tables == 0:
        return False
    if shape.unnamed_moves:
        return True  # unnamed movers change the counts the planner sees
    wanted = tables_wanted(shape.players, shape.multi_table_start, rules)
    if rules.hold_breaks and shape.fewest >= 2 and shape.players > rules.final_table_size:
        wanted = shape.open_tables
    if shape.open_tables > wanted:
        return True
    return shape.most - shape.fewest >= rules.balance_threshold


def final_table_host(tables: Sequence[PlanTable], final_table_size: int) -> PlanTable:
    """[INF] The first open table (by number) with chairs for the whole final table, else the
    one with the most chairs."""
    roomy = [t for t in tables if t.room_seats >= final_table_size]
    if roomy:
        return roomy[0]
    return max(tables, key=lambda t: (t.room_seats, -t.number))


def floor_replan(
    *,
    actor,
    tournament: Tournament,
    cause: Elimination | None = None,
    rng: random.Random | None = None,
    shape: FieldShape | None = None,
) -> list[FloorAction]:
    """Inside the caller's transaction (tournament locked): plan and apply what the field now
    needs; returns the new top-level actions (moves, breaks, a redraw), their API rows ready
    for `floor_actions_out` without another query. `shape`: the `field_shape` as it stands
    now, when the caller knows it (a bust-out reads it with its entries)."""
    with probe("floor.replan"):
        return _replan(actor, tournament, cause, rng, shape)


def _replan(
    actor,
    tournament: Tournament,
    cause: Elimination | None,
    rng: random.Random | None,
    shape: FieldShape | None,
) -> list[FloorAction]:
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        return []  # over (a satellite's seats are won with tables still to balance)
    house = tournament_rules(tournament)
    rules = floor_rules(house)
    shape = shape or field_shape(tournament)
    if not _needs_plan(shape, rules):
        return []
    if house.late_reg_hold and late_registration_open(tournament):
        rules = holding(rules)
        if not _needs_plan(shape, rules):
            return []
    rng = rng or random.SystemRandom()
    tables = open_tables(tournament)
    host = final_table_host(tables, rules.final_table_size)
    final_seats = min(host.room_seats, rules.final_table_size)
    plan = _plan(actor, tournament, tables, rules, shape, host.number, final_seats, rng)
    created = _apply_plan(actor, tournament, plan, tables, cause, final_seats, shape)
    if created and any(t.button_seat is None for t in tables):
        new_tables_button_draw(actor, tournament, rng)  # a table opened mid-event (§3.7)
    return created


def _plan(
    actor,
    tournament: Tournament,
    tables: Sequence[PlanTable],
    rules: FloorRules,
    shape: FieldShape,
    host: int,
    final_seats: int,
    rng: random.Random,
) -> FloorPlan:
    """`floor_plan` on the tables as they stand, after voiding the pending moves that stand
    in its way; each round voids at least one of them, so this ends."""
    multi = shape.multi_table_start
    while True:
        counts, load = planning_field(tournament, tables, shape)
        with probe("floor.plan"):
            plan = floor_plan_counts(counts, load, rules, multi, host, final_seats, rng)
        if not shape.pending_moves:
            return plan
        wanted = max(1, tables_wanted(sum(t.count for t in counts), multi, rules))
        if shape.unnamed_moves and _void_unnamed_moves(actor, tournament, plan, tables, wanted):
            continue
        if not _call_off_blocking_moves(tournament, plan, tables, wanted):
            return plan


def _void_unnamed_moves(
    actor, tournament: Tournament, plan: FloorPlan, tables: Sequence[PlanTable], wanted: int
) -> int:
    """Void pending moves not named yet that a plan cannot live with (each audited as
    floor.void, `floor_moves_void`); returns how many.

    A table the plan closes (a break, the final-table draw) seats everybody sitting there and
    is owed nobody: moves from or to it are void. A break the field calls for but the plan
    could not make may be held up by seats promised to those movers (who still sit at their
    old tables): then every such move is void, and the plan made again moves whoever it
    still needs.
    """
    unnamed = FloorAction.objects.filter(tournament=tournament, entry__isnull=True)
    closing = {b.table for b in plan.breaks}
    if plan.final_table is not None:
        closing.update(t.number for t in tables if t.number != plan.final_table.table)
    elif len(tables) - len(closing) > wanted:
        return len(floor_moves_void(actor, tournament, unnamed, "replanned"))
    if not closing:
        return 0
    closed = unnamed.filter(Q(from_table__in=closing) | Q(to_table__in=closing))
    return len(floor_moves_void(actor, tournament, closed, "replanned"))


def _call_off_blocking_moves(
    tournament: Tournament, plan: FloorPlan, tables: Sequence[PlanTable], wanted: int
) -> int:
    """A break the field calls for that the plan could not make may be held up by the seats
    named movers have not left yet (docs/rules.md §3.4): then the pending balancing moves are
    called off (their movers stay where they sit, the chart puts them back; each audited as
    floor.call_off, one event: `moves_call_off_for_break`) and the plan is made again with the
    seats really free. Returns how many were called off."""
    if plan.final_table is not None or len(tables) - len(plan.breaks) <= wanted:
        return 0
    moves = list(
        FloorAction.objects.filter(
            tournament=tournament,
            kind=FloorAction.Kind.MOVE,
            status=PENDING,
            parent__isnull=True,
            entry__isnull=False,
        )
    )
    by_number = {t.number: t for t in tables}
    moves = [m for m in moves if m.from_table in by_number and m.to_table in by_number]
    called = moves_call_off_for_break(tournament, moves)
    for move in called:
        by_number[move.from_table].players += 1
        by_number[move.to_table].players -= 1
    return len(called)


def _table_state(table: TournamentTable | PlanTable) -> dict:
    return {
        "status": table.status,
        "seats": table.seats,
        **{name: getattr(table, name) for name in BLINDS_FIELDS},
    }


@dataclass(frozen=True, slots=True)
class _Mover:
    """A player a plan moves, as read before the move: where he really sits."""

    pk: int
    name: str
    position: list
    """[table id, seat, waits_for_button]: what `before` keeps for an undo."""
    from_table: int
    from_seat: int | None


def _movers(entry_ids: Iterable[int], origins: dict[int, tuple]) -> dict[int, _Mover]:
    """Everyone a plan moves, in one query. A mover whose earlier move is still pending has
    not got up (`origins`, from `pending_origins`): he leaves from the seat he sits in, which
    his new move holds until the floor confirms it (docs/rules.md §3.4), not from the seat
    the chart shows him in."""
    movers = {}
    for pk, name, tt_id, number, seat, waits in (
        Entry.objects.filter(pk__in=list(entry_ids))
        .order_by()
        .values_list(
            "pk",
            "player__name",
            "tournament_table_id",
            "tournament_table__number",
            "seat",
            "waits_for_button",
        )
    ):
        if pk in origins:
            number, seat, position = origins[pk]
        else:
            position = [tt_id, seat, waits]
        movers[pk] = _Mover(pk, name, position, number, seat)
    return movers


def _place(seats: Sequence[tuple[int, int, int, bool]]) -> None:
    """Seat entries as (entry_id, table id, seat, sits_out): their old seats freed first so a
    redraw never collides with the one-player-per-seat constraint, then one UPDATE for all."""
    if not seats:
        return
    Entry.objects.filter(pk__in=[entry_id for entry_id, *_rest in seats]).update(seat=None)
    update_rows(Entry, ("tournament_table", "seat", "waits_for_button"), seats)


@dataclass(slots=True)
class _PlanWrite:
    """The rows a plan writes, gathered before the few statements that write them."""

    tournament: Tournament
    cause: Elimination | None
    now: object
    user: object
    names: dict[int, str]
    movers: dict[int, _Mover]
    by_number: dict[int, PlanTable]
    top: list[FloorAction] = field(default_factory=list)
    children: dict[int, list[FloorAction]] = field(default_factory=dict)
    """Child moves by the index of their parent in `top`."""
    seats: list[tuple[int, int, int, bool]] = field(default_factory=list)
    closing: list[int] = field(default_factory=list)

    def new(self, **fields) -> FloorAction:
        action = FloorAction(
            tournament=self.tournament,
            created_at=self.now,
            created_by=self.user,
            cause=self.cause,
            **fields,
        )
        action._floor_names = self.names
        return action

    def parent(self, action: FloorAction, children: list[FloorAction]) -> None:
        self.top.append(action)
        self.children[len(self.top) - 1] = children


def _write_final_table(
    w: _PlanWrite, draw: FinalTableDraw, tables: Sequence[PlanTable], final_seats: int
) -> None:
    host = w.by_number[draw.table]
    movers = w.movers
    w.parent(
        w.new(
            kind=FloorAction.Kind.FINAL_TABLE_REDRAW,
            to_table=host.number,
            payload={
                "before": {str(s.entry_id): movers[s.entry_id].position for s in draw.seats},
                "tables_before": {str(t.pk): _table_state(t) for t in tables},
                "button_seat": draw.button_seat,
                "button_cards": [{"seat": s, "card": c.code} for s, c in draw.button_cards],
                "seats": [
                    {"entry_id": s.entry_id, "card": s.card.code, "to_seat": s.to_seat}
                    for s in draw.seats
                ],
            },
        ),
        [
            w.new(
                kind=FloorAction.Kind.MOVE,
                entry_id=drawn.entry_id,
                from_table=movers[drawn.entry_id].from_table,
                from_seat=movers[drawn.entry_id].from_seat,
                to_table=host.number,
                to_seat=drawn.to_seat,
                payload={"card": drawn.card.code, "sits_out": False, "wait_hands": None},
            )
            for drawn in draw.seats
        ],
    )
    w.seats.extend((s.entry_id, host.pk, s.to_seat, False) for s in draw.seats)
    blinds = first_hand_blinds(draw.button_seat, [s.to_seat for s in draw.seats], final_seats)
    TournamentTable.objects.filter(pk=host.pk).update(
        seats=final_seats,
        button_draw=[{"seat": s, "card": c.code} for s, c in draw.button_cards],
        **blinds_fields(blinds),
    )
    w.closing.extend(t.pk for t in tables if t.pk != host.pk)


def _write_break(w: _PlanWrite, table_break: TableBreak) -> None:
    broken = w.by_number[table_break.table]
    w.parent(
        w.new(
            kind=FloorAction.Kind.BREAK_TABLE,
            from_table=broken.number,
            payload={
                "before": {
                    str(s.entry_id): w.movers[s.entry_id].position for s in table_break.seats
                },
                "tables_before": {str(broken.pk): _table_state(broken)},
                "seat_pool": [list(s) for s in table_break.seat_pool],
                "scrambled": [list(s) for s in table_break.scrambled],
                "seats": [
                    {
                        "entry_id": s.entry_id,
                        "card": s.card.code,
                        "to_table": s.to_table,
                        "to_seat": s.to_seat,
                    }
                    for s in table_break.seats
                ],
            },
        ),
        [
            w.new(
                kind=FloorAction.Kind.MOVE,
                entry_id=drawn.entry_id,
                from_table=w.movers[drawn.entry_id].from_table,
                from_seat=w.movers[drawn.entry_id].from_seat,
                to_table=drawn.to_table,
                to_seat=drawn.to_seat,
                at_hand=broken.hands_played,
                payload={
                    "card": drawn.card.code,
                    "sits_out": drawn.sits_out,
                    "wait_hands": None,
                    "arrived_at_hand": w.by_number[drawn.to_table].hands_played,
                },
            )
            for drawn in table_break.seats
        ],
    )
    w.seats.extend(
        (s.entry_id, w.by_number[s.to_table].pk, s.to_seat, s.sits_out) for s in table_break.seats
    )
    w.closing.append(broken.pk)


def _write_move(w: _PlanWrite, move: Move) -> None:
    mover = w.movers.get(move.entry_id) if move.entry_id is not None else None
    w.top.append(
        w.new(
            kind=FloorAction.Kind.MOVE,
            entry_id=move.entry_id,
            from_table=mover.from_table if mover else move.from_table,
            from_seat=mover.from_seat if mover else move.from_seat,
            to_table=move.to_table,
            to_seat=move.to_seat,
            at_hand=w.by_number[move.from_table].hands_played,
            payload={
                "sits_out": move.sits_out,
                "wait_hands": move.wait_hands,
                "before": {str(mover.pk): mover.position} if mover else {},
                "arrived_at_hand": w.by_number[move.to_table].hands_played,
            },
        )
    )
    if mover is not None:
        w.seats.append((mover.pk, w.by_number[move.to_table].pk, move.to_seat, move.sits_out))


def _moved(plan: FloorPlan) -> list[int]:
    """Everyone the plan moves (a balancing move's mover when named)."""
    moved = [m.entry_id for m in plan.moves if m.entry_id is not None]
    for table_break in plan.breaks:
        moved.extend(s.entry_id for s in table_break.seats)
    if plan.final_table is not None:
        moved.extend(s.entry_id for s in plan.final_table.seats)
    return moved


def _apply_plan(
    actor,
    tournament: Tournament,
    plan: FloorPlan,
    tables: list[PlanTable],
    cause: Elimination | None,
    final_seats: int,
    shape: FieldShape,
) -> list[FloorAction]:
    """Write the plan: the actions (a few bulk INSERTs), the new seats (two UPDATEs), the
    closed tables (one), an audit entry per top-level action and one event."""
    moved = _moved(plan)
    origins: dict[int, tuple] = {}
    if shape.pending_moves:
        # A player this plan moves again has their unconfirmed move replaced by the new one,
        # which leads from the seat he has not left.
        origins = pending_origins(tournament, moved) if moved else {}
        floor_moves_supersede(actor, tournament, set(moved), "moved_again")
    movers = _movers(moved, origins) if moved else {}
    w = _PlanWrite(
        tournament=tournament,
        cause=cause,
        now=timezone.now(),
        user=actor if actor is not None and actor.is_authenticated else None,
        names={pk: m.name for pk, m in movers.items()},
        movers=movers,
        by_number={t.number: t for t in tables},
    )
    if plan.final_table is not None:
        _write_final_table(w, plan.final_table, tables, final_seats)
    for table_break in plan.breaks:
        _write_break(w, table_break)
    for move in plan.moves:
        _write_move(w, move)
    if not w.top:
        return []
    FloorAction.objects.bulk_create(w.top)
    kids: list[FloorAction] = []
    for index, action in enumerate(w.top):
        action._floor_children = w.children.get(index, [])
        for child in action._floor_children:
            child.parent = action
            kids.append(child)
    if kids:
        FloorAction.objects.bulk_create(kids)
    _place(w.seats)
    if w.closing:
        TournamentTable.objects.filter(pk__in=w.closing).update(
            status=TournamentTable.Status.CLOSED, closed_at=w.now
        )
    _record_plan(actor, tournament, w.top)
    return w.top


PLAN_SUMMARIES = {
    FloorAction.Kind.MOVE: gettext_noop(
        "Move: %(name)s from table %(from_table)s seat %(from_seat)s to table %(to_table)s "
        "seat %(to_seat)s"
    ),
    FloorAction.Kind.BREAK_TABLE: gettext_noop("Table %(from_table)s breaks: %(count)s players"),
    FloorAction.Kind.FINAL_TABLE_REDRAW: gettext_noop(
        "Final table at table %(to_table)s: %(count)s players redrawn"
    ),
}


def _record_plan(actor, tournament: Tournament, created: list[FloorAction]) -> None:
    rows = floor_actions_out(created)
    for action, row in zip(created, rows, strict=True):
        audit_record(
            actor=actor,
            action=f"floor.{action.kind}",
            summary=audit_text(
                PLAN_SUMMARIES[action.kind],
                {
                    "name": row["player_name"] or _("the player who is big blind next"),
                    "from_table": row["from_table"],
                    "from_seat": row["from_seat"] or "?",
                    "to_table": row["to_table"],
                    "to_seat": row["to_seat"],
                    "count": len(row["moves"]),
                },
            ),
            tournament=tournament,
            target=action,
            after=row,
        )
    event_append(tournament, "actions", {"reason": "planned", "actions": rows})
