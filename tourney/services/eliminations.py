"""Bust-outs (docs/rules.md §11): finishing places, the floor's consequences, and undo.

Every elimination, whether reported from a table or applied by the absent-player deadline, is
written here: an `Elimination` row per entry, entries busted in the same hand sharing a
`bust_group` (under hand-for-hand, every bust of that hand-for-hand hand at any table). Places
come from `tourney.domain.places`; when a later bust joins a hand-for-hand hand, or a bust is
undone, the places of the group and of every later bust are set again, so the results always
read as if the mistake had never happened.
"""

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.services.clock_finish import clock_restart_after_undo, clock_stop_at_finish
from tables.models import FloorAction, TournamentTable
from tables.services.floor import (
    TABLE_TOTALS_SQL,
    FieldShape,
    field_shape_after_bust,
    field_shape_params,
    field_shape_select,
    floor_actions_out,
    floor_actions_revert_caused_by,
    floor_moves_supersede,
    floor_replan,
    reopened_tables,
    table_totals_params,
)
from tables.services.table_positions import restored_tables_positions
from tourney.domain.places import Bust, places_for_busts
from tourney.errors import Conflict, InvalidInput
from tourney.models import Deal, Elimination, Entry, Player, Tournament
from tourney.selectors import tournament_rules
from tourney.services.audit import audit_entry, audit_record, audit_text
from tourney.services.entries import entry_of, entry_snapshot, promotions_undo, seats_freed
from tourney.services.events import event_append, event_new
from tourney.services.locks import tournament_lock
from tourney.write_batch import WriteBatch

# Marked for translation; stored untranslated and translated when the log is read.
ELIMINATION_SUMMARIES = {
    Elimination.Reason.BUST: gettext_noop("%(name)s eliminated, place %(place)s"),
    Elimination.Reason.ABSENT: gettext_noop(
        "%(name)s eliminated: still absent at the deadline, place %(place)s"
    ),
}


def _standing(tournament: Tournament):
    return Elimination.objects.filter(tournament=tournament, undone_at__isnull=True)


@dataclass(frozen=True, slots=True)
class BustContext:
    """What a bust-out needs to know about the field, read in one statement."""

    remaining: int
    """Players still in before these busts."""
    last_group: int
    """The highest bust group of the standing bust-outs (0: none yet)."""
    pending_moves: int
    """Pending floor moves of the players busting now (void once they are out)."""
    waiting: int = 0
    """Entries on the waiting list: the freed seats go to them (docs/rules.md §2.1)."""


# Players left: the tables' stored counts (kept by the database, tables migration 0006) plus
# any playing entry without a seat; counting 10,000 entries took PostgreSQL about 1 ms.
_SEATED_SQL = f"""
    (SELECT COALESCE(SUM(players), 0) FROM {TournamentTable._meta.db_table}
        WHERE tournament_id = %s)
"""
_UNSEATED_SQL = f"""
    (SELECT COUNT(*) FROM {Entry._meta.db_table}
        WHERE tournament_table_id IS NULL AND status = %s AND tournament_id = %s)
"""
_REMAINING_SQL = f"{_SEATED_SQL} + {_UNSEATED_SQL}"
_LAST_GROUP_SQL = f"""
    (SELECT COALESCE(MAX(bust_group), 0) FROM {Elimination._meta.db_table}
        WHERE tournament_id = %s AND undone_at IS NULL)
"""
_WAITING_SQL = f"""
    (SELECT COUNT(*) FROM {Entry._meta.db_table} WHERE tournament_id = %s AND status = %s)
"""
_PENDING_MOVES_SQL = f"""
    (SELECT COUNT(*) FROM {FloorAction._meta.db_table}
        WHERE tournament_id = %s AND kind = %s AND status = %s AND entry_id IN ({{ids}}))
"""


def _unseated_params(tid: int) -> list:
    return [Entry.Status.ACTIVE, tid]


def _remaining_params(tid: int) -> list:
    return [tid, *_unseated_params(tid)]


def _pending_params(tid: int) -> list:
    return [tid, FloorAction.Kind.MOVE, FloorAction.Status.PENDING]


