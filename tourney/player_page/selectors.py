"""What a player's page shows: his seat on a small map of his table, the clock, the
tournament's public figures and payouts, his pending move, his result and his receipts.

Nothing here names another player or carries anybody's contact details: the map says only
which seats are taken. Instants are epoch milliseconds of the server clock (`*_ms`).
"""

from collections import defaultdict
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks.clock.selectors import clock_view, now_ms, structure_periods
from clocks.display.selectors import display_periods
from infra.text.money import money_pattern
from tables.models import FloorAction, TournamentTable
from tourney.bounties.selectors import book_of, bounty_of
from tourney.cancelling.selectors import SETTLED, owed_of, standing_cancellation
from tourney.chip_counts.selectors import big_blind_of, entry_rank
from tourney.domain.festival import big_blinds
from tourney.models import Entry, LedgerEntry, Tournament, TournamentEvent
from tourney.payouts.selectors import payout_ladder, tournament_results
from tourney.tournaments.selectors import tournament_summary

PAYOUT_ROWS = 12

# What the cage pays out (a prize, the bounties won), as against a refund of money paid in.
PAID_OUT = (LedgerEntry.Purpose.PRIZE, LedgerEntry.Purpose.BOUNTY)


def _table_map(table: TournamentTable | None, seat: int | None) -> dict | None:
    """Seats 1..n of the player's table: taken or free, his own, the button (no names)."""
    if table is None:
        return None
    taken = set(
        Entry.objects.filter(
            seat_row__tournament_table=table, status=Entry.Status.ACTIVE
        ).values_list("seat", flat=True)
    )
    return {
        "number": table.number,
        "button_seat": table.button_seat,
        "seats": [
            {"seat": n, "taken": n in taken, "mine": n == seat, "button": n == table.button_seat}
            for n in range(1, table.seats + 1)
        ],
    }


def _pending_move(entry: Entry) -> FloorAction | None:
    """The floor's move of this player not confirmed yet (a single move, or his part of a
    table break or final-table redraw)."""
    return (
        FloorAction.objects.filter(
            tournament_id=entry.tournament_id,
            entry=entry,
            status=FloorAction.Status.PENDING,
            to_table__isnull=False,
        )
        .order_by("-pk")
        .first()
    )


TOURNAMENT_OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _seat(tournament: Tournament, entry: Entry) -> dict:
    """Where he sits now (until the floor confirms a move: the seat he is leaving), the map
    of that table, and the move waiting for the floor. Nobody sits anywhere once the
    tournament is over: the winner keeps his entry active (§11.1), but not a seat."""
    if (
        entry.status != Entry.Status.ACTIVE
        or entry.tournament_table_id is None
        or tournament.status in TOURNAMENT_OVER
    ):
        return {"table": None, "seat": None, "map": None, "move": None}
    move = _pending_move(entry)
    table, seat = entry.tournament_table, entry.seat
    if move is not None and move.from_table is not None:
        table = TournamentTable.objects.filter(
            tournament_id=entry.tournament_id, number=move.from_table
        ).first()
        seat = move.from_seat
    return {
        "table": table.number if table else None,
        "seat": seat,
        "map": _table_map(table, seat),
        "move": {"to_table": move.to_table, "to_seat": move.to_seat} if move else None,
    }


def _result(tournament: Tournament, entry: Entry) -> dict | None:
    """His place and prize once he is out (or the tournament is over): {place, place_to,
    prize, paid, to_collect}."""
    if entry.status != Entry.Status.ELIMINATED and tournament.status != Tournament.Status.FINISHED:
        return None
    row = next((r for r in tournament_results(tournament).rows if r["entry_id"] == entry.pk), None)
    if row is None:
        return None
    return {
        "place": row["place"],
        "place_to": row["place_to"],
        "prize": row["prize"],
        "paid": row["paid"],
        "to_collect": max(0, row["prize"] - row["paid"]),
        "disqualified": row["disqualified"],
    }


