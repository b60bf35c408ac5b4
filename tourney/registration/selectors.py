"""What registration checks, read in one statement under the tournament lock.

Registration asked the database five times after taking the lock (the player, an active ban,
a disqualification, the entries' counts, the seats): five round trips and five ORM queries to
build, most of a registration's CPU (docs/benchmarks.md). One plain statement answers all of
it, with the same conditions as `tournament_bans`, `tournament_capacity` and the entry counts;
on PostgreSQL it also takes the new entry's id from its sequence, so that the entry and the
rows that name it can be sent together (`infra.db.write_batch`). It needs nothing from the
locked row in Python, so that it goes to the server with the lock (`tournament_lock_reading`);
it runs once the lock is granted and reads the tournament's row as then committed.

Nothing in it grows with the field: the entries in play are the tournament's own count
(`Tournament.playing`, kept by the database), the last number and the waiting list are read
from the entries' indexes and the player's own entries from his (counting every entry of the
tournament cost PostgreSQL 0.4 ms per registration at 1,000 entries; docs/benchmarks.md).
"""

import functools
from dataclasses import dataclass
from datetime import datetime

from django.db import connection

from clocks.clock.selectors import clock_for, clock_state, clock_view, structure_periods
from clocks.clock.selectors import now_ms as clock_now_ms
from clocks.domain.structures import level_played
from infra.db.raw_rows import model_columns, model_from_row
from tourney.domain.registration import Deadline, deadline
from tourney.models import Entry, LedgerEntry, Player, PlayerBan, Tournament, TournamentEvent
from tourney.tournaments.selectors import (
    CAPACITY_SQL,
    registration_deadline_level,
    tournament_rules,
)

_ACTIVE, _WAITING, _OUT = Entry.Status.ACTIVE, Entry.Status.WAITING, Entry.Status.ELIMINATED


@dataclass(frozen=True)
class RegistrationFacts:
    player: Player
    banned: bool
    disqualified: bool
    playing: int
    waiting: int
    last_number: int | None
    live_number: int | None
    """The number of the player's entry still in play or waiting, if any."""
    out_before: int
    seats: int
    """Seats of the tables not closed, less restrictions (`tournament_capacity` before the
    entry cap)."""
    entry_id: int | None
    """The new entry's id, taken from its sequence (PostgreSQL), else None."""


@functools.cache
def _facts_query() -> tuple[str, list]:
    columns, converters = model_columns(Player, "p")
    entry, ban = Entry._meta.db_table, PlayerBan._meta.db_table
    next_id = (
        f", nextval(pg_get_serial_sequence('{entry}', 'id'))"
        if connection.vendor == "postgresql"
        else ""
    )
    sql = f"""
        SELECT {", ".join(columns)},
            EXISTS (
                SELECT 1 FROM {ban} b WHERE b.player_id = p.id AND b.lifted_at IS NULL
                AND b.starts_at <= %s AND (b.ends_at IS NULL OR b.ends_at > %s)
                AND (b.season_id IS NULL OR b.season_id = t.season_id)
            ),
            mine.disqualified, t.playing,
            (SELECT COUNT(*) FROM {entry} w WHERE w.tournament_id = t.id AND w.status = %s),
            (SELECT MAX(n.number) FROM {entry} n WHERE n.tournament_id = t.id),
            mine.live_number, mine.out_before,
            ({CAPACITY_SQL}){next_id}
        FROM {Player._meta.db_table} p
        CROSS JOIN {Tournament._meta.db_table} t
        CROSS JOIN (
            SELECT
                COUNT(CASE WHEN e.disqualified_at IS NOT NULL THEN 1 END) AS disqualified,
                MAX(CASE WHEN e.status IN (%s, %s) THEN e.number END) AS live_number,
                COUNT(CASE WHEN e.status = %s THEN 1 END) AS out_before
            FROM {entry} e WHERE e.player_id = %s AND e.tournament_id = %s
        ) mine
        WHERE p.id = %s AND t.id = %s
    """
    return sql, converters