def bust_context(tournament: Tournament, entry_ids: Sequence[int]) -> BustContext:
    """The players left, the last bust group and the busting players' pending moves: one
    statement instead of three ORM queries (each costs more to build than to run)."""
    tid = tournament.pk
    pending = _PENDING_MOVES_SQL.format(ids=", ".join(["%s"] * len(entry_ids)) or "NULL")
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {_REMAINING_SQL}, {_LAST_GROUP_SQL}, {pending}, {_WAITING_SQL}",
            [
                *_remaining_params(tid),
                tid,
                *_pending_params(tid),
                *entry_ids,
                tid,
                Entry.Status.WAITING,
            ],
        )
        remaining, last_group, pending_moves, waiting = cursor.fetchone()
    return BustContext(int(remaining), int(last_group), int(pending_moves), int(waiting))


def _bust(e: Elimination) -> Bust:
    return Bust(entry_id=e.entry_id, start_stack=e.hand_start_stack, table=e.table_number)


def _place_group(
    rows: Sequence[Elimination], remaining_before: int, hand_for_hand: bool, h4h_mode: str
) -> None:
    """Set `place`/`place_to` of one bust group's rows (saved by the caller)."""
    try:
        placings = places_for_busts(
            remaining_before,
            [_bust(e) for e in rows],
            hand_for_hand=hand_for_hand,
            h4h_mode=h4h_mode,
        )
    except ValueError as exc:
        raise InvalidInput(
            "hand_start_stack_required",
            _("Give the stack at the start of the hand for every player busted in it, or none."),
        ) from exc
    by_entry = {p.entry_id: p for p in placings}
    for row in rows:
        row.place, row.place_to = by_entry[row.entry_id].place, by_entry[row.entry_id].place_to


def _results(rows: Sequence[Elimination], names: dict[int, str]) -> list[dict]:
    return [
        {
            "entry_id": e.entry_id,
            "player_name": names.get(e.entry_id, ""),
            "place": e.place,
            "place_to": e.place_to,
            "table": e.table_number,
            "seat": e.seat,
            "hand_start_stack": e.hand_start_stack,
        }
        for e in sorted(rows, key=lambda e: (e.place, e.entry_id))
    ]


def _finish_if_won(actor, tournament: Tournament, now, left: int) -> Entry | None:
    """One player left (`left`, counted by the caller): the winner takes 1st place and the
    tournament is over."""
    if left != 1:
        return None
    standing = list(
        Entry.objects.select_related("player").filter(
            tournament=tournament, status=Entry.Status.ACTIVE
        )[:2]
    )
    if len(standing) != 1 or tournament.status != Tournament.Status.RUNNING:
        return None
    winner = standing[0]
    winner.place = 1
    winner.save(update_fields=["place"])
    tournament.status = Tournament.Status.FINISHED
    tournament.finished_at = now
    tournament.save(update_fields=["status", "finished_at"])
    clock_stop_at_finish(actor=actor, tournament=tournament)  # no more levels (§1.4)
    audit_record(
        actor=actor,
        action="tournament.finish",
        summary=audit_text(
            gettext_noop("%(name)s wins %(tournament)s"),
            {"name": winner.player.name, "tournament": tournament.name},
        ),
        tournament=tournament,
        target=tournament,
        before={"status": "running"},
        after={"status": "finished", "winner_entry_id": winner.pk},
    )
    event_append(
        tournament,
        "tournament",
        {
            "status": tournament.status,
            "winner": {"entry_id": winner.pk, "name": winner.player.name},
        },
    )
    return winner


