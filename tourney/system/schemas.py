"""API schemas of players, tournaments and entries (the API's names: kept stable)."""

from datetime import UTC, datetime
from typing import Any, Literal

from django.utils.translation import gettext as _
from ninja import Field, Schema

from infra.web.schema_types import (
    REASON_MAX,
    BodyIn,
    Chips,
    Entries,
    Id,
    Instant,
    Level,
    LevelFromStart,
    Line,
    Money,
    PoolMoney,
    Purchases,
    SeatNumber,
    TableNumber,
    TableSeats,
    Text,
    bounded,
)
from tourney.cancelling.selectors import cancel_reason
from tourney.core.errors import InvalidInput
from tourney.domain.house_rules_params import describe
from tourney.domain.purchases import MONEY_FIELDS
from tourney.models import Entry, Game, GameLimit, Player, Tournament
from tourney.satellites.selectors import satellite_info
from tourney.setup.usecases import settings_token, setup_values
from tourney.tournaments.selectors import player_active_ban, tournament_rules, tournament_summary


class ErrorOut(Schema):
    code: str
    detail: str


# Every endpoint documents the same refusals: `{code, detail}` with these statuses.
ERROR_RESPONSES = {401: ErrorOut, 403: ErrorOut, 404: ErrorOut, 409: ErrorOut, 422: ErrorOut}


class LateTimerOut(Schema):
    tournament_id: int
    late_ms: int


class HealthOut(Schema):
    # "down" (answered 503) when the database cannot be reached
    status: Literal["ok", "down"]
    database: Literal["ok", "down"]
    broker: Literal["ok", "absent", "down"]
    # "late": a running clock's stored period ended over 2 s ago and was not advanced;
    # "unknown" while the database is down
    timers: Literal["ok", "late", "unknown"]
    late_timers: list[LateTimerOut]


class TimeOut(Schema):
    server_time_ms: int


class PlayerIn(BodyIn):
    name: Line = Field(..., min_length=1, max_length=120)
    nickname: Line = Field("", max_length=60)
    email: Line = Field("", max_length=254)
    phone: Line = Field("", max_length=40)


class PlayerDuplicateOut(Schema):
    id: int
    name: str
    reasons: list[Literal["name", "phone", "email"]]


class PlayerOut(Schema):
    id: int
    name: str
    nickname: str
    email: str = Field(..., description="Empty unless the caller may register players")
    phone: str = Field(..., description="Empty unless the caller may register players")
    banned: bool = False
    ban_reason: str | None = None
    membership_number: str = ""
    rules_acknowledged_ms: int | None = Field(
        None, description="When he signed that he read the house rules (epoch ms)"
    )
    possible_duplicates: list[PlayerDuplicateOut] = Field(
        default_factory=list,
        description="On create: players this one likely duplicates (same name, phone, e-mail)",
    )


class MembershipIn(BodyIn):
    membership_number: Line = Field(..., min_length=1, max_length=40)
    rules_read: bool = Field(..., description="He signed that he read the house rules")


class BanIn(BodyIn):
    reason: Text = Field(..., min_length=1, max_length=REASON_MAX)
    ends_at_ms: Instant | None = Field(
        None, description="When the ban ends (in the future); omit or null for indefinite"
    )
    season_id: Id | None = Field(None, description="Only from this season's tournaments")


class GameIn(BodyIn):
    """docs/api.md: the game an event deals and its betting."""

    # The choices are the model's (tourney/models/games.py), written once.
    kind: Literal[tuple(Game.values)] = Game.HOLDEM.value
    limit: Literal[tuple(GameLimit.values)] = GameLimit.NO_LIMIT.value


class GameOut(Schema):
    kind: str
    limit: str
    name: str = Field(..., description="As the screens print it: “No-limit Hold'em”")


class BountyIn(BodyIn):
    kind: Literal["knockout", "progressive", "mystery"]
    amount: Money = Field(..., ge=1, description="Of each buy-in; the rest is the prize pool")
    cash_percent: bounded(0, 100) = Field(
        50, description="progressive: the eliminator's share in cash, the rest onto his head"
    )
    phase_level: bounded(1, 1_000) | None = Field(
        None, description="mystery: the envelopes are drawn from this level on"
    )
    phase_players: bounded(1, 100_000) | None = Field(
        None, description="mystery: ...or once this many players are left (the first of both)"
    )


class SatelliteIn(BodyIn):
    target_id: Id = Field(..., description="The event whose seats it awards")
    seat_value: Money | None = Field(
        None, ge=1, description="A seat's value; omit for the target's buy-in plus fee"
    )
    leftover: Literal["next_place", "shared", "partial_seat"] = Field(
        "next_place", description="The pool left after the whole seats (docs/rules.md §17.2)"
    )
    seat_holder: Literal["cash", "refuse"] = Field(
        "cash",
        description="A player holding a seat of the target already: plays for its value in "
        "cash, or is refused (§17.5)",
    )


