"""Bust-outs (docs/rules.md §11): the operations that place and write them.

Every elimination, whether reported from a table or applied by the absent-player deadline, is
written here: an `Elimination` row per entry, entries busted in the same hand sharing a
`bust_group` (under hand-for-hand, every bust of that hand-for-hand hand at any table). Places
come from `tourney.domain.places`; when a later bust joins a hand-for-hand hand, or a bust is
undone, the places of the group and of every later bust are set again, so the results always
read as if the mistake had never happened.

These take the locked tournament and touch neither the floor nor the clock: `eliminations_apply`
returns what follows (the busted players' moves to void, a winner whose clock stops), and the
use case follows it (`tourney.eliminations.follow.eliminations_follow`).
"""

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from infra.db.write_batch import WriteBatch
from tables.floor.selectors import pending_origins
from tables.models import TournamentTable
from tourney.audit.log import audit_entry, audit_record, audit_text
from tourney.core.errors import InvalidInput
from tourney.domain.places import Bust, places_for_busts
from tourney.eliminations.selectors import BustContext, bust_context
from tourney.events.log import event_append, event_new
from tourney.models import Elimination, Entry, Tournament
from tourney.satellites.operations import satellite_finished, satellite_won_announce
from tourney.tournaments.selectors import entry_snapshot, tournament_rules

# Marked for translation; stored untranslated and translated when the log is read.
ELIMINATION_SUMMARIES = {
    Elimination.Reason.BUST: gettext_noop("%(name)s eliminated, place %(place)s"),
    Elimination.Reason.ABSENT: gettext_noop(
        "%(name)s eliminated: still absent at the deadline, place %(place)s"
    ),
}


def standing_eliminations(tournament: Tournament):
    return Elimination.objects.filter(tournament=tournament, undone_at__isnull=True)


def _bust(e: Elimination) -> Bust:
    return Bust(entry_id=e.entry_id, start_stack=e.hand_start_stack, table=e.table_number)


