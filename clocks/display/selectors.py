"""Reads for the lobby display: one JSON-able snapshot of everything a screen draws.

`display_state` is what `/display/<token>/state.json` returns and what the page renders first;
the page then keeps it live from the event stream. Instants are Unix epoch milliseconds of the
server clock (`*_ms`), durations seconds (`*_seconds`), money and chips integers.
"""

import re
from collections.abc import Sequence

from django.conf import settings
from django.core import signing

from clocks.clock.selectors import clock_view, now_ms, structure_periods
from clocks.color_ups.selectors import color_up_display
from clocks.domain.clock import level_numbers
from clocks.domain.structures import Period
from tables.models import FloorAction
from tourney.bounties.selectors import biggest_bounties, book_of, bounty_of, mystery_state
from tourney.cancelling.selectors import cancel_reason
from tourney.chip_counts.selectors import big_blind_of, chip_leaderboard
from tourney.domain.house_rules_params import final_table_players
from tourney.models import Entry, Tournament, TournamentEvent
from tourney.payouts.selectors import payout_ladder, tournament_results
from tourney.satellites.selectors import prize_label, satellite_of, seat_value_of
from tourney.tournaments.selectors import tournament_rules, tournament_summary

# Event kinds whose payload may name a player and the seat they now take.
MOVE_EVENT_KINDS = ("seating", "entry", "move", "action")
# A final-table redraw moves up to 10 players and a table break as many: the screen pages
# through all of them, so every player finds his own.
RECENT_MOVES = 30
# Every payout place (grouped by amount) goes to the screen, which pages through them.
PAYOUT_ROWS = 60
# The finished screen: the winner and the places after him.
FINAL_RESULTS = 20
# A chip colour goes into a style attribute: a CSS colour name or hex, nothing else.
SAFE_COLOR = re.compile(r"^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{3,20})$")
FALLBACK_COLOR = "gray"


def display_periods(periods: Sequence[Period]) -> list[dict]:
    """The structure's periods as the screen needs them: level numbers (None on breaks),
    blinds and ante in chips, `duration_seconds`, `color_up` chip values."""
    return [
        {
            "kind": p.kind,
            "level": number,
            "small_blind": p.small_blind,
            "big_blind": p.big_blind,
            "ante": p.ante,
            "big_blind_ante": bool(getattr(p, "big_blind_ante", False)),
            "duration_seconds": p.duration_seconds,
            "color_up": list(p.color_up),
        }
        for p, number in zip(periods, level_numbers(periods), strict=True)
    ]


def chips_in_play(chips: Sequence[dict], periods: Sequence[Period], period_index: int) -> list:
    """The chip set less the values colored up at breaks *before* `period_index` (during a
    break its own color-up is still in progress, so those chips still count)."""
    gone = {v for p in periods[:period_index] if p.kind == "break" for v in p.color_up}
    return [c for c in chips if c["value"] not in gone]


def display_chips(raw: Sequence[dict]) -> list[dict]:
    """Chips ascending by value with a colour safe to put in a style attribute."""
    chips = []
    for chip in sorted(raw, key=lambda c: c.get("value", 0)):
        color = str(chip.get("color", ""))
        safe = color if SAFE_COLOR.match(color) else FALLBACK_COLOR
        chips.append({"value": int(chip.get("value", 0)), "color": color, "css_color": safe})
    return chips


def move_from_event(event_id: int, kind: str, payload: dict, at_ms: int) -> dict | None:
    """A recent-move row {id, kind, entry_id, player_name, table, seat, at_ms} from an event
    payload, or None when it does not put a player in a seat."""
    table = payload.get("to_table", payload.get("table"))
    seat = payload.get("to_seat", payload.get("seat"))
    if table is None or seat is None:
        return None
    if kind == "entry" and payload.get("status") not in (None, Entry.Status.ACTIVE):
        return None
    return {
        "id": event_id,
        "kind": kind,
        "entry_id": payload.get("entry_id", payload.get("id") if kind == "entry" else None),
        "player_name": payload.get("player_name") or "",
        "table": table,
        "seat": seat,
        "at_ms": at_ms,
    }


