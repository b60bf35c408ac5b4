"""Penalties (docs/rules.md §10): warnings, missed hands or rounds counted from the dealer's hand
reports, and disqualification (out of the tournament, chips removed, optionally banned): the
use cases. What is read of them is in `selectors`, what a hand report does to them in
`operations`.

A missed-hands penalty starts at the end of the hand in play (TDA 68): `table_hands_at_start`
is the table's `hands_played` once that hand is reported, so every later hand report at the
player's table counts one hand, a misdeal taking one back (TDA 35-C). When the player is moved
and the house's `penalty_follows_moves` says so, the hands served so far are kept in
`hands_served_before` and the count goes on at the new table from its next report; otherwise
the move ends the penalty. The hand report that completes the count ends the penalty
(`served_at`) with a `penalty` event. A table that does not report gets a time estimate at
the house's `penalty_seconds_per_hand` (the floor ends the penalty there).
"""

from __future__ import annotations

from datetime import datetime, time

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.floor.selectors import floor_actions_out
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.core.locks import tournament_lock
from tourney.domain.house_rules_params import HouseRules
from tourney.domain.penalties import (
    PenaltyError,
    gaming_day_ban_end,
    penalty_hands,
)
from tourney.eliminations.follow import (
    elimination_undo_locked,
    eliminations_follow,
    eliminations_replan,
    seats_freed_by,
)
from tourney.eliminations.operations import eliminations_apply
from tourney.events.log import event_append
from tourney.models import Elimination, Entry, Penalty, PlayerBan, Tournament
from tourney.penalties.operations import penalty_served_record
from tourney.penalties.selectors import (
    SITTING_OUT,
    penalties_query,
    penalty_is_serving,
    penalty_out,
)
from tourney.players.operations import player_ban_record
from tourney.tournaments.selectors import (
    entry_of,
    entry_snapshot,
    tournament_rules,
    tournament_summary,
)

BAN_CHOICES = ("day", "days", "indefinite", "season")

SUMMARIES = {
    Penalty.Kind.WARNING: gettext_noop("Warning to %(name)s: %(reason)s"),
    Penalty.Kind.MISSED_HANDS: gettext_noop(
        "Penalty for %(name)s: %(hands)s missed hands (%(reason)s)"
    ),
    Penalty.Kind.MISSED_ROUNDS: gettext_noop(
        "Penalty for %(name)s: %(rounds)s rounds, %(hands)s missed hands (%(reason)s)"
    ),
    Penalty.Kind.DISQUALIFICATION: gettext_noop(
        "%(name)s disqualified, %(chips)s chips removed: %(reason)s"
    ),
}


def _user(actor):
    return actor if actor is not None and actor.is_authenticated else None


def _kind(kind: str, rounds: int | None, hands: int | None) -> str:
    if kind == Penalty.Kind.MISSED_HANDS and rounds is not None:
        # The API's contract: missed_hands with rounds means rounds
        kind = Penalty.Kind.MISSED_ROUNDS
    if kind not in Penalty.Kind.values:
        raise InvalidInput(
            "unknown_kind",
            _("A penalty is a warning, missed hands, missed rounds or a disqualification."),
        )
    if rounds is not None and hands is not None:
        raise InvalidInput("invalid_input", _("Give rounds or hands, not both."))
    return kind


def _ban_end(
    choice: str, days: int | None, now: datetime, day_starts: time = time.min
) -> datetime | None:
    """The end of a ban given with a disqualification: the end of the room's gaming day
    (`day`: at its boundary `day_starts`, e.g. 06:00), of the `days`-th gaming day counting
    today's (`days`), or none (indefinite, season)."""
    if choice in ("indefinite", "season"):
        return None
    if choice == "days" and (not isinstance(days, int) or days < 1 or days > 3650):
        raise InvalidInput(
            "invalid_ban_days", _("A ban for days needs a number of days from 1 to 3650.")
        )
    count = 1 if choice == "day" else days
    local = timezone.localtime(now).replace(tzinfo=None)
    return timezone.make_aware(gaming_day_ban_end(local, day_starts, count))


def _check_dq(tournament: Tournament, entry: Entry, chips: int | None) -> int:
    if chips is None:
        raise InvalidInput(
            "chips_required",
            _("Count the disqualified player's chips: they are removed from play."),
        )
    if chips < 0:
        raise InvalidInput("invalid_chips", _("The chips removed cannot be negative."))
    in_play = tournament_summary(tournament).total_chips
    if chips > in_play:
        raise InvalidInput(
            "too_many_chips",
            _("%(chips)s chips is more than the %(total)s in play.")
            % {"chips": chips, "total": in_play},
        )
    remaining = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    if remaining <= 1:
        raise Conflict("last_player", _("The last player left cannot be disqualified."))
    return remaining


