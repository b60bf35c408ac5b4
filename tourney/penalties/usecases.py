"""Penalties (docs/rules.md §10): warnings, missed hands or rounds counted from the dealer's hand
reports, and disqualification (out of the tournament, chips removed, optionally banned).

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

from dataclasses import dataclass
from datetime import datetime, time, timedelta

from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.models import HandReport, TournamentTable
from tables.services.floor import floor_actions_out, floor_replan
from tourney.domain.house_rules import HouseRules
from tourney.domain.penalties import (
    PenaltyError,
    hands_elapsed_estimate,
    observed_seconds_per_hand,
    penalty_hands,
    penalty_remaining,
)
from tourney.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.models import Elimination, Entry, Penalty, Player, PlayerBan, Tournament
from tourney.selectors import tournament_rules, tournament_summary
from tourney.services.audit import audit_record, audit_text
from tourney.services.entries import entry_of, entry_snapshot
from tourney.services.events import event_append
from tourney.services.locks import tournament_lock
from tourney.services.players import player_ban

SITTING_OUT = (Penalty.Kind.MISSED_HANDS, Penalty.Kind.MISSED_ROUNDS)
BAN_CHOICES = ("day", "days", "indefinite", "season")
# Hand reports a table's pace is judged on (the last ones).
PACE_REPORTS = 11

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


@dataclass(frozen=True)
class Progress:
    """Where a missed-hands penalty stands: hands served and left (estimated when the table
    does not report), whether the hand in play has ended, and the expected end."""

    hands_served: int
    hands_left: int
    started: bool
    reporting: bool
    seconds_per_hand: float
    ends_at: datetime


def _user(actor):
    return actor if actor is not None and actor.is_authenticated else None


def _ms(value: datetime | None) -> int | None:
    return int(value.timestamp() * 1000) if value else None


def _reports_since(table_id: int, start: int) -> tuple[int, int]:
    """Hand reports (misdeals included) and misdeals at a table after hand `start`."""
    counts = HandReport.objects.filter(
        tournament_table_id=table_id, hand_number__gt=start
    ).aggregate(reports=Count("pk"), misdeals=Count("pk", filter=Q(misdeal=True)))
    return counts["reports"], counts["misdeals"]


def _served_here(penalty: Penalty) -> int:
    reports, misdeals = _reports_since(penalty.tournament_table_id, penalty.table_hands_at_start)
    return reports - misdeals


def _is_serving(penalty: Penalty) -> bool:
    return (
        penalty.kind in SITTING_OUT
        and penalty.served_at is None
        and penalty.undone_at is None
        and penalty.tournament_table_id is not None
    )


def _follow(penalty: Penalty, entry: Entry, rules: HouseRules, now: datetime) -> str | None:
    """In memory: a penalty whose player sits elsewhere now follows the player ("moved") or
    ends ("ended", the house says it does not follow). The caller saves."""
    if entry.status != Entry.Status.ACTIVE or entry.tournament_table_id is None:
        return None
    if entry.tournament_table_id == penalty.tournament_table_id:
        if entry.seat != penalty.seat:  # a redraw at the same table
            penalty.seat = entry.seat
            return "moved"
        return None
    served = min(penalty.hands, penalty.hands_served_before + _served_here(penalty))
    if not rules.penalty_follows_moves:
        penalty.hands_served_before = served
        penalty.served_at = now
        return "ended"
    table = TournamentTable.objects.get(pk=entry.tournament_table_id)
    penalty.hands_served_before = served
    penalty.tournament_table = table
    penalty.table_number = table.number
    penalty.seat = entry.seat
    penalty.table_hands_at_start = table.hands_played
    return "moved"


def penalty_progress(penalty: Penalty, rules: HouseRules, now: datetime) -> Progress:
    """Hands served and left of a missed-hands penalty, and when it should end: from the hand
    reports at the player's table, or (a table that has not reported a hand) from the time
    since it was given, the hand in play first."""
    table = TournamentTable.objects.get(pk=penalty.tournament_table_id)
    default_pace = float(rules.penalty_seconds_per_hand)
    if table.hands_played > 0:
        reports, misdeals = _reports_since(table.pk, penalty.table_hands_at_start)
        left = penalty_remaining(penalty.hands, penalty.hands_served_before + reports, misdeals)
        started = penalty.hands_served_before > 0 or table.hands_played >= (
            penalty.table_hands_at_start
        )
        times = list(
            HandReport.objects.filter(tournament_table=table, misdeal=False)
            .order_by("-hand_number")
            .values_list("reported_at", flat=True)[:PACE_REPORTS]
        )
        pace = observed_seconds_per_hand([t.timestamp() for t in times], default_pace)
        # The hand in play began at the last report; the penalty's hands follow it.
        anchor = times[0] if times else penalty.given_at
        waiting = left + (0 if started else 1)
        ends_at = max(
            now + timedelta(seconds=left * pace), anchor + timedelta(seconds=waiting * pace)
        )
        return Progress(penalty.hands - left, left, started, True, pace, ends_at)
    elapsed = max(0.0, (now - penalty.given_at).total_seconds())
    played = max(0, hands_elapsed_estimate(elapsed, default_pace) - 1)
    left = penalty_remaining(penalty.hands, penalty.hands_served_before + played)
    to_serve = penalty.hands - penalty.hands_served_before + 1
    ends_at = penalty.given_at + timedelta(seconds=to_serve * default_pace)
    return Progress(
        penalty.hands - left, left, elapsed >= default_pace, False, default_pace, ends_at
    )


def penalty_status(penalty: Penalty) -> str:
    if penalty.undone_at is not None:
        return "undone"
    if penalty.kind not in SITTING_OUT:
        return "given"
    return "served" if penalty.served_at is not None else "serving"


def penalty_out(penalty: Penalty, rules: HouseRules | None = None, now: datetime | None = None):
    """API row; a penalty being served carries its progress (following a move in memory)."""
    now = now or timezone.now()
    entry = penalty.entry
    row = {
        "id": penalty.pk,
        "tournament_id": penalty.tournament_id,
        "tournament_name": penalty.tournament.name,
        "entry_id": penalty.entry_id,
        "player_id": penalty.player_id,
        "player_name": penalty.player.name,
        "kind": penalty.kind,
        "kind_label": penalty.get_kind_display(),
        "reason": penalty.reason,
        "rounds": penalty.rounds,
        "players_at_table": penalty.players_at_table,
        "hands": penalty.hands,
        "table": penalty.table_number,
        "seat": penalty.seat,
        "chips_removed": penalty.chips_removed,
        "given_at_ms": _ms(penalty.given_at),
        "given_by": penalty.given_by.get_username() if penalty.given_by_id else None,
        "served_at_ms": _ms(penalty.served_at),
        "undone_at_ms": _ms(penalty.undone_at),
        "status": penalty_status(penalty),
        "hands_served": None,
        "hands_left": None,
        "started": None,
        "table_reports": None,
        "seconds_per_hand": None,
        "ends_at_ms": None,
        "playing": entry.status == Entry.Status.ACTIVE,
        "ban": None,
    }
    ban = PlayerBan.objects.filter(penalty=penalty).order_by("-id").first()
    if ban is not None:
        row["ban"] = ban_out(ban)
    if _is_serving(penalty) and entry.status == Entry.Status.ACTIVE:
        rules = rules or tournament_rules(penalty.tournament)
        _follow(penalty, entry, rules, now)
        row |= {"table": penalty.table_number, "seat": penalty.seat}
        if penalty.served_at is not None:  # the move ended it
            row["status"] = "served"
        else:
            progress = penalty_progress(penalty, rules, now)
            row |= {
                "hands_served": progress.hands_served,
                "hands_left": progress.hands_left,
                "started": progress.started,
                "table_reports": progress.reporting,
                "seconds_per_hand": round(progress.seconds_per_hand),
                "ends_at_ms": _ms(progress.ends_at),
            }
    return row


def ban_out(ban: PlayerBan) -> dict:
    return {
        "id": ban.pk,
        "player_id": ban.player_id,
        "reason": ban.reason,
        "starts_at_ms": _ms(ban.starts_at),
        "ends_at_ms": _ms(ban.ends_at),
        "season_id": ban.season_id,
        "season_name": ban.season.name if ban.season_id else None,
        "penalty_id": ban.penalty_id,
        "lifted_at_ms": _ms(ban.lifted_at),
    }


def _penalties():
    return Penalty.objects.select_related(
        "tournament", "entry", "player", "given_by", "tournament_table"
    )


def penalties_list(tournament: Tournament, status: str | None = None) -> list[dict]:
    """The tournament's penalties, newest first; `status` = serving (sitting out now: a busted
    player's penalty waits, in case the bust is undone), served, given, undone."""
    rules = tournament_rules(tournament)
    now = timezone.now()
    rows = [penalty_out(p, rules, now) for p in _penalties().filter(tournament=tournament)]
    if status == "serving":
        return [r for r in rows if r["status"] == status and r["playing"]]
    return [r for r in rows if r["status"] == status] if status else rows