class TournamentIn(BodyIn):
    name: Line = Field(..., min_length=1, max_length=160)
    structure_id: Id
    starting_stack: Chips = Field(..., gt=0)
    buy_in: Money
    fee: Money = 0
    room_id: Id | None = None
    house_rules: Line | None = Field(
        None, description="tda2024, mirage, doyle, veszprem, rimoc, atlas"
    )
    seats_per_table: TableSeats | None = None
    final_table_size: TableSeats | None = None
    table_numbers: list[TableNumber] | None = Field(None, max_length=1_000)
    balance_threshold: bounded(1, 9) | None = None
    rules: dict[str, Any] = Field(default_factory=dict, description="Other house-rule overrides")
    waiting_list: bool = True
    max_entries: Entries | None = None
    scheduled_start_ms: Instant | None = Field(None, description="Planned start (epoch ms)")
    currency: Line = Field("HUF", max_length=8)
    game: GameIn | None = Field(None, description="Default: no-limit Hold'em")
    late_registration_level: LevelFromStart | None = Field(
        None,
        description="Late registration is open through the end of this level (1-based, breaks "
        "not counted); 0: registration closes at the start; omit for no clock deadline",
    )
    reentry_max: Purchases | None = Field(
        None, description="Re-entries per player (house rule; 0 = none)"
    )
    rebuy_until_level: Level | None = Field(
        None, description="Rebuys through the end of this level; omit for no rebuys"
    )
    rebuy_max: Purchases = Field(0, description="Rebuys per entry; 0 = no limit")
    rebuy_condition: Literal["at_most_start", "busted"] = "at_most_start"
    rebuy_buy_in: Money = Field(0, description="Rebuy price to the prize pool")
    rebuy_fee: Money = 0
    rebuy_chips: Chips = 0
    addon_level: Level | None = Field(
        None, description="Add-on in the break (or level) after this level; omit for none"
    )
    addon_buy_in: Money = 0
    addon_fee: Money = 0
    addon_chips: Chips = 0
    guarantee: PoolMoney = Field(0, description="Guaranteed prize pool; the house pays the overlay")
    payout_structure_id: Id | None = Field(
        None, description="How it pays (GET /payout-structures); omit for the default template"
    )
    bounty: BountyIn | None = Field(None, description="A bounty tournament (docs/rules.md §16)")
    satellite: SatelliteIn | None = Field(None, description="A satellite (docs/rules.md §17)")


class TournamentOut(Schema):
    id: int
    name: str
    status: str
    parent_id: int | None = Field(None, description="A flight's main event")
    flights: list[int] = Field([], description="A main event's flights (ids)")
    bagged: int = Field(0, description="A flight's players with chips bagged for Day 2")
    day_end_level: int | None = Field(None, description="A flight's day ends after this level")
    entries: int
    players_remaining: int
    waiting: int
    prize_pool: int
    bounty: dict[str, Any] = Field(default_factory=dict, description="{kind, amount, ...}")
    bounty_pool: int = Field(0, description="The bounties bought; the prize pool is the rest")
    satellite: dict[str, Any] = Field(
        default_factory=dict,
        description="{target_id, target_name, seat_value, seats, leftover, leftover_rule, "
        "tickets}: the seats the prize pool buys now",
    )
    total_chips: int
    average_stack: int
    capacity: int
    starting_stack: int
    buy_in: int
    fee: int
    currency: str
    game: GameOut
    room_id: int
    structure_id: int
    house_rules: str
    rules: dict[str, Any]
    seats_drawn: bool
    version: int
    late_registration_level: int | None = None
    display_message: str = ""
    cancel_reason: str | None = Field(None, description="Why it was cancelled (docs/rules.md §18)")
    hand_for_hand: bool = False
    h4h_hand: int | None = None
    rebuys: int = 0
    addons: int = 0
    prize_money: int = Field(0, description="Prize part of entries, rebuys, add-ons less refunds")
    overlay: int = Field(0, description="What the house adds to reach the guarantee")
    guarantee: int = 0
    rebuy_until_level: int | None = None
    rebuy_max: int = 0
    rebuy_condition: str = "at_most_start"
    rebuy_buy_in: int = 0
    rebuy_fee: int = 0
    rebuy_chips: int = 0
    addon_level: int | None = None
    addon_buy_in: int = 0
    addon_fee: int = 0
    addon_chips: int = 0
    payout_structure_id: int | None = None
    season_id: int | None = None
    season_round: int | None = None
    scheduled_start_ms: int | None = None
    max_entries: int | None = Field(None, description="Entry cap: players in play at once")
    waiting_list: bool = True
    rules_overrides: dict[str, Any] = Field(
        default_factory=dict, description="The house rules this tournament sets itself"
    )
    table_numbers: list[int] = Field(default_factory=list)
    settings_token: str = Field("", description="Send with PATCH to refuse a concurrent edit")


