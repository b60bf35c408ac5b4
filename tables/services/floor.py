"""The floor's to-do list: the moves, table breaks and final-table redraw the house rules call
for after every change (docs/rules.md §5, §6, §7), applied to the seating and confirmed by staff.

A plan is applied at once: the seating chart and the dealer pages show where each player must
go, and the action stays `pending` until the floor confirms it. Only a move whose mover is not
known (the source table's button is unknown) waits for the floor to name the player.
"""

import random
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.domain.clock import ClockState
from clocks.models import Clock, StructureLevel
from clocks.services.structures import period_from_row
from tables.domain.button import Blinds, first_hand_blinds, next_hand_blinds
from tables.domain.floor import (
    FloorPlan,
    FloorRules,
    FloorTable,
    TableCount,
    TableLoader,
    floor_plan_counts,
    halted_tables,
    sits_out_at,
    table_count,
    tables_wanted,
)
from tables.models import FloorAction, SeatRestriction, Table, TournamentTable
from tables.selectors import blinds_fields, table_blinds, unavailable_seats
from tables.services.hand_for_hand import hand_for_hand_end_at_final_table
from tables.services.seating import _update_rows, seating_rules
from tables.services.table_positions import new_tables_button_draw, restored_tables_positions
from tourney.domain.house_rules import HouseRules, final_table_players
from tourney.domain.registration import deadline
from tourney.errors import Conflict, InvalidInput, NotFound
from tourney.models import Elimination, Entry, Tournament
from tourney.selectors import tournament_rules
from tourney.services.audit import audit_record, audit_text
from tourney.services.events import event_append
from tourney.services.locks import tournament_lock

OPEN = TournamentTable.Status.OPEN
PENDING = FloorAction.Status.PENDING
BLINDS_FIELDS = ("button_seat", "small_blind_seat", "big_blind_seat", "dead_small_blind_seat")


def floor_rules(rules: HouseRules) -> FloorRules:
    return FloorRules(
        balance_threshold=rules.balance_threshold,
        halt_threshold=rules.halt_threshold,
        source_order=rules.source_tiebreak,
        break_order=rules.break_order,
        break_tiebreak=rules.break_tiebreak,
        final_table_size=final_table_players(rules),
        seating=seating_rules(rules),
        not_dealt=rules.not_dealt,
        ft_redraw=rules.ft_redraw,
    )


def multi_table_start(tournament: Tournament) -> bool:
    """True once the tournament has ever played on two or more tables (docs/rules.md §7.3)."""
    return (
        TournamentTable.objects.filter(tournament=tournament, opened_at__isnull=False).count() >= 2
    )


@dataclass(slots=True)
class PlanTable:
    """An open table as planning reads and writes it: the columns it needs, as plain values
    (building 1,112 TournamentTable instances with their room tables took longer than the
    whole plan). `table_blinds`, `unavailable_seats` and `_table_state` read it like a model."""

    pk: int
    number: int
    seats: int
    room_seats: int
    """Chairs at the room table (the final table may use more than `seats`)."""
    table_id: int
    button_seat: int | None
    small_blind_seat: int | None
    big_blind_seat: int | None
    dead_small_blind_seat: int | None
    hands_played: int
    status: str = OPEN
    players: int = 0
    """Playing entries seated there."""


_OPEN_TABLES_SQL = f"""
    SELECT t.id, t.number, t.seats, r.seats, t.table_id, t.button_seat, t.small_blind_seat,
        t.big_blind_seat, t.dead_small_blind_seat, t.hands_played, %s, t.players
    FROM {TournamentTable._meta.db_table} AS t JOIN {Table._meta.db_table} AS r ON r.id = t.table_id
    WHERE t.tournament_id = %s AND t.status = %s
    ORDER BY t.number
"""


def _open_tables(tournament: Tournament) -> list[PlanTable]:
    """The open tables with their player counts, in one statement of plain rows."""
    with connection.cursor() as cursor:
        cursor.execute(_OPEN_TABLES_SQL, [OPEN, tournament.pk, OPEN])
        return [PlanTable(*row) for row in cursor.fetchall()]