def penalties_sitting_out(tournament: Tournament) -> list[dict]:
    """Players serving a missed-hands penalty now (playing entries), soonest end first."""
    rules = tournament_rules(tournament)
    now = timezone.now()
    serving = _penalties().filter(
        tournament=tournament,
        kind__in=SITTING_OUT,
        served_at=None,
        undone_at=None,
        entry__status=Entry.Status.ACTIVE,
    )
    rows = [penalty_out(p, rules, now) for p in serving]
    rows = [r for r in rows if r["status"] == "serving"]
    return sorted(rows, key=lambda r: (r["ends_at_ms"] or 0, r["id"]))


def player_penalties(player: Player) -> list[dict]:
    """A player's penalties in every tournament, newest first (repeat offences, TDA 71)."""
    now = timezone.now()
    return [penalty_out(p, now=now) for p in _penalties().filter(player=player)]


# --- writing --------------------------------------------------------------------------------


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


def _ban_end(choice: str, days: int | None, now: datetime) -> datetime | None:
    """The end of a ban given with a disqualification: the end of the local day (`day`), of
    the `days`-th local day counting today (`days`), or none (indefinite, season)."""
    if choice in ("indefinite", "season"):
        return None
    if choice == "days" and (not isinstance(days, int) or days < 1 or days > 3650):
        raise InvalidInput(
            "invalid_ban_days", _("A ban for days needs a number of days from 1 to 3650.")
        )
    count = 1 if choice == "day" else days
    local_day = timezone.localtime(now).date() + timedelta(days=count)
    return timezone.make_aware(datetime.combine(local_day, time.min))


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
    with transaction.atomic():
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
            players = Entry.objects.filter(tournament_table=table, status=Entry.Status.ACTIVE)
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
        ends_at = _ban_end(ban, ban_days, now) if ban else None
        penalty.save()
        actions = []
        if kind == Penalty.Kind.DISQUALIFICATION:
            actions = _disqualify(actor, tournament, entry, penalty, remaining, now)
        if ban:
            player_ban(
                actor=actor,
                player_id=entry.player_id,
                reason=reason,
                ends_at=ends_at,
                now=now,
                season_id=tournament.season_id if ban == "season" else None,
                penalty=penalty,
            )
        row = penalty_out(penalty, rules, now)
        audit_record(
            actor=actor,
            action=f"penalty.{kind}",
            summary=audit_text(
                SUMMARIES[kind],
                {
                    "name": entry.player.name,
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
        return {"penalty": row, "actions": floor_actions_out(actions)}


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
    from tourney.services.eliminations import eliminations_apply, seats_freed_by

    rows = eliminations_apply(
        actor=actor,
        tournament=tournament,
        busts=[(entry, None)],
        reason=Elimination.Reason.DISQUALIFIED,
        now=now,
        remaining=remaining,
    )
    entry.disqualified_at = now
    entry.save(update_fields=["disqualified_at"])
    tournament.chips_removed += penalty.chips_removed
    tournament.save(update_fields=["chips_removed"])
    if tournament.status != Tournament.Status.RUNNING:  # the last opponent has won
        return []
    seats_freed_by(tournament, actor, rows)  # the waiting list takes the seat (§2.1)
    return floor_replan(actor=actor, tournament=tournament, cause=rows[0])


def _penalty_of(tournament: Tournament, penalty_id: int) -> Penalty:
    penalty = _penalties().filter(tournament=tournament, pk=penalty_id).first()
    if penalty is None:
        raise NotFound(
            "penalty_not_found",
            _("There is no penalty %(id)s in this tournament.") % {"id": penalty_id},
        )
    return penalty


def penalty_undo(*, actor, tournament_id: int, penalty_id: int) -> dict:
    """Take back a mistaken penalty. A disqualification's player is back in play with the chips
    (the bust-out undo puts back the seat and the places), and its ban is lifted."""
    from tourney.services.eliminations import elimination_undo

    with transaction.atomic():
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
                result = elimination_undo(
                    actor=actor,
                    tournament_id=tournament.pk,
                    entry_id=penalty.entry_id,
                    allow_disqualified=True,
                )
                tournament = tournament_lock(tournament_id)  # its version moved on
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
    with transaction.atomic():
        tournament = tournament_lock(tournament_id)
        penalty = _penalty_of(tournament, penalty_id)
        if not _is_serving(penalty):
            raise Conflict("penalty_not_serving", _("This penalty is not being served."))
        now = timezone.now()
        before = penalty_out(penalty, now=now)
        penalty.served_at = now
        penalty.save(update_fields=["served_at"])
        row = penalty_out(penalty, now=now)
        _record_served(actor, tournament, penalty, row, before, by_floor=True)
        return {"penalty": row, "actions": []}


def _record_served(actor, tournament, penalty, row, before, by_floor: bool) -> None:
    audit_record(
        actor=actor,
        action="penalty.served",
        summary=audit_text(
            gettext_noop("%(name)s back in play: penalty ended by the floor")
            if by_floor
            else gettext_noop("%(name)s back in play: %(hands)s hands sat out"),
            {"name": penalty.player.name, "hands": penalty.hands},
        ),
        tournament=tournament,
        target=penalty,
        before=before,
        after=row,
    )
    event_append(tournament, "penalty", {"action": "served", "penalty": row})


# --- from the dealer's hand reports ---------------------------------------------------------


def _serving_in(tournament: Tournament):
    return _penalties().filter(
        tournament=tournament,
        kind__in=SITTING_OUT,
        served_at=None,
        undone_at=None,
        tournament_table__isnull=False,
    )


def penalties_follow_seats(actor, tournament: Tournament, now: datetime) -> None:
    """Before a hand is counted: penalties whose players were moved follow them (or end, by
    the house rules). Inside the hand report's transaction; hands are only counted here, so
    the tables' counts have not changed since the move."""
    rules = tournament_rules(tournament)
    for penalty in _serving_in(tournament).filter(entry__status=Entry.Status.ACTIVE):
        before = {"table": penalty.table_number, "seat": penalty.seat}
        change = _follow(penalty, penalty.entry, rules, now)
        if change is None:
            continue
        penalty.save()
        after = {
            "table": penalty.table_number,
            "seat": penalty.seat,
            "hands_served_before": penalty.hands_served_before,
        }
        audit_record(
            actor=actor,
            action="penalty.follow" if change == "moved" else "penalty.served",
            summary=audit_text(
                gettext_noop("Penalty of %(name)s goes on at table %(t)s seat %(s)s")
                if change == "moved"
                else gettext_noop("Penalty of %(name)s ended: moved to another table"),
                {"name": penalty.player.name, "t": penalty.table_number, "s": penalty.seat},
            ),
            tournament=tournament,
            target=penalty,
            before=before,
            after=after,
        )
        if change == "ended" or penalty.hands_served_before >= penalty.hands:
            if penalty.served_at is None:
                penalty.served_at = now
                penalty.save(update_fields=["served_at"])
            event_append(
                tournament,
                "penalty",
                {"action": "served", "penalty": penalty_out(penalty, rules, now)},
            )


def penalties_after_hand(actor, tournament: Tournament, table: TournamentTable, now) -> None:
    """After a hand report at `table`: penalties whose count it completes end there."""
    rules = tournament_rules(tournament)
    for penalty in _serving_in(tournament).filter(
        tournament_table=table, entry__status=Entry.Status.ACTIVE
    ):
        reports, misdeals = _reports_since(table.pk, penalty.table_hands_at_start)
        left = penalty_remaining(penalty.hands, penalty.hands_served_before + reports, misdeals)
        if left:
            continue
        before = penalty_out(penalty, rules, now)
        penalty.served_at = now
        penalty.save(update_fields=["served_at"])
        _record_served(
            actor, tournament, penalty, penalty_out(penalty, rules, now), before, by_floor=False
        )


def seats_sitting_out(tournament: Tournament, table_number: int) -> dict[int, dict]:
    """Seat -> penalty row for the players of a table serving a penalty (the dealer kills
    their hands)."""
    return {
        row["seat"]: row
        for row in penalties_sitting_out(tournament)
        if row["table"] == table_number and row["seat"] is not None
    }