def eliminations_apply(
    *,
    actor,
    tournament: Tournament,
    busts: Sequence[tuple[Entry, int | None]],
    reason: str = Elimination.Reason.BUST,
    remove_stacks: bool = False,
    now=None,
    remaining: int | None = None,
    context: BustContext | None = None,
) -> list[Elimination]:
    """Eliminate entries busted in one hand, inside the caller's transaction (tournament row
    locked, entries checked as playing). Returns the rows of the whole bust group (a
    hand-for-hand hand may have earlier busts from other tables), places set. `context`
    (`bust_context` of these entries) when the caller has read it already; `remaining`: the
    players still in before these busts, when the caller has counted them (without a
    context)."""
    now = now or timezone.now()
    if context is None:
        context = bust_context(tournament, [entry.pk for entry, _stack in busts])
    if remaining is None:
        remaining = context.remaining
    standing = _standing(tournament)
    h4h = tournament.hand_for_hand and reason == Elimination.Reason.BUST
    group: list[Elimination] = (
        list(
            standing.filter(h4h_hand=tournament.h4h_hand, reason=reason).select_related(
                "entry__player"
            )
        )
        if h4h
        else []
    )
    bust_group = group[0].bust_group if group else context.last_group + 1
    user = actor if actor is not None and actor.is_authenticated else None
    new_rows = [
        Elimination(
            tournament=tournament,
            entry=entry,
            bust_group=bust_group,
            reason=reason,
            hand_start_stack=stack,
            table_number=entry.tournament_table.number if entry.tournament_table_id else None,
            seat=entry.seat,
            h4h_hand=tournament.h4h_hand if h4h else None,
            at=now,
            by=user,
            place=0,
            place_to=0,
        )
        for entry, stack in busts
    ]
    rows = group + new_rows
    _place_group(rows, remaining + len(group), h4h, tournament_rules(tournament).h4h_mode)
    for row in group:
        row.save(update_fields=["place", "place_to"])
        Entry.objects.filter(pk=row.entry_id).update(place=row.place)
    if context.pending_moves:
        # A move planned for a player who has now busted is void.
        floor_moves_supersede(tournament, [entry.pk for entry, _stack in busts])
    removed = tournament.starting_stack * len(busts) if remove_stacks else 0
    if removed:
        tournament.chips_removed += removed
        tournament.save(update_fields=["chips_removed"])
    # The rows, the entries, the audit and the event need no answer in between: one round
    # trip to PostgreSQL for all of them (tourney/write_batch.py).
    batch = WriteBatch()
    for row in new_rows:
        batch.insert(row)
    for (entry, _stack), row in zip(busts, new_rows, strict=True):
        before = entry_snapshot(entry)
        entry.status = Entry.Status.ELIMINATED
        entry.place = row.place
        entry.ended_at = now
        entry.absent_since = None
        entry.waits_for_button = False
        batch.update(entry, ["status", "place", "ended_at", "absent_since", "waits_for_button"])
        batch.insert(
            audit_entry(
                actor=actor,
                action="entry.eliminate",
                summary=audit_text(
                    ELIMINATION_SUMMARIES.get(
                        reason, ELIMINATION_SUMMARIES[Elimination.Reason.BUST]
                    ),
                    {"name": entry.player.name, "place": row.place},
                ),
                tournament=tournament,
                target=entry,
                before=before,
                after={
                    **entry_snapshot(entry),
                    "place": row.place,
                    "place_to": row.place_to,
                    "hand_start_stack": row.hand_start_stack,
                    "bust_group": bust_group,
                },
            )
        )
    names = {e.pk: e.player.name for e, _s in busts}
    names.update((r.entry_id, r.entry.player.name) for r in group)
    batch.insert(
        event_new(
            tournament,
            "eliminations",
            {
                "reason": reason,
                "results": _results(rows, names),
                "place_from": min(r.place for r in rows),
                "place_to": max(r.place_to for r in rows),
                "players_remaining": remaining - len(busts),
                "chips_removed": removed,
                "hand_for_hand": h4h,
            },
        )
    )
    batch.flush()
    _finish_if_won(actor, tournament, now, remaining - len(busts))
    return rows


# What a bust-out reads and writes of an entry (the snapshot, the audit, the elimination row):
# the rest of the three rows (a table's button-draw JSON...) would only cost time to load.
BUSTED_COLUMNS = (
    "id",
    "tournament_id",
    "player_id",
    "number",
    "status",
    "tournament_table_id",
    "seat",
    "place",
    "ended_at",
    "absent_since",
    "waits_for_button",
)