def _planning_field(
    tournament: Tournament, tables: Sequence[PlanTable], shape: "FieldShape"
) -> tuple[list[TableCount], TableLoader]:
    """The planner's view of the open tables: counts for all, seats on demand. Tables with a
    restricted seat or a seat held for (or a player owed to) a mover not named yet are read in
    full at once (their free seats are not just seats - players), the others when asked for."""
    by_pk = {t.pk: t for t in tables}
    by_room_table = {t.table_id: t for t in tables}
    restricted: dict[int, set[int]] = defaultdict(set)
    for table_id, seat in (
        SeatRestriction.objects.filter(
            table__in=TournamentTable.objects.filter(tournament=tournament, status=OPEN).values(
                "table_id"
            )
        )
        .order_by()
        .values_list("table_id", "seat")
    ):
        table = by_room_table.get(table_id)
        if table is not None and seat <= table.seats:
            restricted[table.pk].add(seat)
    reserved: dict[int, set[int]] = defaultdict(set)
    leaving: Counter[int] = Counter()
    if shape.unnamed_moves:
        number_to_pk = {t.number: t.pk for t in tables}
        for from_table, to_table, to_seat in (
            FloorAction.objects.filter(
                tournament=tournament, kind=FloorAction.Kind.MOVE, status=PENDING, entry=None
            )
            .order_by()
            .values_list("from_table", "to_table", "to_seat")
        ):
            if to_table in number_to_pk:
                reserved[number_to_pk[to_table]].add(to_seat)
            if from_table in number_to_pk:
                leaving[number_to_pk[from_table]] += 1
    none: frozenset[int] = frozenset()

    def load(numbers) -> dict[int, FloorTable]:
        asked = set(numbers)
        wanted = [t for t in tables if t.number in asked]
        occupied: dict[int, dict[int, int]] = {t.pk: {} for t in wanted}
        for tt_id, seat, entry_id in (
            Entry.objects.filter(tournament_table_id__in=list(occupied), status=Entry.Status.ACTIVE)
            .order_by()
            .values_list("tournament_table_id", "seat", "pk")
        ):
            occupied[tt_id][seat] = entry_id
        recent = recent_movers(tournament, wanted, occupied)
        return {
            t.number: FloorTable(
                number=t.number,
                seats=t.seats,
                occupied=occupied[t.pk],
                unavailable=frozenset(restricted[t.pk]) if t.pk in restricted else none,
                blinds=table_blinds(t),
                reserved=frozenset(reserved[t.pk]) if t.pk in reserved else none,
                leaving=leaving.get(t.pk, 0),
                recent=recent.get(t.pk, none),
            )
            for t in wanted
        }

    special = {by_pk[pk].number for pk in (*restricted, *reserved, *leaving)}
    known = load(special) if special else {}
    counts = [
        table_count(known[t.number])
        if t.number in known
        else TableCount(t.number, t.seats, t.players, t.seats - t.players)
        for t in tables
    ]

    def load_cached(numbers) -> dict[int, FloorTable]:
        missing = [n for n in numbers if n not in known]
        if missing:
            known.update(load(missing))
        return {n: known[n] for n in numbers}

    return counts, load_cached


def recent_movers(
    tournament: Tournament, tables: Sequence[PlanTable], occupied: dict[int, dict[int, int]]
) -> dict[int, frozenset[int]]:
    """Per table id, the players the floor moved there (a balancing move or a break's draw,
    pending or done) who have not yet played an orbit there: fewer hands reported at the table
    since they arrived than it has seats (docs/rules.md §5.4). One query."""
    by_number = {t.number: t for t in tables}
    seated = {entry: pk for pk, seats in occupied.items() for entry in seats.values()}
    if not seated:
        return {}
    last: dict[int, tuple[int, object]] = {}
    for entry_id, to_table, payload in (
        FloorAction.objects.filter(
            tournament=tournament,
            kind=FloorAction.Kind.MOVE,
            status__in=(PENDING, FloorAction.Status.DONE),
            entry_id__in=list(seated),
            to_table__in=list(by_number),
        )
        .order_by("id")
        .values_list("entry_id", "to_table", "payload")
    ):
        last[entry_id] = (to_table, (payload or {}).get("arrived_at_hand"))
    recent: dict[int, set[int]] = defaultdict(set)
    for entry_id, (to_table, arrived) in last.items():
        table = by_number[to_table]
        if seated[entry_id] != table.pk:
            continue
        if arrived is None or table.hands_played - arrived < table.seats:
            recent[table.pk].add(entry_id)
    return {pk: frozenset(ids) for pk, ids in recent.items()}


def floor_tables(
    tournament: Tournament, tables: Sequence[PlanTable], physical: bool = False
) -> list[FloorTable]:
    """The open tables as the planner sees them.

    Planning state (default): players where the seating says, seats promised to unnamed movers
    reserved. `physical=True`: where players sit now, i.e. pending moves not yet walked count
    at their old table (the halt rule is about who is really there).
    """
    by_pk = {t.pk: t for t in tables}
    occupied: dict[int, dict[int, int]] = {pk: {} for pk in by_pk}
    # Joined on the table's status, not `IN (every open table)`: a thousand parameters cost
    # more to bind than the join. Players only sit at open tables.
    for tt_id, seat, entry_id in (
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE, tournament_table__status=OPEN
        )
        .order_by()
        .values_list("tournament_table_id", "seat", "pk")
    ):
        if tt_id in occupied:
            occupied[tt_id][seat] = entry_id
    reserved: dict[int, set[int]] = defaultdict(set)
    leaving: Counter[int] = Counter()
    number_to_pk = {t.number: t.pk for t in tables}
    pending = (
        FloorAction.objects.filter(
            tournament=tournament, kind=FloorAction.Kind.MOVE, status=PENDING
        )
        .order_by()
        .values_list("entry_id", "from_table", "from_seat", "to_table", "to_seat")
    )
    for entry_id, from_table, from_seat, to_table, to_seat in pending:
        to_pk, from_pk = number_to_pk.get(to_table), number_to_pk.get(from_table)
        if entry_id is None:
            if to_pk is not None:
                reserved[to_pk].add(to_seat)
            if from_pk is not None:
                leaving[from_pk] += 1
        elif physical and to_pk is not None and occupied[to_pk].get(to_seat) == entry_id:
            del occupied[to_pk][to_seat]
            if from_pk is not None and from_seat is not None:
                occupied[from_pk][from_seat] = entry_id
    restricted = unavailable_seats(list(tables))
    none: frozenset[int] = frozenset()
    return [
        FloorTable(
            number=t.number,
            seats=t.seats,
            occupied=occupied[t.pk],
            unavailable=frozenset(restricted[t.pk]) if t.pk in restricted else none,
            blinds=table_blinds(t),
            reserved=frozenset(reserved[t.pk]) if not physical and t.pk in reserved else none,
            leaving=0 if physical else leaving.get(t.pk, 0),
        )
        for t in tables
    ]