def _receipts(entry: Entry) -> list[dict]:
    """His receipts, oldest first: {number, at_ms, time, purpose, refund, amount} (amount paid
    in, or paid out to him when `refund` or a prize). `time` is the receipt's HH:MM in the
    room's time zone (settings.TIME_ZONE), as printed on the paper receipt and shown at the
    desk, not the phone's: a visitor's phone may be set to his home zone."""
    room_zone = timezone.get_default_timezone()
    rows: dict[str, list[LedgerEntry]] = defaultdict(list)
    for row in LedgerEntry.objects.filter(entry=entry).order_by("at", "id"):
        rows[row.receipt_number].append(row)
    out = []
    for number, group in rows.items():
        total = sum(r.amount for r in group)
        out.append(
            {
                "number": number,
                "at_ms": int(group[0].at.timestamp() * 1000),
                "time": timezone.localtime(group[0].at, room_zone).strftime("%H:%M"),
                "purpose": group[0].purpose,
                "refund": total < 0 and group[0].purpose not in PAID_OUT,
                "amount": abs(total),
            }
        )
    return out


def _cancelled(tournament: Tournament, entry: Entry) -> dict | None:
    """A cancelled tournament (docs/rules.md §18): why, what he paid in, and what the
    settlement gives him back (`back`) and whether the cage has paid it (`settled`)."""
    if tournament.status != Tournament.Status.CANCELLED:
        return None
    cancellation = standing_cancellation(tournament)
    # What he paid in and still had in play (a refund before the cancellation takes it back).
    paid = LedgerEntry.objects.filter(entry=entry).exclude(purpose__in=PAID_OUT)
    paid = paid.exclude(receipt_number__contains=SETTLED)
    owed = (
        owed_of(tournament, cancellation.settlement, entry.pk) if cancellation is not None else None
    )
    return {
        "reason": cancellation.reason if cancellation is not None else "",
        "paid": sum(paid.values_list("amount", flat=True)),
        "back": owed.total if owed is not None else 0,
        "settled": bool(owed and owed.paid),
    }


def _stack(tournament: Tournament, entry: Entry, clock: dict) -> dict | None:
    """His last chip count (docs/rules.md §15.4): chips, rank among the counted stacks, big
    blinds; a bag's Day-2 seat once drawn. None before his first count."""
    if entry.chips is None or entry.status not in (Entry.Status.ACTIVE, Entry.Status.BAGGED):
        return None
    rank = entry_rank(tournament, entry)
    day2 = (
        Entry.objects.filter(day1_entry=entry, tournament_table__isnull=False)
        .values_list("tournament_table__number", "seat")
        .first()
        if entry.status == Entry.Status.BAGGED
        else None
    )
    return {
        "chips": entry.chips,
        "rank": rank[0] if rank else None,
        "of": rank[1] if rank else None,
        "big_blinds": big_blinds(entry.chips, big_blind_of(clock)),
        "bagged": entry.status == Entry.Status.BAGGED,
        "day2_table": day2[0] if day2 else None,
        "day2_seat": day2[1] if day2 else None,
    }


def _bounty(tournament: Tournament, entry: Entry) -> dict | None:
    """A bounty tournament (docs/rules.md §16): the bounty on his head (0 once out) and the
    cash he has won; None without bounties."""
    bounty = bounty_of(tournament)
    if bounty is None:
        return None
    book = book_of(tournament, bounty)
    return {"on_head": book.on_head.get(entry.pk, 0), "won": book.won.get(entry.pk, 0)}


def player_state(tournament: Tournament, entry: Entry, now: int | None = None) -> dict:
    """Everything the player's page shows, as of `now` (server epoch ms)."""
    now = now if now is not None else now_ms()
    summary = tournament_summary(tournament)
    clock = clock_view(tournament, now)
    last_event_id = (
        TournamentEvent.objects.filter(tournament=tournament)
        .order_by("-id")
        .values_list("id", flat=True)
        .first()
    )
    return {
        "tournament": {
            "id": tournament.pk,
            "name": tournament.name,
            "status": tournament.status,
            "currency": tournament.currency,
            # What goes before and after an amount's number: "12 000 Ft" as on every page.
            "money": money_pattern(tournament.currency),
            "room": tournament.room.name,
            # A flight ends its day, it has no winner (docs/rules.md §15.3).
            "flight": tournament.main_event_id is not None,
        },
        "clock": clock,
        "periods": display_periods(structure_periods(tournament.structure_id)),
        "stats": {
            "entries": summary.entries,
            # a flight over: its players bagged for Day 2 are the players left
            "players_remaining": summary.players_remaining
            + (summary.bagged if tournament.main_event_id else 0),
            "average_stack": summary.average_stack,
            "prize_pool": summary.prize_pool,
        },
        "payouts": payout_ladder(tournament, summary, limit=PAYOUT_ROWS)["payouts"],
        "player": {
            "entry_id": entry.pk,
            "entry_number": entry.number,
            "name": entry.player.name,
            "status": entry.status,
            **_seat(tournament, entry),
        },
        "result": _result(tournament, entry),
        "stack": _stack(tournament, entry, clock),
        "bounty": _bounty(tournament, entry),
        "cancelled": _cancelled(tournament, entry),
        "receipts": _receipts(entry),
        "last_event_id": last_event_id,
        "server_time_ms": now,
    }