@functools.cache
def _busted_sql(count: int) -> str:
    """The busting entries with their players' names and tables, the `bust_context` and the
    floor's `field_shape_select`: one statement, its SQL built once per number of entries
    (building it with the ORM took longer than running it)."""
    pending = _PENDING_MOVES_SQL.format(ids=", ".join(["%s"] * count))
    extra = [
        "p.name AS player_name",
        "t.status AS table_status",
        "t.number AS table_number",
        "t.players AS table_players",
        f"totals.seated + {_UNSEATED_SQL} AS context_remaining",
        f"{_LAST_GROUP_SQL} AS context_last_group",
        f"{pending} AS context_pending",
        f"{_WAITING_SQL} AS context_waiting",
        *(f"{sql} AS shape_{i}" for i, sql in enumerate(field_shape_select(count, "totals"))),
    ]
    return f"""
        SELECT {", ".join(f"e.{c}" for c in BUSTED_COLUMNS)}, {", ".join(extra)}
        FROM {Entry._meta.db_table} AS e
        JOIN {Player._meta.db_table} AS p ON p.id = e.player_id
        LEFT JOIN {TournamentTable._meta.db_table} AS t ON t.id = e.tournament_table_id
        CROSS JOIN {TABLE_TOTALS_SQL} AS totals
        WHERE e.tournament_id = %s AND e.id IN ({", ".join(["%s"] * count)})
    """


def _busted_entries(
    tournament: Tournament, entry_ids: Sequence[int]
) -> tuple[list[Entry], BustContext, FieldShape | None]:
    """The entries busting, checked as playing, the `bust_context` read with them, and the
    floor's field shape once they are out (None: the floor must read it afresh)."""
    if not entry_ids:
        raise InvalidInput("invalid_input", _("Name at least one busted player."))
    if len(set(entry_ids)) != len(entry_ids):
        raise InvalidInput("duplicate_entry", _("A player appears twice in the same bust-out."))
    tid, ids = tournament.pk, list(entry_ids)
    params = [
        *_unseated_params(tid),
        tid,
        *_pending_params(tid),
        *ids,
        tid,
        Entry.Status.WAITING,
        *field_shape_params(tournament, ids),
        *table_totals_params(tournament),
        tid,
        *ids,
    ]
    found = {e.pk: e for e in Entry.objects.raw(_busted_sql(len(ids)), params)}
    entries = []
    for entry_id in entry_ids:
        entry = found.get(entry_id) or entry_of(tournament, entry_id)  # entry_of: the 404
        entry.player = Player(pk=entry.player_id, name=entry.player_name)
        if entry.status == Entry.Status.ELIMINATED:
            raise Conflict(
                "already_eliminated",
                _("%(name)s is already out (place %(place)s).")
                % {"name": entry.player.name, "place": entry.place},
            )
        if entry.status != Entry.Status.ACTIVE or entry.tournament_table_id is None:
            raise Conflict(
                "entry_not_playing",
                _("%(name)s is not playing at a table.") % {"name": entry.player.name},
            )
        entry.tournament_table = TournamentTable(
            pk=entry.tournament_table_id,
            number=entry.table_number,
            status=entry.table_status,
            players=entry.table_players,
        )
        entries.append(entry)
    first = entries[0]
    context = BustContext(
        int(first.context_remaining),
        int(first.context_last_group),
        int(first.context_pending),
        int(first.context_waiting),
    )
    # Without a pending move of the busted to void, the field's shape after the bust follows
    # from this read (one statement less for the floor).
    shape = None
    if not context.pending_moves:
        shape = field_shape_after_bust(
            [e.tournament_table for e in entries],
            [getattr(first, f"shape_{i}") for i in range(len(field_shape_select(1, "totals")))],
        )
    return entries, context, shape


def seats_freed_by(tournament: Tournament, actor, rows: Sequence[Elimination]) -> None:
    """After `eliminations_apply` outside a reported bust-out (an absent player's deadline, a
    disqualification): the waiting list takes the freed seats (docs/rules.md §2.1)."""
    if rows:
        seats_freed(tournament, actor, rows[0].pk)


