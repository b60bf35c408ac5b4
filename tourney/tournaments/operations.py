"""Tournament writes inside a use case's transaction: a new tournament and its tables, marking
it running, late registration's deadline recorded."""

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.selectors import structure_periods
from clocks.domain.clock import AdvanceResult, ClockState
from clocks.domain.structures import Period
from clocks.models import Structure, StructureLevel
from tables.models import Room, Table, TournamentTable
from tourney.audit.log import audit_record, audit_text
from tourney.bounties.operations import bounty_checked
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.domain.house_rules import resolve_house_rules
from tourney.domain.house_rules_params import HouseRules, HouseRulesError, describe
from tourney.domain.house_rules_profiles import DEFAULT_PROFILE
from tourney.domain.purchases import MoneySettings, money_settings_refusal
from tourney.domain.registration import deadline_crossing
from tourney.events.log import event_append
from tourney.models import Game, GameLimit, Tournament
from tourney.payouts.selectors import payout_structure_of
from tourney.satellites.operations import satellite_checked
from tourney.tournaments.selectors import registration_deadline_level

# What the audit log says when registration closes or opens again (level 0: at the start).
_REGISTRATION_TEXTS = {
    ("closed", False): gettext_noop("Late registration closed at the end of level %(level)s"),
    ("open", False): gettext_noop(
        "Late registration reopened: the clock went back to level %(level)s"
    ),
    ("closed", True): gettext_noop("Registration closed: the clock started (no late registration)"),
    ("open", True): gettext_noop("Registration reopened: the clock went back before the start"),
}


def game_checked(kind: str, limit: str) -> tuple[str, str]:
    """The game and its betting as stored (docs/api.md `game`), or 422 `invalid_game`."""
    if kind not in Game.values or limit not in GameLimit.values:
        raise InvalidInput(
            "invalid_game",
            _("The game is one of %(games)s; the betting one of %(limits)s.")
            % {"games": ", ".join(Game.values), "limits": ", ".join(GameLimit.values)},
        )
    return kind, limit


def room_tables_chosen(
    room: Room, table_numbers: Sequence[int] | None
) -> tuple[dict[int, Table], list[int]]:
    """The room's tables by number and the numbers chosen (all, by number, when none are
    given), in opening order; refused when a number repeats or the room has no such table."""
    room_tables = {t.number: t for t in Table.objects.filter(room=room)}
    numbers = list(table_numbers) if table_numbers else sorted(room_tables)
    if len(set(numbers)) != len(numbers):
        raise InvalidInput("duplicate_table_number", _("Each table may be listed only once."))
    unknown = [n for n in numbers if n not in room_tables]
    if unknown:
        raise InvalidInput(
            "unknown_table",
            _("The room has no table %(numbers)s.") % {"numbers": ", ".join(map(str, unknown))},
        )
    if not numbers:
        raise InvalidInput("invalid_tables", _("The tournament needs at least one table."))
    return room_tables, numbers


def tournament_tables_create(
    tournament: Tournament, room_tables: dict[int, Table], numbers: list[int], seats: int
) -> None:
    """The tournament's tables in opening order, each with at most `seats` seats in play."""
    TournamentTable.objects.bulk_create(
        TournamentTable(
            tournament=tournament,
            table=room_tables[n],
            number=n,
            open_order=i,
            seats=min(room_tables[n].seats, seats),
        )
        for i, n in enumerate(numbers, start=1)
    )


def tournament_mark_running(*, actor, tournament: Tournament) -> None:
    """Inside the clock's start: registering -> running (late registration from now on)."""
    if tournament.status != Tournament.Status.REGISTERING:
        return
    if tournament.seats_drawn_at is None:
        raise Conflict("draw_not_done", _("Draw the seats before starting."))
    tournament.status = Tournament.Status.RUNNING
    tournament.started_at = timezone.now()
    tournament.save(update_fields=["status", "started_at"])
    audit_record(
        actor=actor,
        action="tournament.start",
        summary=audit_text("Started %(name)s", {"name": tournament.name}),
        tournament=tournament,
        target=tournament,
        before={"status": "registering"},
        after={"status": "running"},
    )
    event_append(tournament, "tournament", {"status": tournament.status})


def registration_deadline_record(
    *,
    tournament: Tournament,
    before: ClockState,
    result: AdvanceResult,
    periods: list[Period],
    now_ms: int,
) -> None:
    """Inside a clock change: record late registration closing (or reopening, when the clock
    went back) with a `registration` event and an audit entry, once per crossing."""
    level = registration_deadline_level(tournament)
    if level is None:
        return
    crossing = deadline_crossing(before, result, periods, level, now_ms)
    if crossing is None:
        return
    status, at_ms = crossing
    audit_record(
        actor=None,
        action=f"registration.{status}",
        summary=audit_text(
            _REGISTRATION_TEXTS[status, level == 0],
            {"level": level},
        ),
        tournament=tournament,
        target=tournament,
        after={"status": status, "level": level, "at_ms": at_ms},
    )
    event_append(tournament, "registration", {"status": status, "level": level, "at_ms": at_ms})


def _non_negative(name: str, value: int) -> None:
    if value < 0:
        raise InvalidInput(
            f"invalid_{name}",
            _("%(field)s cannot be negative.") % {"field": name.replace("_", " ")},
        )


