"""Bust-outs inside a use case that has locked the tournament: recording them, taking one
back, the absent-player deadline's, and what follows them across features (docs/architecture.md,
"A bust-out")."""

import random
from collections.abc import Mapping, Sequence

from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.operations import clock_restart_after_undo, clock_stop_at_finish
from tables.floor.operations import floor_replan
from tables.floor.selectors import floor_actions_out
from tables.floor_actions.operations import (
    floor_actions_revert_caused_by,
    floor_moves_supersede,
    floor_moves_void,
    reverted_tables,
)
from tables.hand_for_hand.follow import hand_for_hand_follow_floor
from tables.models import FloorAction, TournamentTable
from tables.seating.operations import entry_seat_late, held_seats, restored_tables_positions
from tourney.absence.operations import absent_at_money_clear, absent_at_money_mark
from tourney.audit.log import audit_record, audit_text
from tourney.bounties.operations import knockouts_record
from tourney.bounties.selectors import awards_of
from tourney.core.errors import Conflict, InvalidInput
from tourney.eliminations.operations import (
    BustOutcome,
    elimination_results,
    eliminations_apply,
    place_group,
    standing_eliminations,
    tournament_won_announce,
)
from tourney.eliminations.selectors import busted_entries
from tourney.events.log import event_append
from tourney.models import Deal, Elimination, Entry, Tournament
from tourney.registration.operations import promotions_undo, seats_freed
from tourney.satellites.operations import satellite_unfinished
from tourney.tournaments.selectors import entry_of, entry_snapshot, tournament_rules


def eliminations_follow(actor, tournament: Tournament, outcome: BustOutcome) -> None:
    """What follows from `eliminations_apply` in the floor and the clock: the busted players'
    pending moves are void, each audited as floor.void (docs/rules.md §3.4); a winner stops
    the clock (no more levels, §1.4)."""
    if outcome.pending_moves:
        floor_moves_supersede(actor, tournament, outcome.busted, "busted")
    absent_at_money_mark(tournament, len(outcome.busted))  # Doyle #5 (docs/rules.md §2.3)
    if outcome.winner is not None:
        # Over (a winner, or a satellite's seats): moves not confirmed yet have nothing to do.
        floor_moves_void(
            actor, tournament, FloorAction.objects.filter(tournament=tournament), "finished"
        )
        clock_stop_at_finish(actor=actor, tournament=tournament)
        tournament_won_announce(actor, tournament, outcome.winner)


def eliminations_replan(
    actor,
    tournament: Tournament,
    cause: Elimination,
    rng: random.Random | None = None,
    shape=None,
) -> list[FloorAction]:
    """The floor's replan after bust-outs, and hand-for-hand's end when it formed the final
    table."""
    actions = floor_replan(actor=actor, tournament=tournament, cause=cause, rng=rng, shape=shape)
    if actions:
        hand_for_hand_follow_floor(actor, tournament, actions)
    return actions


def seats_freed_by(tournament: Tournament, actor, rows: Sequence[Elimination]) -> None:
    """After `eliminations_apply` outside a reported bust-out (an absent player's deadline, a
    disqualification): the waiting list takes the freed seats (docs/rules.md §2.1)."""
    if rows:
        seats_freed(tournament, actor, rows[0].pk)