def floor_moves(tournament: Tournament, limit: int = RECENT_MOVES) -> list[dict]:
    """The latest moves the floor planned (balancing, table breaks, the final-table redraw),
    not undone, as recent-move rows with where the player came from: {id, kind: "move",
    entry_id, player_name, from_table, from_seat, table, seat, at_ms}, newest first."""
    rows = (
        FloorAction.objects.filter(
            tournament=tournament, kind=FloorAction.Kind.MOVE, entry__isnull=False
        )
        .exclude(status__in=[FloorAction.Status.UNDONE, FloorAction.Status.SUPERSEDED])
        .order_by("-id")
        .values_list(
            "id", "entry_id", "entry__player__name", "from_table", "from_seat", "to_table",
            "to_seat", "created_at",
        )[:limit]
    )  # fmt: skip
    return [
        {
            "id": action_id,
            "kind": "move",
            "entry_id": entry_id,
            "player_name": name,
            "from_table": from_table,
            "from_seat": from_seat,
            "table": to_table,
            "seat": to_seat,
            "at_ms": int(created_at.timestamp() * 1000),
        }
        for action_id, entry_id, name, from_table, from_seat, to_table, to_seat, created_at in rows
    ]


def recent_moves(tournament: Tournament, limit: int = RECENT_MOVES) -> list[dict]:
    """The latest floor moves and seat assignments (late registration), newest first. A
    player's newest counts: a seat he had before, or gave back (an alternate sent back to the
    waiting list, a refund), is not listed, nor any of a player out of play."""
    moves = floor_moves(tournament, limit)
    rows = []
    settled: set[int] = set()  # players whose newest seat event has been read
    events = TournamentEvent.objects.filter(tournament=tournament, kind__in=MOVE_EVENT_KINDS)
    for event in events.order_by("-id")[: limit * 4]:
        payload = event.payload
        entry_id = payload.get("entry_id", payload.get("id") if event.kind == "entry" else None)
        if entry_id is not None and entry_id in settled:
            continue
        row = move_from_event(event.pk, event.kind, payload, int(event.at.timestamp() * 1000))
        if row is not None:
            rows.append(row)
        gone = event.kind == "entry" and payload.get("status") not in (None, Entry.Status.ACTIVE)
        if entry_id is not None and (row is not None or gone):
            settled.add(entry_id)
        if len(rows) == limit:
            break
    # One read of the listed players: the names the events lack, and who is still in play.
    listed_ids = {r["entry_id"] for r in moves + rows} - {None}
    players = Entry.objects.filter(pk__in=listed_ids).values_list("pk", "player__name", "status")
    names, out = {}, set()
    for pk, name, status in players.iterator():
        names[pk] = name
        if status != Entry.Status.ACTIVE:
            out.add(pk)
    for row in rows:
        row["player_name"] = row["player_name"] or names.get(row["entry_id"], "")
    # A player moved twice (or seated, then moved) is listed at his newest seat only; one out
    # of play (busted since) has no seat to find: another player may sit there now.
    merged, listed = [], set(out)
    for row in sorted(moves + rows, key=lambda r: r["at_ms"], reverse=True):
        if row["entry_id"] is not None and row["entry_id"] in listed:
            continue
        listed.add(row["entry_id"])
        merged.append(row)
    return merged[:limit]


def moves_with_bounties(tournament: Tournament, moves: list[dict]) -> list[dict]:
    """A knockout's moves say the bounty on each moved player's head (`bounty`; docs/rules.md
    §16.4): the players a table gains are worth that much to bust."""
    bounty = bounty_of(tournament) if tournament.bounty else None
    if bounty is None or bounty.kind == "mystery" or not moves:
        return moves
    heads = book_of(tournament, bounty).on_head
    return [{**m, "bounty": heads.get(m["entry_id"], 0)} for m in moves]


def final_results(tournament: Tournament, limit: int = FINAL_RESULTS) -> list[dict]:
    """A finished tournament's best places, winner first: [{place, place_to, player_name,
    prize}] (prize in money, the deal's amount where one stands); [] before the end."""
    if tournament.status != Tournament.Status.FINISHED or tournament.main_event_id is not None:
        return []  # a flight ends its day with no winner (docs/rules.md §15.3)
    rows = tournament_results(tournament).rows[:limit]
    satellite = satellite_of(tournament)
    value = seat_value_of(satellite) if satellite else 0
    return [
        {
            **{k: r[k] for k in ("place", "place_to", "player_name", "prize")},
            # A satellite's places won a ticket: "Seat" (docs/rules.md §17.4).
            "label": prize_label(r.get("ticket", 0), 0, value) if r.get("ticket") else "",
        }
        for r in sorted(rows, key=lambda r: (r["place"], r["entry_id"]))
    ]


def mystery_display(tournament: Tournament) -> dict | None:
    """What the TV shows of a mystery bounty: {count, left, left_total, draws [{names,
    value}]}, the latest draw first."""
    state = mystery_state(tournament) if tournament.bounty else None
    if state is None:
        return None
    return {
        "count": len(state["envelopes"]),
        "left": state["left"],
        "left_total": state["left_total"],
        "draws": [{"names": ", ".join(d["names"]), "value": d["value"]} for d in state["draws"]],
    }