def player_url(request, token: str) -> str:
    return request.build_absolute_uri(reverse("player_page:page", args=[token]))


def player_url_for(request, tournament_id: int, entry_id: int) -> str:
    return player_url(request, player_token(tournament_id, entry_id))


REVOKED_EVENT = "player_link_revoked"


OK, REVOKED, EXPIRED = "ok", "revoked", "expired"


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.PLAYER_LINK_SALT)


def player_token(
    tournament_id: int, entry_id: int, generations: tuple[int, int] | None = None
) -> str:
    """The same token every time for an entry until its link is revoked (no timestamp): the
    seat card and the receipt print one link. `generations` (the entry's, the tournament's)
    when known, else read from the database."""
    if generations is None:
        generations = (
            Entry.objects.filter(pk=entry_id)
            .values_list("player_link_generation", "tournament__player_link_generation")
            .first()
        ) or (0, 0)
    data = {"t": tournament_id, "e": entry_id}
    if generations[0]:
        data["g"] = generations[0]
    if generations[1]:
        data["a"] = generations[1]
    return _signer().sign_object(data)


def _signed(token: str) -> tuple[int, int, int, int] | None:
    try:
        data = _signer().unsign_object(token)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    values = (data.get("t"), data.get("e"), data.get("g", 0), data.get("a", 0))
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        return None
    return values


def player_token_signed_ids(token: str) -> tuple[int, int] | None:
    """(tournament id, entry id) the token is signed for, without reading the database (for
    a caller that checked it with `player_link` already)."""
    signed = _signed(token)
    return None if signed is None else (signed[0], signed[1])


def player_link_expires_at(finished_at: datetime | None) -> datetime | None:
    if finished_at is None:
        return None
    return finished_at + timedelta(days=settings.PLAYER_LINK_DAYS_AFTER_FINISH)


@dataclass(frozen=True)
class PlayerLink:
    tournament_id: int
    entry_id: int
    status: str  # OK, REVOKED or EXPIRED
    expires_at: datetime | None

    @property
    def ok(self) -> bool:
        return self.status == OK


def player_link(token: str, now: datetime | None = None) -> PlayerLink | None:
    """What a token grants: None when it is forged or malformed or names no entry of that
    tournament, else its status (reads the database)."""
    signed = _signed(token)
    if signed is None:
        return None
    tournament_id, entry_id, generation, all_generation = signed
    row = (
        Entry.objects.filter(pk=entry_id, tournament_id=tournament_id)
        .values_list(
            "player_link_generation",
            "tournament__player_link_generation",
            "tournament__finished_at",
        )
        .first()
    )
    if row is None:
        return None
    expires_at = player_link_expires_at(row[2])
    if (generation, all_generation) != (row[0], row[1]):
        status = REVOKED
    elif expires_at is not None and (now or timezone.now()) >= expires_at:
        status = EXPIRED
    else:
        status = OK
    return PlayerLink(tournament_id, entry_id, status, expires_at)


def player_token_ids(token: str) -> tuple[int, int] | None:
    """(tournament id, entry id) of a working token (not revoked, not expired) whose entry
    exists, else None (reads the database)."""
    link = player_link(token)
    return (link.tournament_id, link.entry_id) if link is not None and link.ok else None


def link_ended_detail(status: str) -> tuple[str, str]:
    """`(code, detail)` of a link that no longer works (its page, its state, its stream)."""
    if status == EXPIRED:
        return "player_link_expired", _(
            "This tournament is over and its player pages are closed. Thank you for playing."
        )
    return "player_link_revoked", _(
        "This player link no longer works. Ask the registration desk for your new seat card."
    )
