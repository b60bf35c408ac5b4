"""What a player's page shows: his seat on a small map of his table, the clock, the
tournament's public figures and payouts, his pending move, his result and his receipts.

Nothing here names another player or carries anybody's contact details: the map says only
which seats are taken. Instants are epoch milliseconds of the server clock (`*_ms`).
"""

from collections import defaultdict

from django.utils import timezone

from clocks.clock.usecases import clock_view, now_ms, structure_periods
from clocks.display.selectors import display_periods
from infra.text.money import money_pattern
from tables.models import FloorAction, TournamentTable
from tourney.models import Entry, LedgerEntry, Tournament, TournamentEvent
from tourney.payouts.selectors import payout_ladder, tournament_results
from tourney.selectors import tournament_summary

PAYOUT_ROWS = 12


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
                "refund": total < 0 and group[0].purpose != LedgerEntry.Purpose.PRIZE,
                "amount": abs(total),
            }
        )
    return out


def _cancelled(tournament: Tournament, entry: Entry) -> dict | None:
    """A cancelled tournament: what he paid in and what the cage has refunded him, from his
    ledger rows ({paid, refunded}). Cancelling refunds nobody by itself: each refund is the
    cage's, recorded as any other (a negative row on a receipt)."""
    if tournament.status != Tournament.Status.CANCELLED:
        return None
    paid = refunded = 0
    rows = LedgerEntry.objects.filter(entry=entry).exclude(purpose=LedgerEntry.Purpose.PRIZE)
    for amount in rows.values_list("amount", flat=True):
        if amount > 0:
            paid += amount
        else:
            refunded -= amount
    return {"paid": paid, "refunded": refunded}


def player_state(tournament: Tournament, entry: Entry, now: int | None = None) -> dict:
    """Everything the player's page shows, as of `now` (server epoch ms)."""
    now = now if now is not None else now_ms()
    summary = tournament_summary(tournament)
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
        },
        "clock": clock_view(tournament, now),
        "periods": display_periods(structure_periods(tournament.structure_id)),
        "stats": {
            "entries": summary.entries,
            "players_remaining": summary.players_remaining,
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
        "cancelled": _cancelled(tournament, entry),
        "receipts": _receipts(entry),
        "last_event_id": last_event_id,
        "server_time_ms": now,
    }
