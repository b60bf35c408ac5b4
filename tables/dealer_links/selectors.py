"""What a table's dealer page shows: the table's seats (names and the button), the moves into
and out of it waiting for the floor, the seats sitting out a penalty, the clock called there, and
the clock's level."""

from collections.abc import Iterable
from dataclasses import dataclass

from django.conf import settings
from django.core import signing
from django.utils.translation import gettext as _

from clocks.clock.selectors import clock_view
from clocks.color_ups.selectors import color_ups_status
from clocks.models import ColorUp
from tables.clock_calls.selectors import clock_calls_active
from tables.floor.selectors import floor_actions_list, seats_leaving, tables_really_at
from tables.models import ClockCall, FloorAction, TournamentTable
from tables.seating.selectors import tournament_tables_layout
from tourney.bounties.selectors import book_of, bounty_of
from tourney.core import roles
from tourney.core.errors import PermissionDenied
from tourney.models import Entry, Tournament
from tourney.penalties.selectors import seats_sitting_out
from tourney.tournaments.selectors import tournament_rules

CALL_FIELDS = (
    "id",
    "seat",
    "player_name",
    "ends_at_ms",
    "remaining_ms",
    "phase",
    "countdown_seconds",
    "at_expiry_text",
)


def _moves(actions: list[dict], number: int) -> tuple[list[dict], list[dict]]:
    """Pending moves to table `number` and from it (a move within the table counts in)."""
    incoming, outgoing = [], []
    for action in actions:
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
    actions = floor_actions_list(tournament, FloorAction.Status.PENDING)
    # Where the players really sit, as the console shows it (docs/rules.md §3.4): a pending
    # mover still sits in his old seat (`leaving`, the dealer busts him there); the seat he
    # goes to is held for him, arriving, not his to bust before the floor confirms the move.
    seats_leaving([here], actions)
    arriving = _arriving(actions, table.number)
    incoming, outgoing = _moves(actions, table.number)
    clock = clock_view(tournament)
    # A seat serving a missed-hands penalty: the dealer kills its hand (docs/rules.md §10).
    penalties = seats_sitting_out(tournament, table.number)
    seats = [_seat(s, penalties, arriving) for s in here["seat_list"]]
    bounty = bounty_of(tournament)
    # A bounty tournament: the bounty on each head (docs/rules.md §16), the dealer names the
    # pot's winners of a bust-out.
    heads = book_of(tournament, bounty).on_head if bounty else {}
    for seat in seats:
        seat["bounty"] = heads.get(seat["entry_id"]) if seat["entry_id"] else None
    rules = tournament_rules(tournament)
    away = set(
        Entry.objects.filter(
            tournament=tournament,
            tournament_table=table,
            status=Entry.Status.ACTIVE,
            absent_since__isnull=False,
        ).values_list("pk", flat=True)
    )
    for seat in seats:
        seat["away"] = seat["entry_id"] in away
    return {
        # A seat away (docs/rules.md §2.3): when its hand is live is the house's rule.
        "away_rule": {
            "live_checkpoint": rules.live_checkpoint,
            "big_blind_live": rules.absent_bb_exception,
        },
        "tournament": {"id": tournament.pk, "name": tournament.name},
        "table": {
            "number": table.number,
            "status": here["status"],
            "button_seat": here["button_seat"],
            "seats": seats,
        },
        "bounty": tournament.bounty or None,
        # The house's minimum thinking time before a clock may be called (Mirage: 90 s).
        "clock_minimum": rules.clock_min_elapsed_seconds,
        # The dealer gives warnings and round penalties where the house says so (Atlas).
        "dealer_penalties": rules.dealer_penalties,
        "incoming": incoming,
        "outgoing": outgoing,
        "clock_calls": [
            # what is left when served: the page counts it down from its own clock
            {k: c[k] for k in CALL_FIELDS}
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


def _arriving(actions: list[dict], number: int) -> dict[int, dict]:
    """Per named mover whose pending move leads to table `number` from another table, its
    move's row (`floor_actions_out`)."""
    arriving = {}
    for action in actions:
        for move in (action, *action["moves"]):
            if (
                move["kind"] != FloorAction.Kind.MOVE
                or move["status"] != FloorAction.Status.PENDING
            ):
                continue
            if move["entry_id"] is not None and move["to_table"] == number != move["from_table"]:
                arriving[move["entry_id"]] = move
    return arriving


def _seat(s: dict, penalties: dict, arriving: dict[int, dict]) -> dict:
    """One seat of the dealer's table: `entry_id` the player the dealer may act on there (a
    pending mover in the seat he has not left, `leaving_to` where he goes; nobody in the seat
    held for a mover on his way, `arriving_from` where he comes from)."""
    player, leaving = s["player"], s.get("leaving")
    move = arriving.get(player["entry_id"]) if player else None
    if leaving is not None:
        entry_id, name = leaving["entry_id"], leaving["player_name"]
    else:
        entry_id = player["entry_id"] if player and move is None else None
        name = player["player_name"] if player else None
    return {
        "seat": s["seat"],
        "entry_id": entry_id,
        "player_name": name,
        "penalty_hands_left": (
            penalties[s["seat"]]["hands_left"]
            if s["seat"] in penalties and leaving is None and move is None
            else None
        ),
        "leaving_to": [leaving["to_table"], leaving["to_seat"]] if leaving else None,
        "arriving_from": [move["from_table"], move["from_seat"]] if move else None,
    }


def _color_up(tournament: Tournament, number: int) -> str | None:
    status = color_ups_status(tournament)
    if not status["active"]:
        return None
    return next((t["status"] for t in status["tables"] if t["table"] == number), None)


@dataclass(frozen=True)
class DealerLinkActor:
    tournament_id: int
    table: int
    revoked: bool = False

    # Not a logged-in user: services record no user (`done_by`, `reported_by` stay empty),
    # and every staff role check refuses it (tourney/core/roles.py).
    is_authenticated = False
    is_anonymous = False
    is_active = True
    pk = None

    @property
    def audit_name(self) -> str:
        return f"dealer link of table {self.table}"

    def get_username(self) -> str:
        return self.audit_name


PREFIX = "dl."  # tells a dealer token from an API token in an Authorization header


def _signer() -> signing.Signer:
    return signing.Signer(salt=settings.DEALER_LINK_SALT)


def dealer_token(tournament_id: int, number: int, generation: int) -> str:
    return PREFIX + _signer().sign_object({"t": tournament_id, "n": number, "g": generation})


def is_dealer_token(token: str) -> bool:
    return token.startswith(PREFIX)


def dealer_actor(token: str) -> DealerLinkActor | None:
    """Who a dealer token acts as; `revoked` when its generation is no longer the table's.
    None when the token is forged or malformed, or names no table of that tournament."""
    if not is_dealer_token(token):
        return None
    try:
        data = _signer().unsign_object(token.removeprefix(PREFIX))
    except signing.BadSignature:
        return None
    if not isinstance(data, dict):
        return None
    tournament_id, number, generation = data.get("t"), data.get("n"), data.get("g")
    if not all(isinstance(v, int) for v in (tournament_id, number, generation)):
        return None
    current = (
        TournamentTable.objects.filter(tournament_id=tournament_id, number=number)
        .values_list("dealer_link_generation", flat=True)
        .first()
    )
    if current is None:
        return None
    return DealerLinkActor(tournament_id, number, revoked=current != generation)


def _dealer(actor, tournament_id: int) -> DealerLinkActor | None:
    """The dealer link acting, checked for revocation and tournament; None for staff."""
    if not isinstance(actor, DealerLinkActor):
        return None
    if actor.revoked:
        raise PermissionDenied(
            "dealer_link_revoked",
            _("This dealer link was revoked: ask the floor for the table's new link."),
        )
    if actor.tournament_id != tournament_id:
        raise PermissionDenied(
            "dealer_link_other_table", _("This dealer link is for another tournament.")
        )
    return actor


def _other_table(actor: DealerLinkActor) -> PermissionDenied:
    return PermissionDenied(
        "dealer_link_other_table",
        _("This dealer link is for table %(t)s only.") % {"t": actor.table},
    )


def require_floor_at(actor, tournament_id: int, table: int | None) -> None:
    """Floor staff anywhere; a dealer link at its own table only."""
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
    elif table != dealer.table:
        raise _other_table(dealer)


def require_busts_at(actor, tournament_id: int, entry_ids: Iterable[int]) -> None:
    """Floor staff for any players; a dealer link for players sitting at its table only (a
    pending mover at the table he has not left yet, `tables_really_at`)."""
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    # Players sitting at another table are refused here: where a player really sits, as the
    # console shows him, so a pending mover is his old table's until the floor confirms his
    # move (docs/rules.md §3.4). One already out (the dealer's second tap on Bust-out) or
    # unknown is left to the bust-out itself, which answers why (409 already_eliminated, 404),
    # with nothing done either way.
    tables = tables_really_at(tournament_id, entry_ids)
    if any(number != dealer.table for number in tables.values()):
        raise _other_table(dealer)


def require_action_at(actor, tournament_id: int, action_id: int) -> None:
    """Floor staff for any action; a dealer link for a move into or out of its table."""
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    action = FloorAction.objects.filter(tournament_id=tournament_id, pk=action_id).first()
    if action is None or dealer.table not in (action.from_table, action.to_table):
        raise _other_table(dealer)


def require_clock_call_at(actor, tournament_id: int, call_id: int) -> None:
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    here = ClockCall.objects.filter(
        tournament_id=tournament_id, pk=call_id, tournament_table__number=dealer.table
    )
    if not here.exists():
        raise _other_table(dealer)


def require_color_up_at(actor, tournament_id: int, color_up_id: int) -> None:
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    here = ColorUp.objects.filter(
        tournament_id=tournament_id, pk=color_up_id, tournament_table__number=dealer.table
    )
    if not here.exists():
        raise _other_table(dealer)


DEALER_PENALTY_KINDS = ("warning", "missed_rounds")


def require_penalty_at(actor, tournament_id: int, entry_id: int, kind: str) -> None:
    """Floor staff give any penalty; a dealer link a warning or a round penalty to a player of
    its table, where the house lets the dealer give them (`dealer_penalties`, Atlas 004:3, 79;
    docs/rules.md §10.1)."""
    dealer = _dealer(actor, tournament_id)
    if dealer is None:
        roles.require(actor, "floor")
        return
    tournament = Tournament.objects.get(pk=tournament_id)
    if not tournament_rules(tournament).dealer_penalties or kind not in DEALER_PENALTY_KINDS:
        roles.require(actor, "floor")  # a dealer link: 403 dealer_link_not_allowed
    tables = tables_really_at(tournament_id, [entry_id])
    if any(number != dealer.table for number in tables.values()):
        raise _other_table(dealer)
