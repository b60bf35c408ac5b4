"""The floor's actions once written: confirming them, taking them back, and voiding the moves
that no longer apply (docs/rules.md §5-§7). Operations: they take the locked tournament."""

from collections.abc import Callable, Iterable, Sequence

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.domain.button import Blinds, next_hand_blinds
from tables.domain.floor_field import sits_out_at
from tables.floor.selectors import PENDING, floor_actions_out, pending_origins
from tables.models import FloorAction, TournamentTable
from tables.seating.selectors import table_blinds
from tourney.audit.log import AuditText, audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput
from tourney.domain.house_rules_params import HouseRules
from tourney.events.log import event_append
from tourney.models import Elimination, Entry, Tournament
from tourney.tournaments.selectors import tournament_rules


def _entry_position(entry: Entry) -> list:
    return [entry.tournament_table_id, entry.seat, entry.waits_for_button]


def _sits_out_on_arrival(table: TournamentTable, seat: int, rules: HouseRules) -> bool:
    blinds = table_blinds(table)
    if blinds is None:
        return False
    occupied = set(
        Entry.objects.filter(
            seat_row__tournament_table=table, status=Entry.Status.ACTIVE
        ).values_list("seat", flat=True)
    ) | {seat}
    if len(occupied) < 2:
        return False
    upcoming: Blinds = next_hand_blinds(
        blinds, occupied, table.seats, dead_button=rules.dead_button
    )
    return sits_out_at(seat, upcoming, table.seats, rules.not_dealt)


def _name_mover(actor, tournament: Tournament, action: FloorAction, entry_id: int | None) -> None:
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
                seat_row__tournament_table_id=old_pk, seat=old_seat, status=Entry.Status.ACTIVE
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
    origin = pending_origins(tournament, [entry.pk]).get(entry.pk)
    if origin is None:
        action.payload["before"] = {str(entry.pk): _entry_position(entry)}
        action.from_seat = entry.seat
    else:
        # His own move is pending: he had not got up, so he went from the seat he sat in,
        # and that move is void (docs/rules.md §3.4).
        floor_moves_supersede(actor, tournament, [entry.pk], "moved_again")
        action.from_table, action.from_seat, position = origin
        action.payload["before"] = {str(entry.pk): position}
    entry.tournament_table = destination
    entry.seat = action.to_seat
    entry.waits_for_button = _sits_out_on_arrival(destination, action.to_seat, rules)
    entry.save(update_fields=["tournament_table", "seat", "waits_for_button"])
    action.entry = entry


def floor_action_confirm(
    actor, tournament: Tournament, action: FloorAction, entry_id: int | None = None
) -> dict:
    """The floor confirms `action` (audited, announced); for a move, `entry_id` names who
    moved when the system could not know (or corrects it). Confirming a break or redraw
    confirms all its moves. Returns the action's API row (its parent's, for a child move)."""
    if action.status != PENDING:
        raise Conflict(
            "action_not_pending",
            _("This action is already %(s)s.") % {"s": action.get_status_display().lower()},
        )
    if action.kind != FloorAction.Kind.MOVE and entry_id is not None:
        raise InvalidInput("invalid_input", _("Only a single move can name the player who moved."))
    before = floor_actions_out([action])[0]
    if action.kind == FloorAction.Kind.MOVE:
        _name_mover(actor, tournament, action, entry_id)
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
    after = floor_actions_out([action])[0]
    audit_record(
        actor=actor,
        action="floor.done",
        summary=floor_action_summary(action, after),
        tournament=tournament,
        target=action,
        before=before,
        after=after,
    )
    event_append(tournament, "actions", {"reason": "done", "actions": [row]})
    return row


def _move_params(action: FloorAction, row: dict) -> dict:
    return {
        "name": row.get("player_name") or "—",
        "from": action.from_table,
        "from_seat": action.from_seat,
        "to": action.to_table,
        "to_seat": action.to_seat,
    }