def tournament_record(
    *,
    actor,
    name: str,
    structure_id: int,
    starting_stack: int,
    buy_in: int,
    fee: int = 0,
    room_id: int | None = None,
    house_rules: str | None = None,
    rules_overrides: dict[str, Any] | None = None,
    table_numbers: Sequence[int] | None = None,
    waiting_list_enabled: bool = True,
    max_entries: int | None = None,
    currency: str = "HUF",
    scheduled_start=None,
    late_registration_level: int | None = None,
    money: MoneySettings | None = None,
    payout_structure_id: int | None = None,
    bounty: dict | None = None,
    satellite: dict | None = None,
    game: str = Game.HOLDEM,
    game_limit: str = GameLimit.NO_LIMIT,
) -> Tournament:
    """Create a tournament on a room's tables (in `table_numbers` order, or all by number), in
    the caller's transaction.

    `money`: rebuys, add-on and guarantee (`tourney.domain.purchases.MoneySettings`);
    `payout_structure_id`: how it pays (None: the default template); `bounty`: {kind, amount,
    cash_percent} of a bounty tournament (docs/rules.md §16.1); `satellite`: {target_id,
    seat_value, leftover} of a satellite (§17)."""
    name = " ".join((name or "").split())
    rules = _tournament_numbers_checked(
        name, starting_stack, buy_in, fee, max_entries, house_rules, rules_overrides
    )
    profile, overrides = house_rules or DEFAULT_PROFILE, dict(rules_overrides or {})
    structure, room = _structure_and_room(structure_id, room_id)
    room_tables, numbers = room_tables_chosen(room, table_numbers)
    _late_level_check(structure, late_registration_level)
    payout_structure = (
        None if payout_structure_id is None else payout_structure_of(payout_structure_id)
    )
    money = money or MoneySettings()
    game, game_limit = game_checked(game, game_limit)
    bounty_stored = bounty_checked(bounty, buy_in)
    satellite_stored = satellite_checked(satellite)
    problem = money_settings_refusal(money, structure_periods(structure.pk))
    if problem is not None:
        raise refusal(problem, InvalidInput)
    tournament = Tournament.objects.create(
        **asdict(money),
        payout_structure=payout_structure,
        name=name,
        room=room,
        structure=structure,
        starting_stack=starting_stack,
        buy_in=buy_in,
        fee=fee,
        currency=currency[:8] or "HUF",
        game=game,
        game_limit=game_limit,
        house_rules=profile,
        rules_overrides=overrides,
        waiting_list_enabled=waiting_list_enabled,
        max_entries=max_entries,
        scheduled_start=scheduled_start,
        late_registration_level=late_registration_level,
        bounty=bounty_stored,
        satellite=satellite_stored,
    )
    tournament_tables_create(tournament, room_tables, numbers, rules.seats_per_table)
    _creation_audit(actor, tournament, numbers, money, rules)
    return tournament


def _structure_and_room(structure_id: int, room_id: int | None) -> tuple[Structure, Room]:
    structure = Structure.objects.filter(pk=structure_id).first()
    if structure is None:
        raise NotFound(
            "structure_not_found",
            _("There is no blind structure with id %(id)s.") % {"id": structure_id},
        )
    room = (
        Room.objects.filter(pk=room_id).first() if room_id else Room.objects.order_by("pk").first()
    )
    if room is None:
        raise NotFound(
            "room_not_found",
            _("There is no room with id %(id)s.") % {"id": room_id}
            if room_id
            else _("Create a room with tables first."),
        )
    return structure, room


def _creation_audit(
    actor, tournament: Tournament, numbers: list[int], money: MoneySettings, rules: HouseRules
) -> None:
    """The new tournament's audit entry: what it was created with."""
    start = tournament.scheduled_start
    audit_record(
        actor=actor,
        action="tournament.create",
        summary=audit_text("Created tournament %(name)s", {"name": tournament.name}),
        tournament=tournament,
        target=tournament,
        after={
            "name": tournament.name,
            "structure_id": tournament.structure_id,
            "starting_stack": tournament.starting_stack,
            "buy_in": tournament.buy_in,
            "fee": tournament.fee,
            "room_id": tournament.room_id,
            "table_numbers": numbers,
            "house_rules": tournament.house_rules,
            "late_registration_level": tournament.late_registration_level,
            "max_entries": tournament.max_entries,
            "scheduled_start": start.isoformat() if start else None,
            "bounty": tournament.bounty,
            "satellite": tournament.satellite,
            **asdict(money),
            "rules": describe(rules),
        },
    )


def _tournament_numbers_checked(
    name: str,
    starting_stack: int,
    buy_in: int,
    fee: int,
    max_entries: int | None,
    house_rules: str | None,
    rules_overrides: dict[str, Any] | None,
) -> HouseRules:
    """The new tournament's house rules, once its name, prices, stack, entry limit and rules
    are found valid (refused with InvalidInput otherwise)."""
    if not name:
        raise InvalidInput("invalid_name", _("A tournament needs a name."))
    for field, value in (("buy_in", buy_in), ("fee", fee)):
        _non_negative(field, value)
    if starting_stack <= 0:
        raise InvalidInput("invalid_starting_stack", _("The starting stack must be positive."))
    if max_entries is not None and max_entries <= 0:
        raise InvalidInput("invalid_max_entries", _("The entry limit must be positive."))
    try:
        return resolve_house_rules(house_rules or DEFAULT_PROFILE, dict(rules_overrides or {}))
    except HouseRulesError as exc:
        raise InvalidInput(exc.code, str(exc)) from exc


def _late_level_check(structure: Structure, level: int | None) -> None:
    """Late registration ends at a level of the structure, or at the start (0; None: no
    deadline)."""
    if level is None:
        return
    levels = StructureLevel.objects.filter(structure=structure, kind="level").count()
    if not 0 <= level <= levels:
        raise InvalidInput(
            "invalid_late_registration_level",
            _(
                "Late registration must end at a level of the structure (1 to %(n)s), or at "
                "the start (0)."
            )
            % {"n": levels},
        )