def place_group(
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


def elimination_results(rows: Sequence[Elimination], names: dict[int, str]) -> list[dict]:
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


@dataclass(frozen=True, slots=True)
class BustOutcome:
    """What `eliminations_apply` wrote, and what follows from it in other sub-domains."""

    rows: list[Elimination]
    """The rows of the whole bust group, places set (a hand-for-hand hand may have earlier
    busts from other tables)."""
    busted: list[int]
    """The entries busted now."""
    pending_moves: bool
    """They had pending floor moves, void now that they are out."""
    winner: Entry | None = None
    """One player is left: the tournament is over (the clock stops, then
    `tournament_won_announce`)."""


def tournament_won(tournament: Tournament, now, left: int) -> Entry | None:
    """One player left (`left`, counted by the caller): the winner takes 1st place and the
    tournament is over. A satellite is over sooner, when the players left are no more than its
    seats (they share 1st place, docs/rules.md §17.3). Returns the (first) winner (None: play
    goes on)."""
    if tournament.satellite and (seat_winners := satellite_finished(tournament, now, left)):
        return seat_winners[0]
    if left != 1 or tournament.main_event_id is not None:
        return None  # a flight has no winner: its last players bag (docs/rules.md §15.3)
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
    return winner


def tournament_won_announce(actor, tournament: Tournament, winner: Entry) -> None:
    """The finish's audit entry and `tournament` event (after the clock stopped, §1.4)."""
    if tournament.satellite:
        satellite_won_announce(actor, tournament)
        return
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


def _group_so_far(tournament: Tournament, h4h: bool, reason: str) -> list[Elimination]:
    """Under hand-for-hand, the standing busts of the current hand-for-hand hand."""
    if not h4h:
        return []
    return list(
        standing_eliminations(tournament)
        .filter(h4h_hand=tournament.h4h_hand, reason=reason)
        .select_related("entry__player")
    )


def _where_they_sit(tournament: Tournament, busts: Sequence[tuple[Entry, int | None]]) -> set[int]:
    """A pending mover busts where he sits: in his old seat, which he has not left until the
    floor confirms his move (docs/rules.md §3.4), not in the seat the chart promised him. The
    busting entries that are pending movers are put back there (in memory; the bust's writes
    store it), so the elimination, its audit entry and its event name that table and seat,
    and an undo of the bust brings him back to it. Their moves are void (`BustOutcome`).
    Returns the entries put back."""
    origins = pending_origins(tournament, [entry.pk for entry, _stack in busts])
    for entry, _stack in busts:
        if entry.pk in origins:
            number, _seat, (table_id, seat, _waits) = origins[entry.pk]
            entry.tournament_table = TournamentTable(pk=table_id, number=number)
            entry.seat = seat
    return set(origins)


def _entry_writes(
    batch: WriteBatch,
    actor,
    tournament: Tournament,
    busts: Sequence[tuple[Entry, int | None]],
    new_rows: Sequence[Elimination],
    reason: str,
    now,
    relocated: Collection[int] = (),
) -> None:
    """The busted entries, out, and an audit entry each, into `batch` (`relocated`: pending
    movers put back in the seat they sat in, `_where_they_sit`)."""
    summary = ELIMINATION_SUMMARIES.get(reason, ELIMINATION_SUMMARIES[Elimination.Reason.BUST])
    for (entry, _stack), row in zip(busts, new_rows, strict=True):
        before = entry_snapshot(entry)
        entry.status = Entry.Status.ELIMINATED
        entry.place = row.place
        entry.ended_at = now
        entry.absent_since = None
        entry.waits_for_button = False
        fields = ["status", "place", "ended_at", "absent_since", "waits_for_button"]
        batch.update(
            entry, [*fields, "tournament_table", "seat"] if entry.pk in relocated else fields
        )
        batch.insert(
            audit_entry(
                actor=actor,
                action="entry.eliminate",
                summary=audit_text(summary, {"name": entry.player.name, "place": row.place}),
                tournament=tournament,
                target=entry,
                before=before,
                after={
                    **entry_snapshot(entry),
                    "place": row.place,
                    "place_to": row.place_to,
                    "hand_start_stack": row.hand_start_stack,
                    "bust_group": row.bust_group,
                },
            )
        )


def _new_rows(
    actor,
    tournament: Tournament,
    busts: Sequence[tuple[Entry, int | None]],
    bust_group: int,
    reason: str,
    h4h: bool,
    now,
) -> list[Elimination]:
    """The busts' `Elimination` rows, unsaved and not placed yet, each at the table and seat
    its player busted in."""
    user = actor if actor is not None and actor.is_authenticated else None
    return [
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
) -> BustOutcome:
    """Eliminate entries busted in one hand, inside the caller's transaction (tournament row
    locked, entries checked as playing). `context` (`bust_context` of these entries) when the
    caller has read it already; `remaining`: the players still in before these busts, when
    the caller has counted them (without a context)."""
    now = now or timezone.now()
    if context is None:
        context = bust_context(tournament, [entry.pk for entry, _stack in busts])
    if remaining is None:
        remaining = context.remaining
    relocated = _where_they_sit(tournament, busts) if context.pending_moves else set()
    h4h = tournament.hand_for_hand and reason == Elimination.Reason.BUST
    group = _group_so_far(tournament, h4h, reason)
    bust_group = group[0].bust_group if group else context.last_group + 1
    new_rows = _new_rows(actor, tournament, busts, bust_group, reason, h4h, now)
    rows = group + new_rows
    place_group(rows, remaining + len(group), h4h, tournament_rules(tournament).h4h_mode)
    for row in group:
        row.save(update_fields=["place", "place_to"])
        Entry.objects.filter(pk=row.entry_id).update(place=row.place)
    removed = tournament.starting_stack * len(busts) if remove_stacks else 0
    if removed:
        tournament.chips_removed += removed
        tournament.save(update_fields=["chips_removed"])
    # The rows, the entries, the audit and the event need no answer in between: one round
    # trip to PostgreSQL for all of them (infra/db/write_batch.py).
    batch = WriteBatch()
    for row in new_rows:
        batch.insert(row)
    _entry_writes(batch, actor, tournament, busts, new_rows, reason, now, relocated)
    names = {e.pk: e.player.name for e, _s in busts}
    names.update((r.entry_id, r.entry.player.name) for r in group)
    batch.insert(
        event_new(
            tournament,
            "eliminations",
            {
                "reason": reason,
                "results": elimination_results(rows, names),
                "place_from": min(r.place for r in rows),
                "place_to": max(r.place_to for r in rows),
                "players_remaining": remaining - len(busts),
                "chips_removed": removed,
                "hand_for_hand": h4h,
            },
        )
    )
    batch.flush()
    return BustOutcome(
        rows=rows,
        busted=[entry.pk for entry, _stack in busts],
        pending_moves=bool(context.pending_moves),
        winner=tournament_won(tournament, now, remaining - len(busts)),
    )