LEADER_ROWS = 10


def display_state(tournament: Tournament, now: int | None = None) -> dict:
    """Everything a lobby screen shows, as of `now` (server epoch ms)."""
    now = now if now is not None else now_ms()
    periods = structure_periods(tournament.structure_id)
    clock = clock_view(tournament, now)
    summary = tournament_summary(tournament)
    chips = display_chips(tournament.structure.chips)
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
            "buy_in": tournament.buy_in,
            "fee": tournament.fee,
            "starting_stack": tournament.starting_stack,
            "seats_drawn": tournament.seats_drawn_at is not None,
            # The screen shows rebuy and add-on counts only for a tournament that has them.
            "has_rebuys": tournament.rebuy_until_level is not None,
            "has_addons": tournament.addon_level is not None,
            # The add-on sold at the break after its level: the break's screen says so.
            "addon": (
                {
                    "after_level": tournament.addon_level,
                    "price": tournament.addon_buy_in + tournament.addon_fee,
                    "chips": tournament.addon_chips,
                }
                if tournament.addon_level is not None
                else None
            ),
            # The clock stands still between hands: the screen says hand-for-hand, not paused.
            "hand_for_hand": tournament.hand_for_hand,
            # A flight's end is its day's: no winner, its players bagged (docs/rules.md §15.3).
            "flight": tournament.main_event_id is not None,
            # Cancelled (docs/rules.md §18): the screen says so and why.
            "cancel_reason": cancel_reason(tournament),
            # Down to one table (after the final-table redraw): the screen says "Final table".
            "final_table": _final_table(tournament, summary.players_remaining),
        },
        "clock": clock,
        "periods": display_periods(periods),
        "chips": chips,
        # past the structure's end, after every color-up it lists (its last break's too)
        "chips_in_play": chips_in_play(
            chips, periods, clock["period_index"] + (clock["status"] == "overtime")
        ),
        # During a color-up break: its method and how many tables are done (else None).
        "color_up": color_up_display(tournament),
        "stats": {
            "entries": summary.entries,
            "players_remaining": summary.players_remaining,
            "rebuys": summary.rebuys,
            "addons": summary.addons,
            "prize_pool": summary.prize_pool,
            "total_chips": summary.total_chips,
            "average_stack": summary.average_stack,
        },
        # The payout ladder: "payouts" [{place, place_to, amount, state} | {gap}] and
        # "payout_ladder" {places_paid, players_remaining, bubble, in_money}.
        **payout_ladder(tournament, summary, limit=PAYOUT_ROWS),
        "message": getattr(tournament, "display_message", "") or "",
        "recent_moves": moves_with_bounties(tournament, recent_moves(tournament)),
        # A finished tournament: the winner and the best places (else []).
        "final_results": final_results(tournament),
        # The chip leaders, when stacks have been counted (docs/rules.md §15.4; else []).
        "leaders": chip_leaderboard(tournament, LEADER_ROWS, big_blind_of(clock)),
        # A bounty tournament: the biggest bounties on heads still in (docs/rules.md §16).
        "bounties": biggest_bounties(tournament, LEADER_ROWS),
        # A mystery bounty: the envelopes left and the latest draws (§16.5; else None).
        "mystery": mystery_display(tournament),
        "last_event_id": last_event_id,
        "server_time_ms": now,
    }


def _final_table(tournament: Tournament, players_left: int) -> bool:
    """A running event down to its final table's players (docs/rules.md §7.1: the house's
    final-table size), from the moment the last table break or redraw is called."""
    if tournament.status != Tournament.Status.RUNNING or tournament.seats_drawn_at is None:
        return False
    return 1 < players_left <= final_table_players(tournament_rules(tournament))


REVOKED_EVENT = "display_revoked"


def display_token(tournament_id: int, generation: int | None = None) -> str:
    """The token of the tournament's current display link (`generation` when known)."""
    if generation is None:
        current = Tournament.objects.filter(pk=tournament_id)
        generation = current.values_list("display_link_generation", flat=True).first() or 0
    return signing.dumps(
        {"t": tournament_id, "g": generation}, salt=settings.DISPLAY_LINK_SALT, compress=True
    )


def display_token_tournament_id(token: str) -> int | None:
    """The tournament id a display token grants, or None when it is forged, malformed or
    revoked (reads the database)."""
    try:
        data = signing.loads(token, salt=settings.DISPLAY_LINK_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    tournament_id, generation = data.get("t"), data.get("g", 0)
    if not isinstance(tournament_id, int) or not isinstance(generation, int):
        return None
    current = Tournament.objects.filter(pk=tournament_id, display_link_generation=generation)
    return tournament_id if current.exists() else None