@dataclass(frozen=True, slots=True)
class FieldShape:
    """The open tables by their player counts alone, with what else decides whether the
    floor has anything to plan."""

    open_tables: int
    players: int
    fewest: int
    most: int
    multi_table_start: bool
    unnamed_moves: bool
    """A pending move whose mover the floor has not named."""
    pending_moves: bool
    """Any pending move (named or not)."""


_MOVES_SQL = (
    f"FROM {FloorAction._meta.db_table} WHERE tournament_id = %s AND kind = %s AND status = %s"
)
# Whether the tournament has ever played on two tables, has a move whose mover is not named
# yet, has any pending move: `field_shape`'s last three figures (parameters: `_flags_params`).
_FLAGS_SQL = [
    f"""(SELECT COUNT(*) FROM (SELECT 1 FROM {TournamentTable._meta.db_table}
        WHERE tournament_id = %s AND opened_at IS NOT NULL LIMIT 2) AS opened)""",
    f"(SELECT COUNT(*) FROM (SELECT 1 {_MOVES_SQL} AND entry_id IS NULL LIMIT 1) AS unnamed)",
    f"(SELECT COUNT(*) FROM (SELECT 1 {_MOVES_SQL} LIMIT 1) AS pending)",
]
_OPEN_SQL = f"FROM {TournamentTable._meta.db_table} WHERE tournament_id = %s AND status = %s"
_SHAPE_SQL = f"""
    SELECT COUNT(*), COALESCE(SUM(players), 0), COALESCE(MIN(players), 0),
        COALESCE(MAX(players), 0), {", ".join(_FLAGS_SQL)}
    {_OPEN_SQL}
"""


def _flags_params(tid: int) -> list:
    move = FloorAction.Kind.MOVE
    return [tid, tid, move, PENDING, tid, move, PENDING]


def _shape(tables, players, fewest, most, opened, unnamed, pending) -> FieldShape:
    return FieldShape(
        int(tables),
        int(players),
        int(fewest),
        int(most),
        int(opened) >= 2,
        bool(unnamed),
        bool(pending),
    )


def field_shape(tournament: Tournament) -> FieldShape:
    """One statement over the open tables' stored player counts (`TournamentTable.players`),
    reduced in the database to the figures `_needs_plan` compares; no row per table reaches
    Python."""
    with connection.cursor() as cursor:
        cursor.execute(_SHAPE_SQL, [*_flags_params(tournament.pk), tournament.pk, OPEN])
        return _shape(*cursor.fetchone())


_UNTOUCHED_SQL = (
    _OPEN_SQL + f" AND id NOT IN (SELECT tournament_table_id FROM {Entry._meta.db_table}"
    " WHERE id IN ({ids}))"
)


# The tournament's tables in one pass (a range of the tournamenttable_players index), for a
# bust-out's read to CROSS JOIN: the open tables, their players, and every seated player.
TABLE_TOTALS_SQL = f"""(
    SELECT COUNT(CASE WHEN status = %s THEN 1 END) AS open_tables,
        COALESCE(SUM(CASE WHEN status = %s THEN players END), 0) AS open_players,
        COALESCE(SUM(players), 0) AS seated
    FROM {TournamentTable._meta.db_table} WHERE tournament_id = %s
)"""


def table_totals_params(tournament: Tournament) -> list:
    return [OPEN, OPEN, tournament.pk]


def field_shape_select(entry_count: int, totals: str) -> list[str]:
    """SQL expressions for a bust-out's read of its `entry_count` busting entries, with
    `TABLE_TOTALS_SQL` joined as `totals`: the figures of `field_shape` as they stand before
    the bust, the busting players' tables left out of the fewest and most (one step down the
    tournamenttable_players index each), for `field_shape_after_bust`. Parameters:
    `field_shape_params`."""
    untouched = _UNTOUCHED_SQL.format(ids=", ".join(["%s"] * entry_count))
    return [
        f"{totals}.open_tables",
        f"{totals}.open_players",
        f"(SELECT players {untouched} ORDER BY players LIMIT 1)",
        f"(SELECT players {untouched} ORDER BY players DESC LIMIT 1)",
        *_FLAGS_SQL,
    ]