def penalty_give(
    *,
    actor,
    tournament_id: int,
    entry_id: int,
    kind: str,
    reason: str,
    rounds: int | None = None,
    hands: int | None = None,
    chips: int | None = None,
    ban: str | None = None,
    ban_days: int | None = None,
) -> dict:
    """Give a penalty to a playing entry (docs/rules.md §10). Missed rounds are rounds x the players
    at the offender's table, offender included, fixed now; missed hands default to the house's
    `fixed_hands`. A disqualification eliminates the entry at the next place, removes `chips`
    from play, replans the floor and may ban the player (`ban`: day, days, indefinite, season).
    Refused, nothing changed: an entry not playing, an empty reason, bad counts, rounds over
    the house's maximum, a player already sitting out, a DQ without the chips."""
    reason = " ".join((reason or "").split())
    if not reason:
        raise InvalidInput("invalid_reason", _("A penalty needs a reason."))
    kind = _kind(kind, rounds, hands)
    if ban is not None and (kind != Penalty.Kind.DISQUALIFICATION or ban not in BAN_CHOICES):
        raise InvalidInput(
            "invalid_ban",
            _("A ban (day, days, indefinite or season) goes with a disqualification only."),
        )
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        entry = entry_of(tournament, entry_id)
        if entry.status != Entry.Status.ACTIVE:
            raise Conflict(
                "entry_not_playing",
                _("%(name)s is not playing in this tournament.") % {"name": entry.player.name},
            )
        if kind != Penalty.Kind.WARNING and tournament.status != Tournament.Status.RUNNING:
            raise Conflict(
                "tournament_not_running",
                _("Missed hands and disqualifications are given while the tournament runs."),
            )
        rules = tournament_rules(tournament)
        now = timezone.now()
        penalty, remaining = _penalty_new(
            tournament, entry, kind, reason, rules, now, rounds, hands, chips, ban, actor
        )
        ends_at = _ban_end(ban, ban_days, now, tournament.room.gaming_day_starts) if ban else None
        penalty.save()
        actions = []
        if kind == Penalty.Kind.DISQUALIFICATION:
            actions = _disqualify(actor, tournament, entry, penalty, remaining, now)
        if ban:
            player_ban_record(
                actor=actor,
                player_id=entry.player_id,
                reason=reason,
                ends_at=ends_at,
                now=now,
                season_id=tournament.season_id if ban == "season" else None,
                penalty=penalty,
            )
        row = penalty_out(penalty, rules, now)
        _penalty_announce(actor, tournament, penalty, reason, row)
        return {"penalty": row, "actions": floor_actions_out(actions)}


def _penalty_announce(actor, tournament: Tournament, penalty: Penalty, reason: str, row) -> None:
    """The given penalty's audit entry and `penalty` event (`row`: as the API shows it)."""
    audit_record(
        actor=actor,
        action=f"penalty.{penalty.kind}",
        summary=audit_text(
            SUMMARIES[penalty.kind],
            {
                "name": penalty.entry.player.name,
                "reason": reason,
                "hands": penalty.hands,
                "rounds": penalty.rounds,
                "chips": penalty.chips_removed,
            },
        ),
        tournament=tournament,
        target=penalty,
        after=row,
    )
    event_append(tournament, "penalty", {"action": "given", "penalty": row})


def _penalty_new(
    tournament: Tournament,
    entry: Entry,
    kind: str,
    reason: str,
    rules: HouseRules,
    now,
    rounds: int | None,
    hands: int | None,
    chips: int | None,
    ban: str | None,
    actor,
) -> tuple[Penalty, int | None]:
    """The penalty to give, not saved yet, and for a disqualification the chips left in play
    once `chips` are removed; refused when the entry cannot take it (nothing changed)."""
    table = entry.tournament_table
    penalty = Penalty(
        tournament=tournament,
        entry=entry,
        player=entry.player,
        kind=kind,
        reason=reason[:300],
        table_number=table.number if table else None,
        seat=entry.seat,
        tournament_table=table,
        given_at=now,
        given_by=_user(actor),
    )
    if kind in SITTING_OUT:
        _check_sitting_out(tournament, entry, rules, now)
        players = Entry.objects.filter(seat_row__tournament_table=table, status=Entry.Status.ACTIVE)
        penalty.players_at_table = players.count()
        try:
            penalty.hands = penalty_hands(
                kind,
                penalty.players_at_table,
                rounds=rounds,
                hands=hands,
                fixed_hands=rules.fixed_hands,
                rounds_max=rules.penalty_rounds_max,
            )
        except PenaltyError as exc:
            raise refusal(exc, InvalidInput) from exc
        penalty.rounds = rounds if kind == Penalty.Kind.MISSED_ROUNDS else None
        # It starts at the end of the hand in play: that report does not count.
        penalty.table_hands_at_start = table.hands_played + 1
    remaining = None
    if kind == Penalty.Kind.DISQUALIFICATION:
        remaining = _check_dq(tournament, entry, chips)
        if ban == "season" and tournament.season_id is None:
            raise Conflict(
                "no_season", _("This tournament is not part of a season: choose another ban.")
            )
        penalty.chips_removed = chips
    return penalty, remaining