def eliminations_record(
    *,
    actor,
    tournament_id: int,
    eliminations: Sequence[tuple[int, int | None]],
    rng: random.Random | None = None,
    authorize: Callable[[], None] | None = None,
) -> dict:
    """Players busted in the same hand, as (entry_id, stack at the start of the hand or None).

    Sets their places, then the moves, breaks or final-table redraw the field now needs.
    Refused (nothing changed) for a player already out, one not seated, a duplicate, stacks
    given for some but not all, or busting every remaining player. `authorize` runs once the
    tournament is locked (where the players sit cannot change under it) and raises to refuse.
    """
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        if authorize is not None:
            authorize()
        if tournament.status != Tournament.Status.RUNNING:
            raise Conflict(
                "tournament_not_running",
                _("Bust-outs are recorded while the tournament is running."),
            )
        entries, context, shape = _busted_entries(
            tournament, [entry_id for entry_id, _s in eliminations]
        )
        stacks = [stack for _e, stack in eliminations]
        if any(s is not None and s < 1 for s in stacks):
            raise InvalidInput(
                "invalid_stack", _("A stack at the start of the hand must be at least 1 chip.")
            )
        if len(entries) >= context.remaining:
            raise Conflict(
                "last_player", _("At least one player must remain: that player is the winner.")
            )
        rows = eliminations_apply(
            actor=actor,
            tournament=tournament,
            busts=list(zip(entries, stacks, strict=True)),
            context=context,
        )
        new_ids = {e.pk for e in entries}
        cause = next(r for r in rows if r.entry_id in new_ids)
        if context.waiting and seats_freed(tournament, actor, cause.pk):
            shape = None  # an alternate sat down: the shape read with the entries is stale
        actions = floor_replan(
            actor=actor, tournament=tournament, cause=cause, rng=rng, shape=shape
        )
        names = {r.entry_id: r.entry.player.name for r in rows}
        return {"results": _results(rows, names), "actions": floor_actions_out(actions)}


def _reseat(tournament: Tournament, entry: Entry, rng: random.Random, now) -> None:
    """The undone player's own seat when it is still there, else a late-entry seat."""
    from tables.services.seating import entry_seat_late, held_seats

    # Read afresh: undoing the bust may just have reopened a broken table.
    table = TournamentTable.objects.filter(pk=entry.tournament_table_id).first()
    free = (
        table is not None
        and table.status == TournamentTable.Status.OPEN
        and not Entry.objects.filter(
            tournament_table=table, seat=entry.seat, status=Entry.Status.ACTIVE
        ).exists()
        and entry.seat not in held_seats(tournament).get(table.number, set())
    )
    if not free:
        entry_seat_late(tournament, entry, tournament_rules(tournament), rng, now)