def eliminations_record_locked(
    *,
    actor,
    tournament: Tournament,
    eliminations: Sequence[tuple[int, int | None]],
    rng: random.Random | None = None,
    busted_by: Mapping[int, Sequence[int]] | None = None,
) -> dict:
    """`eliminations_record` in a use case that has locked the tournament already (the
    dealer's "bust-out and hand finished": the bust-outs, then the hand report, one lock)."""
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(
            "tournament_not_running",
            _("Bust-outs are recorded while the tournament is running."),
        )
    entries, context, shape = busted_entries(
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
    outcome = eliminations_apply(
        actor=actor,
        tournament=tournament,
        busts=list(zip(entries, stacks, strict=True)),
        context=context,
    )
    new_ids = {e.pk for e in entries}
    knockouts_record(
        actor, tournament, [r for r in outcome.rows if r.entry_id in new_ids], busted_by or {}, rng
    )
    eliminations_follow(actor, tournament, outcome)
    rows = outcome.rows
    cause = next(r for r in rows if r.entry_id in new_ids)
    if context.waiting and seats_freed(tournament, actor, cause.pk):
        shape = None  # an alternate sat down: the shape read with the entries is stale
        # ...and every player out moved one place down (a late entry, docs/rules.md §2.1):
        # the answer says the places they have now.
        for row in rows:
            row.refresh_from_db(fields=["place", "place_to"])
    actions = eliminations_replan(actor, tournament, cause, rng=rng, shape=shape)
    names = {r.entry_id: r.entry.player.name for r in rows}
    results = elimination_results(rows, names)
    paid = awards_of(tournament, {r.entry_id for r in rows})
    for result in results:
        result["bounties"] = paid.get(result["entry_id"], [])
    return {"results": results, "actions": floor_actions_out(actions)}


def eliminations_at_deadline(
    tournament: Tournament, absent: Sequence[Entry], remaining: int, now
) -> list[int]:
    """Inside the clock's advance (tournament locked): the players still absent at the
    deadline are out together (docs/rules.md §2.3), their stacks removed; the floor follows.
    Returns the entries eliminated."""
    outcome = eliminations_apply(
        actor=None,
        tournament=tournament,
        busts=[(entry, None) for entry in absent],
        reason=Elimination.Reason.ABSENT,
        remove_stacks=True,
        now=now,
        remaining=remaining,
    )
    eliminations_follow(None, tournament, outcome)
    seats_freed_by(tournament, None, outcome.rows)
    eliminations_replan(None, tournament, outcome.rows[0])
    return [r.entry_id for r in outcome.rows]


def _reseat(tournament: Tournament, entry: Entry, rng: random.Random, now) -> None:
    """The undone player's own seat when it is still there, else a late-entry seat."""
    # Read afresh: undoing the bust may just have reopened a broken table.
    table = TournamentTable.objects.filter(pk=entry.tournament_table_id).first()
    free = (
        table is not None
        and table.status == TournamentTable.Status.OPEN
        and not Entry.objects.filter(
            seat_row__tournament_table=table, seat=entry.seat, status=Entry.Status.ACTIVE
        ).exists()
        and entry.seat not in held_seats(tournament).get(table.number, set())
    )
    if not free:
        entry_seat_late(tournament, entry, tournament_rules(tournament), rng, now)


def _undo_refusals(tournament: Tournament, entry: Entry, allow_disqualified: bool) -> Elimination:
    """The standing bust-out of `entry`, unless its undo is refused."""
    row = standing_eliminations(tournament).filter(entry=entry).first()
    if row is None or entry.status != Entry.Status.ELIMINATED:
        raise Conflict("not_eliminated", _("%(name)s is not out.") % {"name": entry.player.name})
    if row.reason == Elimination.Reason.DISQUALIFIED and not allow_disqualified:
        raise Conflict(
            "disqualified",
            _("%(name)s was disqualified: undo the penalty instead.") % {"name": entry.player.name},
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
    return row


def _places_back(
    tournament: Tournament, row: Elimination, group: list[Elimination], h4h_mode: str
) -> None:
    """Later busts (better places) each finished one place worse with this player back: one
    UPDATE each for their rows and their entries, whatever the size of the field; the rest of
    the hand is placed again."""
    better = min([row.place, *(g.place for g in group)])
    standing_eliminations(tournament).filter(place_to__lt=better).update(
        place=F("place") + 1, place_to=F("place_to") + 1
    )
    Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ELIMINATED, place__lt=better
    ).update(place=F("place") + 1)
    if group:
        worst = max(g.place_to for g in [row, *group])
        h4h = group[0].h4h_hand is not None
        place_group(group, worst, h4h, h4h_mode)
        for g in group:
            g.save(update_fields=["place", "place_to"])
            Entry.objects.filter(pk=g.entry_id).update(place=g.place)


def _unfinish(actor, tournament: Tournament) -> None:
    """The bust-out that finished the tournament is undone: play goes on, the clock runs
    again as if it had never stopped (§11.7)."""
    if tournament.satellite:
        satellite_unfinished(tournament, timezone.now())  # its tickets are void
    Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE, place=1).update(
        place=None
    )
    tournament.status = Tournament.Status.RUNNING
    tournament.finished_at = None
    tournament.save(update_fields=["status", "finished_at"])
    event_append(tournament, "tournament", {"status": tournament.status})
    clock_restart_after_undo(actor=actor, tournament=tournament)