def registration_facts_query(tournament_id: int, player_id: int, now: datetime) -> tuple[str, list]:
    """The statement and parameters that read everything `entry_register` checks (run under
    the tournament's lock; its row goes to `registration_facts_of`)."""
    sql, _converters = _facts_query()
    at = connection.ops.adapt_datetimefield_value(now)
    t, p = int(tournament_id), int(player_id)
    return sql, [at, at, _WAITING, t, t, _ACTIVE, _WAITING, _OUT, p, t, p, t]


def registration_facts_of(row: tuple | None) -> RegistrationFacts | None:
    """The facts read by `registration_facts_query`, or None when there is no such player."""
    if row is None:
        return None
    _sql, converters = _facts_query()
    n = len(converters)
    banned, disqualified, playing, waiting, last, live, out_before, seats, *next_id = row[n:]
    return RegistrationFacts(
        player=model_from_row(Player, row[:n], converters),
        banned=bool(banned),
        disqualified=disqualified > 0,
        playing=playing,
        waiting=waiting,
        last_number=last,
        live_number=live,
        out_before=out_before,
        seats=int(seats),
        entry_id=next_id[0] if next_id else None,
    )


OPEN_FOR_REGISTRATION = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)


def refunds_of(entry: Entry):
    """The entry's refund rows (newest first)."""
    return LedgerEntry.objects.filter(
        entry=entry,
        purpose=LedgerEntry.Purpose.ENTRY,
        kind__in=(LedgerEntry.Kind.REFUND_BUY_IN, LedgerEntry.Kind.REFUND_FEE),
    ).order_by("-at", "-id")


def registration_open(tournament: Tournament) -> bool:
    """Entries may still come in: registering, or running before the late-registration
    deadline (docs/rules.md §2.2)."""
    if tournament.status not in OPEN_FOR_REGISTRATION:
        return False
    window = registration_window(tournament)
    return window is None or not window.passed


def registration_window(tournament: Tournament, now_ms: int | None = None) -> Deadline | None:
    """Late registration against the clock (None: no deadline set)."""
    level = registration_deadline_level(tournament)
    if level is None:
        return None
    state = clock_state(clock_for(tournament))
    periods = structure_periods(tournament.structure_id)
    now = now_ms if now_ms is not None else clock_now_ms()
    return deadline(state, periods, now, level)


def players_playing_elsewhere(player_ids: list[int], tournament: Tournament) -> dict[int, Entry]:
    """The players of `player_ids` who already play (seated or waiting) in another event of the
    same room that is under way: the desk warns (one table at a time, Veszprém 002:80; the
    desk decides). Each with his entry there, its tournament and table loaded."""
    if not player_ids or tournament.room_id is None:
        return {}
    entries = (
        Entry.objects.filter(
            player_id__in=player_ids,
            tournament__room_id=tournament.room_id,
            tournament__status=Tournament.Status.RUNNING,
            status__in=(Entry.Status.ACTIVE, Entry.Status.WAITING),
        )
        .exclude(tournament=tournament)
        .select_related("tournament", "tournament_table")
        .order_by("id")
    )
    return {entry.player_id: entry for entry in entries}


def late_refund_open(tournament: Tournament, entry: Entry) -> bool:
    """A late entry made by mistake (docs/rules.md §2.2): playing, registered after the start,
    and the clock still within `late_refund_levels` levels of the one it came in."""
    if (
        entry.status != Entry.Status.ACTIVE
        or tournament.status != Tournament.Status.RUNNING
        or tournament.started_at is None
        or entry.created_at < tournament.started_at
    ):
        return False
    levels = tournament_rules(tournament).late_refund_levels
    if levels == 0:
        return False
    came = (
        TournamentEvent.objects.filter(
            tournament=tournament, kind="clock", at__lte=entry.created_at
        )
        .order_by("-id")
        .values_list("payload", flat=True)
        .first()
    )
    periods = structure_periods(tournament.structure_id)
    now_index = clock_view(tournament)["period_index"]
    came_index = (came or {}).get("period_index", 0)
    return level_played(periods, now_index) <= level_played(periods, came_index) + levels - 1
