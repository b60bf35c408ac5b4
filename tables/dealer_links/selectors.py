"""What a table's dealer page shows: the table's seats (names and the button), the moves into
and out of it waiting for the floor, the seats sitting out a penalty, the clock called there, and
the clock's level."""

from clocks.color_ups.selectors import color_ups_status
from clocks.services.clock import clock_view
from tables.floor.selectors import floor_actions_list
from tables.models import FloorAction, TournamentTable
from tables.selectors import tournament_tables_layout
from tables.services.clock_calls import clock_calls_active
from tourney.models import Tournament
from tourney.penalties.selectors import seats_sitting_out


def _moves(tournament: Tournament, number: int) -> tuple[list[dict], list[dict]]:
    """Pending moves to table `number` and from it (a move within the table counts in)."""
    incoming, outgoing = [], []
    for action in floor_actions_list(tournament, FloorAction.Status.PENDING):
        moves = action["moves"] if action["kind"] != FloorAction.Kind.MOVE else [action]
        for move in moves:
            if move["status"] != FloorAction.Status.PENDING:
                continue
            row = {
                k: move.get(k)
                for k in ("id", "player_name", "from_table", "from_seat", "to_table", "to_seat")
            }
            if move["to_table"] == number:
                incoming.append(row)
            elif move["from_table"] == number:
                outgoing.append(row)
    return incoming, outgoing


def dealer_state(tournament: Tournament, table: TournamentTable) -> dict:
    layout = tournament_tables_layout(tournament, include_idle=True)
    here = next(t for t in layout if t["number"] == table.number)
    incoming, outgoing = _moves(tournament, table.number)
    clock = clock_view(tournament)
    # A seat serving a missed-hands penalty: the dealer kills its hand (docs/rules.md §10).
    penalties = seats_sitting_out(tournament, table.number)
    return {
        "tournament": {"id": tournament.pk, "name": tournament.name},
        "table": {
            "number": table.number,
            "status": here["status"],
            "button_seat": here["button_seat"],
            "seats": [
                {
                    "seat": s["seat"],
                    "entry_id": s["player"]["entry_id"] if s["player"] else None,
                    "player_name": s["player"]["player_name"] if s["player"] else None,
                    "penalty_hands_left": (
                        penalties[s["seat"]]["hands_left"] if s["seat"] in penalties else None
                    ),
                }
                for s in here["seat_list"]
            ],
        },
        "incoming": incoming,
        "outgoing": outgoing,
        "clock_calls": [
            {k: c[k] for k in ("id", "seat", "player_name", "ends_at_ms")}
            for c in clock_calls_active(tournament)
            if c["table"] == table.number
        ],
        "clock": {"status": clock["status"], "period": clock["period"]},
        # The room plays hand-for-hand: the page says so (a banner), one hand at a time.
        "hand_for_hand": tournament.hand_for_hand,
        # During a color-up break: this table's color-up, "open" (to run), "dealt" (a race to
        # confirm) or "done"; None outside one. The page shows its Color-up banner till done.
        "color_up": _color_up(tournament, table.number),
    }


def _color_up(tournament: Tournament, number: int) -> str | None:
    status = color_ups_status(tournament)
    if not status["active"]:
        return None
    return next((t["status"] for t in status["tables"] if t["table"] == number), None)