def _back_in_play(tournament: Tournament, entry: Entry, rng: random.Random, now) -> None:
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


def _waiting_seated_again(actor, tournament: Tournament) -> None:
    """After the undone player is back: the alternates `promotions_undo` sent back (and any
    still waiting) take the seats left free at once, in their order, by the late seat rule, as
    after a bust-out (docs/rules.md §2.1); only with no seat free do they wait, at the head of
    the list. A seat left free is one a standing bust-out freed: the latest stands as the
    cause, so its undo sends the alternate back again (and seats the list again)."""
    latest = standing_eliminations(tournament).order_by("-at", "-pk").values_list("pk", flat=True)
    seats_freed(tournament, actor, latest.first())


def _undo_announce(
    actor, tournament: Tournament, entry: Entry, before: dict, reverted: list[FloorAction]
) -> dict:
    """The undo's audit entry and events; returns the entry's snapshot."""
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
            tournament, "actions", {"reason": "undone", "actions": floor_actions_out(reverted)}
        )
    return after


def elimination_undo_locked(
    *,
    actor,
    tournament: Tournament,
    entry_id: int,
    rng: random.Random | None = None,
    allow_disqualified: bool = False,
) -> dict:
    """`elimination_undo` in a use case that has locked the tournament already (a
    disqualification's penalty undone)."""
    rng = rng or random.SystemRandom()
    entry = entry_of(tournament, entry_id)
    row = _undo_refusals(tournament, entry, allow_disqualified)
    now = timezone.now()
    before = {**entry_snapshot(entry), "place": row.place, "place_to": row.place_to}
    promotions_undo(tournament, actor, row.pk)  # the seat was never free (§2.1); seated again below
    group = list(
        standing_eliminations(tournament).filter(bust_group=row.bust_group).exclude(pk=row.pk)
    )
    # What the hand's bust-outs caused together (a break) is taken back; the replan
    # below makes again whatever the field still needs.
    reverted = floor_actions_revert_caused_by(tournament, [row, *group], actor, now)
    _places_back(tournament, row, group, tournament_rules(tournament).h4h_mode)
    row.undone_at = now
    row.undone_by = actor if actor is not None and actor.is_authenticated else None
    row.save(update_fields=["undone_at", "undone_by"])
    if tournament.status == Tournament.Status.FINISHED:
        _unfinish(actor, tournament)
    if row.reason == Elimination.Reason.ABSENT:
        tournament.chips_removed = max(0, tournament.chips_removed - tournament.starting_stack)
        tournament.save(update_fields=["chips_removed"])
        # Undone: he was there after all; marked absent again, his wait starts again.
        entry.absent_since, entry.absent_level = None, None
        Entry.objects.filter(pk=entry.pk).update(absent_since=None, absent_level=None)
    _back_in_play(tournament, entry, rng, now)
    absent_at_money_clear(tournament)
    restored_tables_positions(actor, tournament, reverted_tables(reverted))  # §4.7
    _waiting_seated_again(actor, tournament)
    after = _undo_announce(actor, tournament, entry, before, reverted)
    actions = floor_replan(actor=actor, tournament=tournament, rng=rng)
    if actions:
        hand_for_hand_follow_floor(actor, tournament, actions)
    return {
        "entry": {**after, "player_name": entry.player.name},
        "reverted_actions": floor_actions_out(reverted),
        "actions": floor_actions_out(actions),
    }