def elimination_undo(
    *,
    actor,
    tournament_id: int,
    entry_id: int,
    rng: random.Random | None = None,
    allow_disqualified: bool = False,
) -> dict:
    """Undo a bust-out: the player is back in play (own seat if still free), the places of the
    rest of the hand and of every later bust move up by one, and the moves or breaks it caused
    that the floor has not carried out yet are taken back.

    A disqualification is taken back only through its penalty (`allow_disqualified`, which
    also returns the chips and lifts the ban); a bust-out before a standing deal is refused (the
    deal shared the pool among the players then left)."""
    rng = rng or random.SystemRandom()
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        entry = entry_of(tournament, entry_id)
        row = _standing(tournament).filter(entry=entry).first()
        if row is None or entry.status != Entry.Status.ELIMINATED:
            raise Conflict(
                "not_eliminated", _("%(name)s is not out.") % {"name": entry.player.name}
            )
        if row.reason == Elimination.Reason.DISQUALIFIED and not allow_disqualified:
            raise Conflict(
                "disqualified",
                _("%(name)s was disqualified: undo the penalty instead.")
                % {"name": entry.player.name},
            )
        if Deal.objects.filter(tournament=tournament, undone_at=None, at__gt=row.at).exists():
            raise Conflict(
                "deal_made",
                _("A deal was made after %(name)s went out: undo the deal first.")
                % {"name": entry.player.name},
            )
        if Entry.objects.filter(
            tournament=tournament, player=entry.player, status=Entry.Status.ACTIVE
        ).exists():
            raise Conflict(
                "player_playing",
                _("%(name)s plays again on another entry.") % {"name": entry.player.name},
            )
        now = timezone.now()
        before = {**entry_snapshot(entry), "place": row.place, "place_to": row.place_to}
        rules = tournament_rules(tournament)
        promotions_undo(tournament, actor, row.pk)  # the seat was never free (§2.1)
        group = list(_standing(tournament).filter(bust_group=row.bust_group).exclude(pk=row.pk))
        # What the hand's bust-outs caused together (a break) is taken back; the replan
        # below makes again whatever the field still needs.
        reverted = floor_actions_revert_caused_by(tournament, [row, *group], actor, now)
        # Later busts (better places) each finished one place worse with this player back:
        # one UPDATE each for their rows and their entries, whatever the size of the field.
        better = min([row.place, *(g.place for g in group)])
        _standing(tournament).filter(place_to__lt=better).update(
            place=F("place") + 1, place_to=F("place_to") + 1
        )
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ELIMINATED, place__lt=better
        ).update(place=F("place") + 1)
        if group:
            worst = max(g.place_to for g in [row, *group])
            h4h = group[0].h4h_hand is not None
            _place_group(group, worst, h4h, rules.h4h_mode)
            for g in group:
                g.save(update_fields=["place", "place_to"])
                Entry.objects.filter(pk=g.entry_id).update(place=g.place)
        row.undone_at = now
        row.undone_by = actor if actor is not None and actor.is_authenticated else None
        row.save(update_fields=["undone_at", "undone_by"])
        if tournament.status == Tournament.Status.FINISHED:
            Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, place=1).update(
                place=None
            )
            tournament.status = Tournament.Status.RUNNING
            tournament.finished_at = None
            tournament.save(update_fields=["status", "finished_at"])
            event_append(tournament, "tournament", {"status": tournament.status})
            clock_restart_after_undo(actor=actor, tournament=tournament)  # §11.7
        if row.reason == Elimination.Reason.ABSENT:
            tournament.chips_removed = max(0, tournament.chips_removed - tournament.starting_stack)
            tournament.save(update_fields=["chips_removed"])
        entry.status = Entry.Status.ACTIVE
        entry.place = None
        entry.ended_at = None
        entry.refresh_from_db(fields=["tournament_table", "seat"])
        _reseat(tournament, entry, rng, now)
        entry.save(
            update_fields=[
                "status",
                "place",
                "ended_at",
                "tournament_table",
                "seat",
                "waits_for_button",
                "seated_at",
            ]
        )
        restored_tables_positions(actor, tournament, reopened_tables(reverted))  # §4.7
        after = entry_snapshot(entry)
        audit_record(
            actor=actor,
            action="entry.eliminate_undo",
            summary=audit_text(
                gettext_noop("Bust-out of %(name)s undone: back at table %(t)s seat %(s)s"),
                {"name": entry.player.name, "t": after["table"], "s": after["seat"]},
            ),
            tournament=tournament,
            target=entry,
            before=before,
            after={**after, "reverted_actions": [a.pk for a in reverted]},
        )
        event_append(
            tournament,
            "eliminations",
            {
                "reason": "undo",
                "results": [{"entry_id": entry.pk, "player_name": entry.player.name, **after}],
                "players_remaining": Entry.objects.filter(
                    tournament=tournament, status=Entry.Status.ACTIVE
                ).count(),
                "reverted_actions": [a.pk for a in reverted],
            },
        )
        if reverted:
            event_append(
                tournament,
                "actions",
                {"reason": "undone", "actions": floor_actions_out(reverted)},
            )
        actions = floor_replan(actor=actor, tournament=tournament, rng=rng)
        return {
            "entry": {**after, "player_name": entry.player.name},
            "reverted_actions": floor_actions_out(reverted),
            "actions": floor_actions_out(actions),
        }