def field_shape_params(tournament: Tournament, entry_ids: Sequence[int]) -> list:
    untouched = [tournament.pk, OPEN, *entry_ids]
    return [*untouched, *untouched, *_flags_params(tournament.pk)]


def field_shape_after_bust(
    tables: Sequence[TournamentTable], figures: Sequence
) -> FieldShape | None:
    """`field_shape` once one player per item of `tables` (the busting players' tables, with
    their `players` as read) is out, from `figures` (the values of `field_shape_select`, read
    with them); valid when none of them had a pending move (voiding it would change the
    figures). None when a busting player's table is not open: read `field_shape` then."""
    open_tables, players, fewest_others, most_others, *flags = figures
    after: dict[int, int] = {}
    for table in tables:
        if table.status != OPEN:
            return None
        after[table.pk] = after.get(table.pk, table.players) - 1
    counts = [*after.values()]
    if fewest_others is not None:
        counts += [int(fewest_others), int(most_others)]
    return _shape(open_tables, int(players) - len(tables), min(counts), max(counts), *flags)


def late_registration_open(tournament: Tournament) -> bool:
    """Entries can still come (docs/rules.md §2.2) until a set level: the tournament has a
    late-registration level and the clock has not passed its end."""
    level = tournament.late_registration_level
    if level is None or tournament.status != Tournament.Status.RUNNING:
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
    tables = _open_tables(tournament)
    host = final_table_host(tables, rules.final_table_size)
    final_seats = min(host.room_seats, rules.final_table_size)
    plan = _plan(tournament, tables, rules, shape, host.number, final_seats, rng)
    created = _apply_plan(actor, tournament, plan, tables, cause, final_seats, shape)
    if created and any(t.button_seat is None for t in tables):
        new_tables_button_draw(actor, tournament, rng)  # a table opened mid-event (§3.7)
    if plan.final_table is not None:
        hand_for_hand_end_at_final_table(actor, tournament)
    return created


def _plan(
    tournament: Tournament,
    tables: Sequence[PlanTable],
    rules: FloorRules,
    shape: FieldShape,
    host: int,
    final_seats: int,
    rng: random.Random,
) -> FloorPlan:
    """`floor_plan` on the tables as they stand, after voiding the moves not named yet that
    stand in its way; each round voids at least one of them, so this ends."""
    multi = shape.multi_table_start
    while True:
        counts, load = _planning_field(tournament, tables, shape)
        plan = floor_plan_counts(counts, load, rules, multi, host, final_seats, rng)
        if not shape.unnamed_moves:
            return plan
        wanted = max(1, tables_wanted(sum(t.count for t in counts), multi, rules))
        if not _void_unnamed_moves(tournament, plan, tables, wanted):
            return plan


def _void_unnamed_moves(
    tournament: Tournament, plan: FloorPlan, tables: Sequence[PlanTable], wanted: int
) -> int:
    """Supersede pending moves not named yet that a plan cannot live with; returns how many.

    A table the plan closes (a break, the final-table draw) seats everybody sitting there and
    is owed nobody: moves from or to it are void. A break the field calls for but the plan
    could not make may be held up by seats promised to those movers (who still sit at their
    old tables): then every such move is void, and the plan made again moves whoever it
    still needs.
    """
    unnamed = FloorAction.objects.filter(
        tournament=tournament, kind=FloorAction.Kind.MOVE, status=PENDING, entry__isnull=True
    )
    closing = {b.table for b in plan.breaks}
    if plan.final_table is not None:
        closing.update(t.number for t in tables if t.number != plan.final_table.table)
    elif len(tables) - len(closing) > wanted:
        return unnamed.update(status=FloorAction.Status.SUPERSEDED)
    if not closing:
        return 0
    return unnamed.filter(Q(from_table__in=closing) | Q(to_table__in=closing)).update(
        status=FloorAction.Status.SUPERSEDED
    )


def _entry_position(entry: Entry) -> list:
    return [entry.tournament_table_id, entry.seat, entry.waits_for_button]


def _table_state(table: TournamentTable | PlanTable) -> dict:
    return {
        "status": table.status,
        "seats": table.seats,
        **{name: getattr(table, name) for name in BLINDS_FIELDS},
    }


@dataclass(frozen=True, slots=True)
class _Mover:
    """A player a plan moves, as read before the move."""

    pk: int
    name: str
    position: list
    """[table id, seat, waits_for_button]: what `before` keeps for an undo."""


