"""What is read of the penalties (docs/rules.md §10): each penalty as the API and the pages show it,
with the progress of one being served (hands served and left, from the hand reports at the
player's table or estimated), the players sitting out, a player's history, bans."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Count, Q
from django.utils import timezone

from tables.models import HandReport, TournamentTable
from tourney.domain.house_rules_params import HouseRules
from tourney.domain.penalties import (
    hands_elapsed_estimate,
    observed_seconds_per_hand,
    penalty_remaining,
)
from tourney.models import Entry, Penalty, Player, PlayerBan, Tournament
from tourney.tournaments.selectors import tournament_rules

SITTING_OUT = (Penalty.Kind.MISSED_HANDS, Penalty.Kind.MISSED_ROUNDS)


# Hand reports a table's pace is judged on (the last ones).
PACE_REPORTS = 11


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


def _ms(value: datetime | None) -> int | None:
    return int(value.timestamp() * 1000) if value else None


def reports_since(table_id: int, start: int) -> tuple[int, int]:
    """Hand reports (misdeals included) and misdeals at a table after hand `start`."""
    counts = HandReport.objects.filter(
        tournament_table_id=table_id, hand_number__gt=start
    ).aggregate(reports=Count("pk"), misdeals=Count("pk", filter=Q(misdeal=True)))
    return counts["reports"], counts["misdeals"]


def _served_here(penalty: Penalty) -> int:
    reports, misdeals = reports_since(penalty.tournament_table_id, penalty.table_hands_at_start)
    return reports - misdeals


def penalty_is_serving(penalty: Penalty) -> bool:
    return (
        penalty.kind in SITTING_OUT
        and penalty.served_at is None
        and penalty.undone_at is None
        and penalty.tournament_table_id is not None
    )


def penalty_follow(penalty: Penalty, entry: Entry, rules: HouseRules, now: datetime) -> str | None:
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
        reports, misdeals = reports_since(table.pk, penalty.table_hands_at_start)
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
    if penalty_is_serving(penalty) and entry.status == Entry.Status.ACTIVE:
        rules = rules or tournament_rules(penalty.tournament)
        penalty_follow(penalty, entry, rules, now)
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


def penalties_query():
    return Penalty.objects.select_related(
        "tournament", "entry", "player", "given_by", "tournament_table"
    )


def penalties_list(tournament: Tournament, status: str | None = None) -> list[dict]:
    """The tournament's penalties, newest first; `status` = serving (sitting out now: a busted
    player's penalty waits, in case the bust is undone), served, given, undone."""
    rules = tournament_rules(tournament)
    now = timezone.now()
    rows = [penalty_out(p, rules, now) for p in penalties_query().filter(tournament=tournament)]
    if status == "serving":
        return [r for r in rows if r["status"] == status and r["playing"]]
    return [r for r in rows if r["status"] == status] if status else rows


def penalties_sitting_out(tournament: Tournament) -> list[dict]:
    """Players serving a missed-hands penalty now (playing entries), soonest end first."""
    rules = tournament_rules(tournament)
    now = timezone.now()
    serving = penalties_query().filter(
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
    return [penalty_out(p, now=now) for p in penalties_query().filter(player=player)]


def penalties_serving_in(tournament: Tournament):
    return penalties_query().filter(
        tournament=tournament,
        kind__in=SITTING_OUT,
        served_at=None,
        undone_at=None,
        tournament_table__isnull=False,
    )


def seats_sitting_out(tournament: Tournament, table_number: int) -> dict[int, dict]:
    """Seat -> penalty row for the players of a table serving a penalty (the dealer kills
    their hands)."""
    return {
        row["seat"]: row
        for row in penalties_sitting_out(tournament)
        if row["table"] == table_number and row["seat"] is not None
    }