# The activity log's line for each kind of floor action: (confirmed, taken back), and the
# values they name. Marked for translation; stored untranslated and translated when read.
_SUMMARIES: dict[str, tuple[str, str, Callable[[FloorAction, dict], dict]]] = {
    FloorAction.Kind.BREAK_TABLE: (
        gettext_noop("Break of table %(table)s done: its players moved"),
        gettext_noop("Break of table %(table)s undone: its players are back"),
        lambda action, _row: {"table": action.from_table},
    ),
    FloorAction.Kind.FINAL_TABLE_REDRAW: (
        gettext_noop("Final-table redraw done at table %(table)s"),
        gettext_noop("Final-table redraw at table %(table)s undone"),
        lambda action, _row: {"table": action.to_table},
    ),
    FloorAction.Kind.MOVE: (
        gettext_noop(
            "Move done: %(name)s, table %(from)s seat %(from_seat)s → table %(to)s seat %(to_seat)s"
        ),
        gettext_noop(
            "Move undone: %(name)s, back from table %(to)s seat %(to_seat)s to table %(from)s "
            "seat %(from_seat)s"
        ),
        _move_params,
    ),
}


# Older activity logs stored these before the lines above named the player and the seats:
# kept for translation so that those lines are still read in the room's language.
LEGACY_SUMMARIES = (
    gettext_noop("Floor action %(id)s done"),
    gettext_noop("Floor action %(id)s undone"),
)


def floor_action_summary(action: FloorAction, row: dict, undone: bool = False) -> AuditText:
    """The activity log's line for a floor action confirmed (or, `undone`, taken back): who
    went where, or which table broke (the log showed only the action's number)."""
    done_text, undone_text, params = _SUMMARIES.get(action.kind, _SUMMARIES[FloorAction.Kind.MOVE])
    return audit_text(undone_text if undone else done_text, params(action, row))


def _revertible(action: FloorAction) -> bool:
    """Every player of the action still plays where it put them, and every seat they came
    from is at a table in play, free (or freed by this same revert) and not held by a pending
    move: promised to a mover not named yet, or still sat in by another mover."""
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
        .filter(seat_row__tournament_table_id__in=[t for t, _s in targets])
        .values_list("tournament_table_id", "seat")
    )
    pk_of = dict(
        TournamentTable.objects.filter(tournament_id=action.tournament_id).values_list(
            "number", "pk"
        )
    )
    # Seats pending moves hold (docs/rules.md §3.4): the seat promised to a mover not named
    # yet, and the seat a named mover (not one of these) still sits in though charted away.
    for entry_id, from_table, from_seat, to_table, to_seat in FloorAction.objects.filter(
        tournament_id=action.tournament_id, kind=FloorAction.Kind.MOVE, status=PENDING
    ).values_list("entry_id", "from_table", "from_seat", "to_table", "to_seat"):
        if entry_id is None:
            taken.add((pk_of.get(to_table), to_seat))
        elif entry_id not in ids and from_seat is not None:
            taken.add((pk_of.get(from_table), from_seat))
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


def reverted_tables(actions: Sequence[FloorAction]) -> list[int]:
    """The tables (ids) that reverting `actions` brought back into play, and those their
    players left again: a mover taken back may have held the big blind there (§4.7)."""
    reopened = [int(pk) for a in actions for pk in a.payload.get("tables_before", {})]
    moves = [
        m for a in actions for m in ([a] if a.kind == FloorAction.Kind.MOVE else a.children.all())
    ]
    numbers = {m.to_table for m in moves if m.entry_id is not None and m.to_table is not None}
    left = TournamentTable.objects.filter(
        tournament_id__in={a.tournament_id for a in actions}, number__in=numbers
    ).values_list("pk", flat=True)
    return list(dict.fromkeys([*reopened, *left]))


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


