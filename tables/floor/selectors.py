"""The floor's reads: the open tables as the planner sees them, the field's shape in one
statement, and the to-do list as the API, the pages and the screens show it
(docs/rules.md §5, §6, §7)."""

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from django.db import connection
from django.utils.translation import gettext as _

from tables.domain.floor_field import (
    FloorTable,
    TableCount,
    TableLoader,
    halted_tables,
    table_count,
)
from tables.domain.floor_rules import floor_rules
from tables.models import FloorAction, SeatRestriction, Table, TournamentTable
from tables.seating.selectors import table_blinds, unavailable_seats
from tourney.core.errors import NotFound
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import tournament_rules

OPEN = TournamentTable.Status.OPEN
PENDING = FloorAction.Status.PENDING


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


def open_tables(tournament: Tournament) -> list[PlanTable]:
    """The open tables with their player counts, in one statement of plain rows."""
    with connection.cursor() as cursor:
        cursor.execute(_OPEN_TABLES_SQL, [OPEN, tournament.pk, OPEN])
        return [PlanTable(*row) for row in cursor.fetchall()]


def planning_field(
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
    held = left_seats(tournament, tables) if shape.pending_moves else {}
    reserved, leaving = unnamed_moves_seats(tournament, tables) if shape.unnamed_moves else ({}, {})
    none: frozenset[int] = frozenset()
    dead_button = tournament_rules(tournament).dead_button

    def load(numbers) -> dict[int, FloorTable]:
        asked = set(numbers)
        wanted = [t for t in tables if t.number in asked]
        occupied: dict[int, dict[int, int]] = {t.pk: {} for t in wanted}
        for tt_id, seat, entry_id in (
            Entry.objects.filter(
                seat_row__tournament_table_id__in=list(occupied), status=Entry.Status.ACTIVE
            )
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
                held=frozenset(held[t.pk]) if t.pk in held else none,
                dead_button=dead_button,
            )
            for t in wanted
        }

    special = {by_pk[pk].number for pk in (*restricted, *reserved, *leaving, *held)}
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


def unnamed_moves_seats(
    tournament: Tournament, tables: Sequence[PlanTable]
) -> tuple[dict[int, set[int]], Counter[int]]:
    """Per open table id, the seats promised to movers not named yet, and how many players
    owe the floor such a move. One statement."""
    number_to_pk = {t.number: t.pk for t in tables}
    reserved: dict[int, set[int]] = defaultdict(set)
    leaving: Counter[int] = Counter()
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
    return reserved, leaving


def left_seats(tournament: Tournament, tables: Sequence[PlanTable]) -> dict[int, set[int]]:
    """Per open table id, the seats named movers are leaving: until the floor confirms the
    move the mover still sits there (the chart shows him at his new seat), so the planner
    gives them to nobody (docs/rules.md §3.4). One statement."""
    number_to_pk = {t.number: t.pk for t in tables}
    left: dict[int, set[int]] = defaultdict(set)
    for from_table, from_seat in (
        FloorAction.objects.filter(
            tournament=tournament,
            kind=FloorAction.Kind.MOVE,
            status=PENDING,
            entry__isnull=False,
            from_seat__isnull=False,
        )
        .order_by()
        .values_list("from_table", "from_seat")
    ):
        if from_table in number_to_pk:
            left[number_to_pk[from_table]].add(from_seat)
    return left


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
    dead_button = tournament_rules(tournament).dead_button
    return [
        FloorTable(
            number=t.number,
            seats=t.seats,
            occupied=occupied[t.pk],
            unavailable=frozenset(restricted[t.pk]) if t.pk in restricted else none,
            blinds=table_blinds(t),
            reserved=frozenset(reserved[t.pk]) if not physical and t.pk in reserved else none,
            leaving=0 if physical else leaving.get(t.pk, 0),
            dead_button=dead_button,
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


def shape_of(tables, players, fewest, most, opened, unnamed, pending) -> FieldShape:
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
        return shape_of(*cursor.fetchone())


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
    return shape_of(open_tables, int(players) - len(tables), min(counts), max(counts), *flags)


# --- The to-do list --------------------------------------------------------------------------


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


def pending_origins(tournament: Tournament, entry_ids: Iterable[int]) -> dict[int, tuple]:
    """Where the named movers among `entry_ids` whose move is pending really sit: the seat the
    first of their pending moves leads from, as (table number, seat, position), the position
    being what an undo restores ([table id, seat, waits_for_button]). Until the floor confirms
    a move its mover has not got up, so a move called for him next leads from there and holds
    that seat, not the one the chart shows him in (docs/rules.md §3.4). One statement."""
    origins: dict[int, tuple] = {}
    for entry_id, from_table, from_seat, payload, parent_payload in (
        FloorAction.objects.filter(
            tournament=tournament,
            kind=FloorAction.Kind.MOVE,
            status=PENDING,
            entry_id__in=list(entry_ids),
            from_seat__isnull=False,
        )
        .order_by("pk")
        .values_list("entry_id", "from_table", "from_seat", "payload", "parent__payload")
    ):
        # A break's or redraw's moves keep the positions in their parent's payload.
        before = (payload or {}).get("before") or (parent_payload or {}).get("before") or {}
        position = before.get(str(entry_id))
        if entry_id not in origins and position is not None:
            origins[entry_id] = (from_table, from_seat, list(position))
    return origins


def tables_really_at(
    tournament: Tournament | int, entry_ids: Iterable[int]
) -> dict[int, int | None]:
    """The table number each active player among `entry_ids` really sits at: the one his first
    pending move leads from (`pending_origins`: he has not got up until the floor confirms it,
    docs/rules.md §3.4), else the one the chart shows. Two statements."""
    charted = dict(
        Entry.objects.filter(
            tournament=tournament, pk__in=set(entry_ids), status=Entry.Status.ACTIVE
        ).values_list("pk", "tournament_table__number")
    )
    origins = pending_origins(tournament, charted) if charted else {}
    return {pk: origins[pk][0] if pk in origins else number for pk, number in charted.items()}


def seats_leaving(tables: list[dict], actions: list[dict]) -> None:
    """Mark in a seating chart (`tournament_tables_layout`) the seats the chart shows empty
    that a mover still sits in, his move pending (docs/rules.md §3.4): `leaving` = the move's
    row (`floor_actions_out`, from `actions` and their moves), so a page shows him there,
    leaving, not a free seat."""
    by_number = {t["number"]: t for t in tables}
    for action in actions:
        for move in (action, *action["moves"]):
            table = by_number.get(move["from_table"])
            if table is None or move["entry_id"] is None or move["status"] != PENDING:
                continue
            if move["kind"] != FloorAction.Kind.MOVE or move["from_seat"] is None:
                continue
            for seat in table["seat_list"]:
                if seat["seat"] == move["from_seat"] and seat["player"] is None:
                    seat["leaving"] = move


def floor_halted_tables(tournament: Tournament) -> frozenset[int]:
    """Tables that must hold play (TDA 11-D), judged on who sits where right now."""
    tables = open_tables(tournament)
    if len(tables) < 2:
        return frozenset()
    rules = floor_rules(tournament_rules(tournament))
    return halted_tables(floor_tables(tournament, tables, physical=True), rules)


def floor_action_of(tournament: Tournament, action_id: int) -> FloorAction:
    """One of the tournament's floor actions, or NotFound."""
    action = FloorAction.objects.filter(tournament=tournament, pk=action_id).first()
    if action is None:
        raise NotFound(
            "action_not_found", _("There is no floor action %(id)s.") % {"id": action_id}
        )
    return action
