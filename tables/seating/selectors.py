"""Reads of a tournament's tables and seats."""

from collections import defaultdict
from operator import itemgetter

from django.db.models import Count, Q
from django.utils.translation import gettext as _

from infra.text.collation import sorted_by_name
from tables.domain.button import Blinds
from tables.domain.cards import card_label
from tables.models import SeatRestriction, TournamentTable
from tourney.core.errors import NotFound
from tourney.models import Entry, Tournament


def at_table(tournament: Tournament | int, number: int) -> Q:
    """Entries seated at the tournament's table `number` (a playing entry has a seat's row):
    through the seats' unique index, where the entry table has no index by table."""
    tournament_id = tournament if isinstance(tournament, int) else tournament.pk
    return Q(
        seat_row__tournament_table__tournament_id=tournament_id,
        seat_row__tournament_table__number=number,
    )


def table_in_play(tournament: Tournament, number: int) -> TournamentTable:
    """The tournament's open table `number`, or 404 `table_not_found`."""
    table = TournamentTable.objects.filter(
        tournament=tournament, number=number, status=TournamentTable.Status.OPEN
    ).first()
    if table is None:
        raise NotFound(
            "table_not_found",
            _("Table %(n)s is not in play in this tournament.") % {"n": number},
        )
    return table


def table_players_drift(tournament_id: int) -> dict[int, tuple[int, int]]:
    """Tables whose stored `players` differs from a count of their playing entries, as
    number -> (stored, counted); empty when the database triggers keep the counts right."""
    rows = TournamentTable.objects.filter(tournament_id=tournament_id).annotate(
        counted=Count("entries", filter=Q(entries__status=Entry.Status.ACTIVE))
    )
    return {
        number: (stored, counted)
        for number, stored, counted in rows.values_list("number", "players", "counted")
        if stored != counted
    }


def table_blinds(table: TournamentTable) -> Blinds | None:
    if table.button_seat is None or table.big_blind_seat is None:
        return None
    return Blinds(
        button=table.button_seat,
        small_blind=table.small_blind_seat,
        big_blind=table.big_blind_seat,
        dead_small_blind=table.dead_small_blind_seat,
    )


def blinds_fields(blinds: Blinds) -> dict[str, int | None]:
    """The TournamentTable field values that store `blinds`."""
    return {
        "button_seat": blinds.button,
        "small_blind_seat": blinds.small_blind,
        "big_blind_seat": blinds.big_blind,
        "dead_small_blind_seat": blinds.dead_small_blind,
    }


def unavailable_seats(
    tables: list[TournamentTable], within: dict[int, int] | None = None
) -> dict[int, dict[int, str]]:
    """Blocked or reserved seats per TournamentTable id: {tt_id: {seat: kind}}, those within
    each table's seats in play (or `within[tt_id]` seats)."""
    by_table_id = {t.table_id: t for t in tables}
    result: dict[int, dict[int, str]] = defaultdict(dict)
    # read only where loaded: a deferred field (`.only(...)`) would cost a query per table
    tournaments = {getattr(t, "__dict__", {}).get("tournament_id") for t in tables}
    restrictions = SeatRestriction.objects.filter(
        # the tournament's tables by a subquery: a list of 2,778 ids cost more to build than
        # the query took
        table_id__in=TournamentTable.objects.filter(tournament_id=tournaments.pop()).values(
            "table_id"
        )
        if len(tournaments) == 1 and None not in tournaments
        else list(by_table_id)
    )
    for r in restrictions.values_list("table_id", "seat", "kind"):
        table = by_table_id.get(r[0])
        if table is None:
            continue  # a table of the tournament not asked about
        if r[1] <= (table.seats if within is None else within[table.pk]):
            result[table.pk][r[1]] = r[2]
    return result


def occupied_seats(tournament: Tournament) -> dict[int, set[int]]:
    """Seats with a playing entry, per TournamentTable id."""
    result: dict[int, set[int]] = defaultdict(set)
    for tt_id, seat in Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE, tournament_table__isnull=False
    ).values_list("tournament_table_id", "seat"):
        result[tt_id].add(seat)
    return result


def seated_players_by_name(tables: list[dict]) -> list[dict]:
    """Rows {name, table, seat} of a seating chart (`tournament_tables_layout`), by name as the
    active language sorts names (infra/text/collation.py)."""
    rows = [
        {"name": p["player_name"], "table": t["number"], "seat": p["seat"]}
        for t in tables
        for p in t["players"]
    ]
    return sorted_by_name(rows, key=itemgetter("name"))


LAYOUT_TABLE_FIELDS = (
    "id",
    "tournament_id",
    "table_id",
    "number",
    "seats",
    "status",
    "button_seat",
    "small_blind_seat",
    "big_blind_seat",
    "hands_played",
    "h4h_hand_done",
    "button_draw",
)


def tournament_tables_layout(tournament: Tournament, include_idle: bool = False) -> list[dict]:
    """The seating chart: open tables with their seats, players, button and blinds."""
    tables = TournamentTable.objects.filter(tournament=tournament).order_by("number")
    if not include_idle:
        tables = tables.filter(status=TournamentTable.Status.OPEN)
    # Only the fields the chart shows (a draw for 25,000 entrants returns 2,778 tables).
    tables = list(tables.only(*LAYOUT_TABLE_FIELDS))
    wanted = {t.pk for t in tables}
    players: dict[int, list[dict]] = defaultdict(list)
    # Plain rows, not model instances: a draw for 25,000 entrants returns this whole chart.
    rows = (
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ACTIVE, tournament_table__isnull=False
        )
        .order_by("seat")
        .values_list("tournament_table_id", "seat", "pk", "player__name", "waits_for_button")
    )
    for table_id, seat, entry_id, name, waits in rows:
        if table_id not in wanted:
            continue  # an idle table's (none: a table with players is open)
        players[table_id].append(
            {
                "seat": seat,
                "entry_id": entry_id,
                "player_name": name,
                "waits_for_button": waits,
            }
        )
    return tables_layout(tables, unavailable_seats(tables), players)


def tables_layout(
    tables: list[TournamentTable],
    restrictions: dict[int, dict[int, str]],
    players: dict[int, list[dict]],
) -> list[dict]:
    """The seating chart of `tables` (in their order) from what is known of them: the
    `LAYOUT_TABLE_FIELDS` of each, `unavailable_seats(tables)` and, per table id, its playing
    entries by seat as `{seat, entry_id, player_name, waits_for_button}`. The draw builds its
    chart from its own result with this instead of reading it back."""

    def seat_list(t: TournamentTable) -> list[dict]:
        by_seat = {p["seat"]: p for p in players.get(t.pk, [])}
        restricted = restrictions.get(t.pk, {})
        return [
            {"seat": s, "player": by_seat.get(s), "restriction": restricted.get(s)}
            for s in range(1, t.seats + 1)
        ]

    return [
        {
            "id": t.pk,
            "number": t.number,
            "seats": t.seats,
            "status": str(t.status),
            "button_seat": t.button_seat,
            "small_blind_seat": t.small_blind_seat,
            "big_blind_seat": t.big_blind_seat,
            "hands_played": t.hands_played,
            "h4h_hand_done": t.h4h_hand_done,
            "button_draw": [{**c, "label": card_label(c["card"])} for c in t.button_draw],
            "restricted_seats": {str(k): v for k, v in restrictions.get(t.pk, {}).items()},
            "players": players.get(t.pk, []),
            "seat_list": seat_list(t),
        }
        for t in tables
    ]