class EntryIn(BodyIn):
    player_id: Id
    method: Literal["cash", "card", "other"] = "cash"
    ticket_id: Id | None = Field(
        None, description="Pays with the player's satellite ticket for this event (no cash)"
    )


class EntryOut(Schema):
    id: int
    player_id: int
    player_name: str
    number: int
    status: str
    table: int | None
    seat: int | None
    waits_for_button: bool = False
    absent: bool = False


class SeatAssignIn(BodyIn):
    table: TableNumber
    seat: SeatNumber


class MessageIn(BodyIn):
    message: Text = Field(..., max_length=500, description="Empty clears the message")


class MessageOut(Schema):
    message: str


def ms(dt: datetime | None) -> int | None:
    return int(dt.timestamp() * 1000) if dt else None


def ms_datetime(value: int | None) -> datetime | None:
    """An epoch-milliseconds instant from a request; a value no calendar holds is refused."""
    if value is None:
        return None
    try:
        return datetime.fromtimestamp(value / 1000, tz=UTC)
    except (OverflowError, ValueError, OSError) as exc:
        raise InvalidInput("invalid_time", _("%(ms)s is not a time.") % {"ms": value}) from exc


def player_out(player: Player, contact: bool = True) -> dict:
    """`contact`: with e-mail and phone (empty otherwise: the display role, the floor)."""
    ban = player_active_ban(player)
    return {
        "id": player.pk,
        "name": player.name,
        "nickname": player.nickname,
        "email": player.email if contact else "",
        "phone": player.phone if contact else "",
        "banned": ban is not None,
        "ban_reason": ban.reason if ban else None,
        "membership_number": player.membership_number if contact else "",
        "rules_acknowledged_ms": ms(player.rules_acknowledged_at),
    }


def duplicates_out(duplicates) -> list[dict]:
    return [
        {"id": d.player.pk, "name": d.player.name, "reasons": list(d.reasons)} for d in duplicates
    ]


def tournament_out(tournament: Tournament) -> dict:
    summary = tournament_summary(tournament)
    setup = setup_values(tournament)
    return {
        "id": tournament.pk,
        "name": tournament.name,
        "status": tournament.status,
        "parent_id": tournament.main_event_id,
        "flights": (
            list(tournament.flights.order_by("pk").values_list("pk", flat=True))
            if tournament.is_main_event
            else []
        ),
        "bagged": summary.bagged,
        "day_end_level": tournament.day_end_level,
        "entries": summary.entries,
        "players_remaining": summary.players_remaining,
        "waiting": summary.waiting,
        "prize_pool": summary.prize_pool,
        "bounty": tournament.bounty,
        "bounty_pool": summary.bounty_pool,
        "satellite": satellite_info(tournament, summary.prize_pool) or {},
        "total_chips": summary.total_chips,
        "average_stack": summary.average_stack,
        "capacity": summary.capacity,
        "starting_stack": tournament.starting_stack,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "currency": tournament.currency,
        "game": {
            "kind": tournament.game,
            "limit": tournament.game_limit,
            "name": tournament.game_name,
        },
        "room_id": tournament.room_id,
        "structure_id": tournament.structure_id,
        "house_rules": tournament.house_rules,
        "rules": describe(tournament_rules(tournament)),
        "seats_drawn": tournament.seats_drawn_at is not None,
        "version": tournament.version,
        "late_registration_level": tournament.late_registration_level,
        "display_message": tournament.display_message,
        "cancel_reason": cancel_reason(tournament),
        "hand_for_hand": tournament.hand_for_hand,
        "h4h_hand": tournament.h4h_hand if tournament.hand_for_hand else None,
        "payout_structure_id": tournament.payout_structure_id,
        "season_id": tournament.season_id,
        "season_round": tournament.season_round,
        "rebuys": summary.rebuys,
        "addons": summary.addons,
        "prize_money": summary.prize_money,
        "overlay": summary.overlay,
        **{field: getattr(tournament, field) for field in MONEY_FIELDS},
        "scheduled_start_ms": ms(tournament.scheduled_start),
        "max_entries": tournament.max_entries,
        "waiting_list": tournament.waiting_list_enabled,
        "rules_overrides": tournament.rules_overrides,
        "table_numbers": setup["table_numbers"],
        "settings_token": settings_token(tournament, setup),
    }


def entry_out(entry: Entry) -> dict:
    return {
        "id": entry.pk,
        "player_id": entry.player_id,
        "player_name": entry.player.name,
        "number": entry.number,
        "status": entry.status,
        "table": entry.tournament_table.number if entry.tournament_table_id else None,
        "seat": entry.seat,
        "waits_for_button": entry.waits_for_button,
        "absent": entry.absent_since is not None,
    }