def _movers(entry_ids: Iterable[int]) -> dict[int, _Mover]:
    """Everyone a plan moves, in one query."""
    return {
        pk: _Mover(pk, name, [tt_id, seat, waits])
        for pk, name, tt_id, seat, waits in Entry.objects.filter(pk__in=list(entry_ids))
        .order_by()
        .values_list("pk", "player__name", "tournament_table_id", "seat", "waits_for_button")
    }


def _place(seats: Sequence[tuple[int, int, int, bool]]) -> None:
    """Seat entries as (entry_id, table id, seat, sits_out): their old seats freed first so a
    redraw never collides with the one-player-per-seat constraint, then one UPDATE for all."""
    if not seats:
        return
    Entry.objects.filter(pk__in=[entry_id for entry_id, *_rest in seats]).update(seat=None)
    _update_rows(Entry, ("tournament_table", "seat", "waits_for_button"), seats)


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
    now = timezone.now()
    by_number = {t.number: t for t in tables}
    user = actor if actor is not None and actor.is_authenticated else None
    if shape.pending_moves:
        _supersede(tournament, plan)
    moved = [m.entry_id for m in plan.moves if m.entry_id is not None]
    for table_break in plan.breaks:
        moved.extend(s.entry_id for s in table_break.seats)
    if plan.final_table is not None:
        moved.extend(s.entry_id for s in plan.final_table.seats)
    movers = _movers(moved) if moved else {}
    names = {pk: m.name for pk, m in movers.items()}
    number_of = {t.pk: t.number for t in tables}

    def new(**fields) -> FloorAction:
        action = FloorAction(
            tournament=tournament, created_at=now, created_by=user, cause=cause, **fields
        )
        action._floor_names = names
        return action

    top: list[FloorAction] = []
    children: dict[int, list[FloorAction]] = {}  # by the index of their parent in `top`
    seats: list[tuple[int, int, int, bool]] = []
    closing: list[int] = []

    if plan.final_table is not None:
        draw = plan.final_table
        host = by_number[draw.table]
        top.append(
            new(
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
            )
        )
        children[len(top) - 1] = [
            new(
                kind=FloorAction.Kind.MOVE,
                entry_id=drawn.entry_id,
                from_table=number_of[movers[drawn.entry_id].position[0]],
                from_seat=movers[drawn.entry_id].position[1],
                to_table=host.number,
                to_seat=drawn.to_seat,
                payload={"card": drawn.card.code, "sits_out": False, "wait_hands": None},
            )
            for drawn in draw.seats
        ]
        seats.extend((s.entry_id, host.pk, s.to_seat, False) for s in draw.seats)
        blinds = first_hand_blinds(draw.button_seat, [s.to_seat for s in draw.seats], final_seats)
        TournamentTable.objects.filter(pk=host.pk).update(
            seats=final_seats,
            button_draw=[{"seat": s, "card": c.code} for s, c in draw.button_cards],
            **blinds_fields(blinds),
        )
        closing.extend(t.pk for t in tables if t.pk != host.pk)

    for table_break in plan.breaks:
        broken = by_number[table_break.table]
        top.append(
            new(
                kind=FloorAction.Kind.BREAK_TABLE,
                from_table=broken.number,
                payload={
                    "before": {
                        str(s.entry_id): movers[s.entry_id].position for s in table_break.seats
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
            )
        )
        children[len(top) - 1] = [
            new(
                kind=FloorAction.Kind.MOVE,
                entry_id=drawn.entry_id,
                from_table=broken.number,
                from_seat=movers[drawn.entry_id].position[1],
                to_table=drawn.to_table,
                to_seat=drawn.to_seat,
                at_hand=broken.hands_played,
                payload={
                    "card": drawn.card.code,
                    "sits_out": drawn.sits_out,
                    "wait_hands": None,
                    "arrived_at_hand": by_number[drawn.to_table].hands_played,
                },
            )
            for drawn in table_break.seats
        ]
        seats.extend(
            (s.entry_id, by_number[s.to_table].pk, s.to_seat, s.sits_out) for s in table_break.seats
        )
        closing.append(broken.pk)

    for move in plan.moves:
        mover = movers.get(move.entry_id) if move.entry_id is not None else None
        top.append(
            new(
                kind=FloorAction.Kind.MOVE,
                entry_id=move.entry_id,
                from_table=move.from_table,
                from_seat=move.from_seat,
                to_table=move.to_table,
                to_seat=move.to_seat,
                at_hand=by_number[move.from_table].hands_played,
                payload={
                    "sits_out": move.sits_out,
                    "wait_hands": move.wait_hands,
                    "before": {str(mover.pk): mover.position} if mover else {},
                    "arrived_at_hand": by_number[move.to_table].hands_played,
                },
            )
        )
        if mover is not None:
            seats.append((mover.pk, by_number[move.to_table].pk, move.to_seat, move.sits_out))

    if not top:
        return []
    FloorAction.objects.bulk_create(top)
    kids: list[FloorAction] = []
    for index, action in enumerate(top):
        action._floor_children = children.get(index, [])
        for child in action._floor_children:
            child.parent = action
            kids.append(child)
    if kids:
        FloorAction.objects.bulk_create(kids)
    _place(seats)
    if closing:
        TournamentTable.objects.filter(pk__in=closing).update(
            status=TournamentTable.Status.CLOSED, closed_at=now
        )
    _record_plan(actor, tournament, top)
    return top


def _supersede(tournament: Tournament, plan: FloorPlan) -> None:
    """A player this plan moves again has their unconfirmed move replaced by the new one."""
    moved = {m.entry_id for m in plan.moves if m.entry_id is not None}
    for table_break in plan.breaks:
        moved.update(s.entry_id for s in table_break.seats)
    if plan.final_table is not None:
        moved.update(s.entry_id for s in plan.final_table.seats)
    floor_moves_supersede(tournament, moved)


def floor_moves_supersede(tournament: Tournament, entry_ids: Iterable[int]) -> None:
    """Unconfirmed moves of these players no longer apply (moved again, or busted); a break or
    redraw left with nothing to confirm goes with them."""
    FloorAction.objects.filter(
        tournament=tournament,
        kind=FloorAction.Kind.MOVE,
        status=PENDING,
        entry_id__in=list(entry_ids),
    ).update(status=FloorAction.Status.SUPERSEDED)
    FloorAction.objects.filter(tournament=tournament, parent__isnull=True, status=PENDING).exclude(
        kind=FloorAction.Kind.MOVE
    ).exclude(children__status=PENDING).update(status=FloorAction.Status.SUPERSEDED)


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


# --- Reading the to-do list -----------------------------------------------------------------


def _ms(value) -> int | None:
    return int(value.timestamp() * 1000) if value else None


def floor_actions_out(actions: Sequence[FloorAction]) -> list[dict]:
    """API rows for top-level actions, each with its child moves under `moves`.

    Actions a plan has just written carry their children and player names (no query then).
    """
    children: dict[int, list[FloorAction]] = {}
    unread = []
    for a in actions:
        known = getattr(a, "_floor_children", None)
        if known is None:
            unread.append(a.pk)
        else:
            children[a.pk] = known
    if unread:
        for child in FloorAction.objects.filter(parent_id__in=unread).order_by("id"):
            children.setdefault(child.parent_id, []).append(child)
    everyone = [*actions, *(c for kids in children.values() for c in kids)]
    names: dict[int, str] = {}
    for a in everyone:
        names.update(getattr(a, "_floor_names", {}))
    missing = {a.entry_id for a in everyone if a.entry_id is not None} - names.keys()
    if missing:
        names.update(Entry.objects.filter(pk__in=list(missing)).values_list("pk", "player__name"))

    def row(a: FloorAction) -> dict:
        return {
            "id": a.pk,
            "kind": a.kind,
            "status": a.status,
            "parent_id": a.parent_id,
            "entry_id": a.entry_id,
            "player_name": names.get(a.entry_id),
            "from_table": a.from_table,
            "from_seat": a.from_seat,
            "to_table": a.to_table,
            "to_seat": a.to_seat,
            "card": a.payload.get("card"),
            "sits_out": bool(a.payload.get("sits_out")),
            "wait_hands": a.payload.get("wait_hands"),
            "button_seat": a.payload.get("button_seat"),
            "created_at_ms": _ms(a.created_at),
            "done_at_ms": _ms(a.done_at),
            "moves": [row(c) for c in children.get(a.pk, [])],
        }

    return [row(a) for a in actions]


def floor_actions_list(tournament: Tournament, status: str | None = None) -> list[dict]:
    """Top-level actions, newest first; `status` filters (pending, done, undone)."""
    actions = FloorAction.objects.filter(tournament=tournament, parent__isnull=True)
    if status:
        actions = actions.filter(status=status)
    return floor_actions_out(list(actions.order_by("-id")[:200]))


def floor_halted_tables(tournament: Tournament) -> frozenset[int]:
    """Tables that must hold play (TDA 11-D), judged on who sits where right now."""
    tables = _open_tables(tournament)
    if len(tables) < 2:
        return frozenset()
    rules = floor_rules(tournament_rules(tournament))
    return halted_tables(floor_tables(tournament, tables, physical=True), rules)


# --- Confirming and undoing -----------------------------------------------------------------


def _action_of(tournament: Tournament, action_id: int) -> FloorAction:
    action = FloorAction.objects.filter(tournament=tournament, pk=action_id).first()
    if action is None:
        raise NotFound(
            "action_not_found", _("There is no floor action %(id)s.") % {"id": action_id}
        )
    return action


def _sits_out_on_arrival(table: TournamentTable, seat: int, rules: HouseRules) -> bool:
    blinds = table_blinds(table)
    if blinds is None:
        return False
    occupied = set(
        Entry.objects.filter(tournament_table=table, status=Entry.Status.ACTIVE).values_list(
            "seat", flat=True
        )
    ) | {seat}
    if len(occupied) < 2:
        return False
    upcoming: Blinds = next_hand_blinds(blinds, occupied, table.seats)
    return sits_out_at(seat, upcoming, table.seats, rules.not_dealt)


def _name_mover(tournament: Tournament, action: FloorAction, entry_id: int | None) -> None:
    """Apply a move whose mover the floor names now (or corrects)."""
    if entry_id is None:
        if action.entry_id is None:
            raise Conflict(
                "mover_unknown",
                _("Say who moved: the player who is big blind next at table %(t)s.")
                % {"t": action.from_table},
            )
        return
    if entry_id == action.entry_id:
        return
    source = TournamentTable.objects.filter(tournament=tournament, number=action.from_table).first()
    entry = (
        Entry.objects.select_related("player")
        .filter(tournament=tournament, pk=entry_id, status=Entry.Status.ACTIVE)
        .first()
    )
    if entry is None or source is None or entry.tournament_table_id != source.pk:
        raise Conflict(
            "mover_not_at_table",
            _("That player is not playing at table %(t)s.") % {"t": action.from_table},
        )
    destination = TournamentTable.objects.get(tournament=tournament, number=action.to_table)
    if action.entry_id is not None:
        # The floor moved somebody else: the planned player goes back to the seat they left.
        planned = Entry.objects.select_related("player").get(pk=action.entry_id)
        old_pk, old_seat, old_waits = action.payload["before"][str(planned.pk)]
        if (
            Entry.objects.filter(
                tournament_table_id=old_pk, seat=old_seat, status=Entry.Status.ACTIVE
            )
            .exclude(pk=planned.pk)
            .exists()
        ):
            raise Conflict(
                "seat_taken",
                _("The seat %(name)s left is taken now; undo the move instead.")
                % {"name": planned.player.name},
            )
        planned.tournament_table_id, planned.seat, planned.waits_for_button = (
            old_pk,
            old_seat,
            old_waits,
        )
        planned.save(update_fields=["tournament_table", "seat", "waits_for_button"])
    rules = tournament_rules(tournament)
    action.payload["before"] = {str(entry.pk): _entry_position(entry)}
    action.from_seat = entry.seat
    entry.tournament_table = destination
    entry.seat = action.to_seat
    entry.waits_for_button = _sits_out_on_arrival(destination, action.to_seat, rules)
    entry.save(update_fields=["tournament_table", "seat", "waits_for_button"])
    action.entry = entry


def floor_action_done(
    *, actor, tournament_id: int, action_id: int, entry_id: int | None = None
) -> dict:
    """The floor confirms an action; for a move, `entry_id` names who moved when the system
    could not know (or corrects it). Confirming a break or redraw confirms all its moves."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        action = _action_of(tournament, action_id)
        if action.status != PENDING:
            raise Conflict(
                "action_not_pending",
                _("This action is already %(s)s.") % {"s": action.get_status_display().lower()},
            )
        if action.kind != FloorAction.Kind.MOVE and entry_id is not None:
            raise InvalidInput(
                "invalid_input", _("Only a single move can name the player who moved.")
            )
        before = floor_actions_out([action])[0]
        if action.kind == FloorAction.Kind.MOVE:
            _name_mover(tournament, action, entry_id)
        now = timezone.now()
        user = actor if actor is not None and actor.is_authenticated else None
        action.status = FloorAction.Status.DONE
        action.done_at, action.done_by = now, user
        action.save()
        action.children.filter(status=PENDING).update(
            status=FloorAction.Status.DONE, done_at=now, done_by=user
        )
        parent = action.parent
        if parent is not None and not parent.children.filter(status=PENDING).exists():
            parent.status = FloorAction.Status.DONE
            parent.done_at, parent.done_by = now, user
            parent.save(update_fields=["status", "done_at", "done_by"])
        row = floor_actions_out([parent or action])[0]
        audit_record(
            actor=actor,
            action="floor.done",
            summary=audit_text(gettext_noop("Floor action %(id)s done"), {"id": action.pk}),
            tournament=tournament,
            target=action,
            before=before,
            after=floor_actions_out([action])[0],
        )
        event_append(tournament, "actions", {"reason": "done", "actions": [row]})
        replanned = floor_replan(actor=actor, tournament=tournament)
    return {"action": row, "actions": floor_actions_out(replanned)}


def _revertible(action: FloorAction) -> bool:
    """Every player of the action still plays where it put them, and every seat they came
    from is at a table in play, free (or freed by this same revert) and not held for a mover
    not named yet."""
    moves = list(action.children.all()) if action.kind != FloorAction.Kind.MOVE else [action]
    moves = [m for m in moves if m.entry_id is not None]
    before = action.payload.get("before", {})
    if not moves:
        return True
    ids = [m.entry_id for m in moves]
    current = {e.pk: e for e in Entry.objects.filter(pk__in=ids, status=Entry.Status.ACTIVE)}
    if len(current) != len(ids):
        return False
    for m in moves:
        dest = (
            TournamentTable.objects.filter(tournament_id=action.tournament_id, number=m.to_table)
            .values_list("pk", flat=True)
            .first()
        )
        e = current[m.entry_id]
        if e.tournament_table_id != dest or e.seat != m.to_seat:
            return False
    targets = [tuple(before[str(i)][:2]) for i in ids if str(i) in before]
    # A table broken since (by a later bust-out's plan) stays broken unless this revert
    # reopens it.
    reopened = {int(pk) for pk in action.payload.get("tables_before", {})}
    open_tables = set(
        TournamentTable.objects.filter(
            pk__in=[t for t, _s in targets], status=TournamentTable.Status.OPEN
        ).values_list("pk", flat=True)
    )
    if any(t not in open_tables | reopened for t, _s in targets):
        return False
    taken = set(
        Entry.objects.filter(status=Entry.Status.ACTIVE)
        .exclude(pk__in=ids)
        .filter(tournament_table_id__in=[t for t, _s in targets])
        .values_list("tournament_table_id", "seat")
    )
    pk_of = dict(
        TournamentTable.objects.filter(tournament_id=action.tournament_id).values_list(
            "number", "pk"
        )
    )
    taken.update(
        (pk_of.get(number), seat)
        for number, seat in FloorAction.objects.filter(
            tournament_id=action.tournament_id,
            kind=FloorAction.Kind.MOVE,
            status=PENDING,
            entry__isnull=True,
        ).values_list("to_table", "to_seat")
    )
    return not (taken & set(targets))


def floor_action_revert(action: FloorAction, actor, now) -> bool:
    """Inside the caller's transaction: put the players of `action` back where they were and
    reopen the tables it closed. Returns False (and changes nothing) when that is no longer
    possible because play moved on."""
    if action.status == FloorAction.Status.UNDONE or not _revertible(action):
        return False
    before = action.payload.get("before", {})
    ids = [int(i) for i in before]
    entries = {e.pk: e for e in Entry.objects.filter(pk__in=ids)}
    Entry.objects.filter(pk__in=ids).update(seat=None)
    for entry_id, (table_pk, seat, waits) in ((int(k), v) for k, v in before.items()):
        entry = entries[entry_id]
        entry.tournament_table_id, entry.seat, entry.waits_for_button = table_pk, seat, waits
        entry.save(update_fields=["tournament_table", "seat", "waits_for_button"])
    for table_pk, state in action.payload.get("tables_before", {}).items():
        TournamentTable.objects.filter(pk=int(table_pk)).update(closed_at=None, **state)
    user = actor if actor is not None and actor.is_authenticated else None
    action.status = FloorAction.Status.UNDONE
    action.done_at, action.done_by = now, user
    action.save(update_fields=["status", "done_at", "done_by"])
    action.children.update(status=FloorAction.Status.UNDONE, done_at=now, done_by=user)
    return True


def floor_action_undo(*, actor, tournament_id: int, action_id: int) -> dict:
    """Undo a move, break or redraw: players go back to the seats they left, broken tables
    reopen. Nothing is planned in its place until the next bust-out, hand or entry: the
    director who undid it decides when the floor moves again."""
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        action = _action_of(tournament, action_id)
        if action.parent_id is not None:
            raise Conflict(
                "undo_part_of_action",
                _("This move is part of a table break or redraw: undo that instead."),
            )
        if action.status == FloorAction.Status.UNDONE:
            raise Conflict("already_undone", _("This action has been undone already."))
        before = floor_actions_out([action])[0]
        if not floor_action_revert(action, actor, timezone.now()):
            raise Conflict(
                "undo_stale",
                _("Play has moved on since (a player busted or moved again): undo that first."),
            )
        restored_tables_positions(actor, tournament, reopened_tables([action]))
        row = floor_actions_out([action])[0]
        audit_record(
            actor=actor,
            action="floor.undo",
            summary=audit_text(gettext_noop("Floor action %(id)s undone"), {"id": action.pk}),
            tournament=tournament,
            target=action,
            before=before,
            after=row,
        )
        event_append(tournament, "actions", {"reason": "undone", "actions": [row]})
    return {"action": row, "actions": []}


def reopened_tables(actions: Sequence[FloorAction]) -> list[int]:
    """The tables (ids) that reverting `actions` brought back into play."""
    return [int(pk) for a in actions for pk in a.payload.get("tables_before", {})]


def floor_actions_revert_caused_by(
    tournament: Tournament, eliminations: Sequence[Elimination], actor, now
) -> list[FloorAction]:
    """Undo of a bust-out: revert the still-pending actions it caused, newest first. Actions
    the floor has confirmed stay (players really moved); the field is replanned after."""
    reverted = []
    for action in FloorAction.objects.filter(
        tournament=tournament,
        parent__isnull=True,
        status=PENDING,
        cause__in=[e.pk for e in eliminations],
    ).order_by("-id"):
        if floor_action_revert(action, actor, now):
            reverted.append(action)
    return reverted