# The activity log's line for a pending move that no longer applies (docs/rules.md §3.4), by
# why it is void, and for a break or redraw left with no move to confirm. Marked for
# translation; stored untranslated and translated when read, like the lines above.
VOID_SUMMARIES = {
    "finished": gettext_noop(
        "Move void: %(name)s, table %(from)s seat %(from_seat)s → table %(to)s seat "
        "%(to_seat)s; the tournament is over"
    ),
    "busted": gettext_noop(
        "Move void: %(name)s went out at table %(from)s seat %(from_seat)s before moving to "
        "table %(to)s seat %(to_seat)s"
    ),
    "moved_again": gettext_noop(
        "Move void: %(name)s, table %(from)s seat %(from_seat)s → table %(to)s seat "
        "%(to_seat)s; moved again before it was confirmed"
    ),
    "seated_by_hand": gettext_noop(
        "Move void: %(name)s, table %(from)s seat %(from_seat)s → table %(to)s seat "
        "%(to_seat)s; seated by hand instead"
    ),
    "replanned": gettext_noop(
        "Move void: table %(from)s → table %(to)s seat %(to_seat)s, its player not named "
        "yet; the floor plans again"
    ),
}
PARENT_VOID_SUMMARIES = {
    FloorAction.Kind.BREAK_TABLE: gettext_noop(
        "Break of table %(table)s void: none of its moves is left to confirm"
    ),
    FloorAction.Kind.FINAL_TABLE_REDRAW: gettext_noop(
        "Final-table redraw at table %(table)s void: none of its moves is left to confirm"
    ),
}


def _void_audit(actor, tournament: Tournament, actions: list[FloorAction], summary) -> None:
    """Supersede `actions` (pending), one statement, and audit each as floor.void."""
    before = floor_actions_out(actions)
    FloorAction.objects.filter(pk__in=[a.pk for a in actions]).update(
        status=FloorAction.Status.SUPERSEDED
    )
    for action, was in zip(actions, before, strict=True):
        action.status = FloorAction.Status.SUPERSEDED
        after = {**was, "status": action.status}
        audit_record(
            actor=actor,
            action="floor.void",
            summary=summary(action, after),
            tournament=tournament,
            target=action,
            before=was,
            after=after,
        )


def floor_moves_void(actor, tournament: Tournament, moves, reason: str) -> list[FloorAction]:
    """The pending moves among `moves` (a FloorAction query) no longer apply: void (superseded,
    they hold no seat), each audited as floor.void naming its player, tables and seats and why
    (`VOID_SUMMARIES[reason]`); a break or redraw left with nothing to confirm goes with them,
    audited too. Returns the moves voided."""
    void = list(moves.filter(kind=FloorAction.Kind.MOVE, status=PENDING).order_by("pk"))
    if not void:
        return []
    _void_audit(
        actor,
        tournament,
        void,
        lambda action, row: audit_text(VOID_SUMMARIES[reason], _move_params(action, row)),
    )
    parents = list(
        FloorAction.objects.filter(tournament=tournament, parent__isnull=True, status=PENDING)
        .exclude(kind=FloorAction.Kind.MOVE)
        .exclude(children__status=PENDING)
        .order_by("pk")
    )
    if parents:
        _void_audit(
            actor,
            tournament,
            parents,
            lambda action, _row: audit_text(
                PARENT_VOID_SUMMARIES[action.kind],
                {"table": action.from_table or action.to_table},
            ),
        )
    return void


def floor_moves_supersede(
    actor, tournament: Tournament, entry_ids: Iterable[int], reason: str
) -> list[FloorAction]:
    """Unconfirmed moves of these players no longer apply (moved again, seated by hand, or
    busted: `reason`, a `VOID_SUMMARIES` key), each audited (`floor_moves_void`)."""
    moves = FloorAction.objects.filter(tournament=tournament, entry_id__in=list(entry_ids))
    return floor_moves_void(actor, tournament, moves, reason)