def _check_sitting_out(tournament: Tournament, entry: Entry, rules: HouseRules, now) -> None:
    if entry.tournament_table_id is None:
        raise Conflict(
            "entry_not_seated",
            _("%(name)s has no seat yet: missed hands start at a table.")
            % {"name": entry.player.name},
        )
    running = Penalty.objects.filter(
        entry=entry, kind__in=SITTING_OUT, served_at=None, undone_at=None
    ).first()
    if running is not None:
        raise Conflict(
            "penalty_running",
            _("%(name)s is already sitting out a penalty: undo it to give a longer one.")
            % {"name": entry.player.name},
        )


def _disqualify(actor, tournament, entry, penalty, remaining: int, now) -> list:
    """Out at the next place like a bust (reason `disqualified`), chips removed, floor
    replanned. Inside the caller's transaction."""
    outcome = eliminations_apply(
        actor=actor,
        tournament=tournament,
        busts=[(entry, None)],
        reason=Elimination.Reason.DISQUALIFIED,
        now=now,
        remaining=remaining,
    )
    eliminations_follow(actor, tournament, outcome)
    entry.disqualified_at = now
    entry.save(update_fields=["disqualified_at"])
    tournament.chips_removed += penalty.chips_removed
    tournament.save(update_fields=["chips_removed"])
    if tournament.status != Tournament.Status.RUNNING:  # the last opponent has won
        return []
    seats_freed_by(tournament, actor, outcome.rows)  # the waiting list takes the seat (§2.1)
    return eliminations_replan(actor, tournament, outcome.rows[0])


def _penalty_of(tournament: Tournament, penalty_id: int) -> Penalty:
    penalty = penalties_query().filter(tournament=tournament, pk=penalty_id).first()
    if penalty is None:
        raise NotFound(
            "penalty_not_found",
            _("There is no penalty %(id)s in this tournament.") % {"id": penalty_id},
        )
    return penalty


def penalty_undo(*, actor, tournament_id: int, penalty_id: int) -> dict:
    """Take back a mistaken penalty. A disqualification's player is back in play with the chips
    (the bust-out undo puts back the seat and the places), and its ban is lifted."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        penalty = _penalty_of(tournament, penalty_id)
        if penalty.undone_at is not None:
            raise Conflict("already_undone", _("This penalty has been undone already."))
        now = timezone.now()
        before = penalty_out(penalty, now=now)
        result = {}
        if penalty.kind == Penalty.Kind.DISQUALIFICATION:
            standing = Elimination.objects.filter(
                entry=penalty.entry,
                undone_at=None,
                reason=Elimination.Reason.DISQUALIFIED,
            ).exists()
            if standing:
                result = elimination_undo_locked(
                    actor=actor,
                    tournament=tournament,
                    entry_id=penalty.entry_id,
                    allow_disqualified=True,
                )
            tournament.chips_removed = max(0, tournament.chips_removed - penalty.chips_removed)
            tournament.save(update_fields=["chips_removed"])
            Entry.objects.filter(pk=penalty.entry_id).update(disqualified_at=None)
            PlayerBan.objects.filter(penalty=penalty, lifted_at=None).update(lifted_at=now)
            penalty.entry.refresh_from_db()
        penalty.undone_at = now
        penalty.undone_by = _user(actor)
        penalty.save(update_fields=["undone_at", "undone_by"])
        row = penalty_out(penalty, now=now)
        audit_record(
            actor=actor,
            action="penalty.undo",
            summary=audit_text(
                gettext_noop("Penalty of %(name)s undone (%(kind)s)"),
                {"name": penalty.player.name, "kind": penalty.kind},
            ),
            tournament=tournament,
            target=penalty,
            before=before,
            after={**row, "entry": entry_snapshot(penalty.entry)},
        )
        event_append(tournament, "penalty", {"action": "undone", "penalty": row})
        return {"penalty": row, "actions": result.get("actions", [])}


def penalty_end(*, actor, tournament_id: int, penalty_id: int) -> dict:
    """The floor ends a sit-out by hand: the hands are served at a table that does not
    report, or the floor lets the player back in."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        penalty = _penalty_of(tournament, penalty_id)
        if not penalty_is_serving(penalty):
            raise Conflict("penalty_not_serving", _("This penalty is not being served."))
        now = timezone.now()
        before = penalty_out(penalty, now=now)
        penalty.served_at = now
        penalty.save(update_fields=["served_at"])
        row = penalty_out(penalty, now=now)
        penalty_served_record(actor, tournament, penalty, row, before, by_floor=True)
        return {"penalty": row, "actions": []}
