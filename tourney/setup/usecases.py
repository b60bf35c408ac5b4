"""Editing a tournament after it was created: its name, start, entry cap, structure, prices,
tables and every house-rule override, each while it can still change without rewriting what
already happened (money taken, seats drawn, the clock started).

Two staff editing at once never lose an update: the edit carries the `settings_token` of the
settings it was made from, and a token that no longer matches is refused (`edited_meanwhile`).
"""

import hashlib
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.selectors import structure_periods
from clocks.models import Structure, StructureLevel
from tables.floor.follow import floor_follow
from tables.models import TournamentTable
from tourney.audit.log import audit_record, audit_text
from tourney.bounties.operations import bounty_checked
from tourney.cage.selectors import prizes_paid
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.core.locks import tournament_lock
from tourney.domain.bounties import bounty_data, bounty_from
from tourney.domain.house_rules import resolve_house_rules
from tourney.domain.house_rules_params import PARAMETER_KEYS, HouseRulesError
from tourney.domain.purchases import MONEY_FIELDS, MoneySettings, money_settings_refusal
from tourney.events.log import event_append
from tourney.models import ChipPurchase, Deal, Entry, LedgerEntry, Tournament
from tourney.payouts.operations import payouts_changed
from tourney.payouts.selectors import payout_structure_of
from tourney.registration.operations import promote_waiting
from tourney.satellites.operations import satellite_checked
from tourney.tournaments.operations import (
    game_checked,
    room_tables_chosen,
    tournament_tables_create,
)

# What an edit may name; `rules` is the whole set of house-rule overrides (missing = the
# profile's value), `table_numbers` the tables in opening order.
EDITABLE = (
    "name",
    "scheduled_start",
    "max_entries",
    "waiting_list_enabled",
    "late_registration_level",
    "structure_id",
    "payout_structure_id",
    "starting_stack",
    "buy_in",
    "fee",
    "currency",
    "game",
    "game_limit",
    "table_numbers",
    "rules",
    *MONEY_FIELDS,
    "bounty",
    "satellite",
)
# Before the draw only: they decide how many seats each table has.
TABLE_RULES = ("seats_per_table", "single_table_seats")
_MISSING = object()
PURCHASE_PRICES = {
    ChipPurchase.Kind.REBUY: ("rebuy_buy_in", "rebuy_fee", "rebuy_chips"),
    ChipPurchase.Kind.ADDON: ("addon_buy_in", "addon_fee", "addon_chips"),
}


def tournament_table_numbers(tournament: Tournament) -> list[int]:
    return list(
        TournamentTable.objects.filter(tournament=tournament)
        .order_by("open_order")
        .values_list("number", flat=True)
    )


def setup_values(tournament: Tournament) -> dict[str, Any]:
    """The tournament's editable settings as an edit names them (JSON-ready)."""
    return {
        "name": tournament.name,
        "scheduled_start": tournament.scheduled_start.astimezone(UTC).isoformat()
        if tournament.scheduled_start
        else None,
        "max_entries": tournament.max_entries,
        "waiting_list_enabled": tournament.waiting_list_enabled,
        "late_registration_level": tournament.late_registration_level,
        "structure_id": tournament.structure_id,
        "payout_structure_id": tournament.payout_structure_id,
        "starting_stack": tournament.starting_stack,
        "buy_in": tournament.buy_in,
        "fee": tournament.fee,
        "currency": tournament.currency,
        "game": tournament.game,
        "game_limit": tournament.game_limit,
        "table_numbers": tournament_table_numbers(tournament),
        "rules": dict(sorted(tournament.rules_overrides.items())),
        **{field: getattr(tournament, field) for field in MONEY_FIELDS},
        # The terms only: a mystery bounty's envelopes are fixed by its phase, not edited here.
        "bounty": bounty_data(bounty_from(tournament.bounty)),
        "satellite": tournament.satellite,
    }


def settings_token(tournament: Tournament, values: dict[str, Any] | None = None) -> str:
    """A short fingerprint of the editable settings (`values`: `setup_values`, when read
    already): an edit made from other settings than those stored now is refused instead of
    silently overwriting someone else's change."""
    values = values if values is not None else setup_values(tournament)
    text = json.dumps(values, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def setup_locks(tournament: Tournament) -> dict[str, Conflict]:
    """The settings the state of play fixes now, each with the refusal an edit of it gets
    (house rules as `rules.<name>`): the edit page shows them read-only with the reason."""
    locks: dict[str, Conflict] = {}

    def lock(fields, code: str, detail: str) -> None:
        for field in fields:
            locks.setdefault(field, Conflict(code, detail))

    if tournament.status not in (Tournament.Status.REGISTERING, Tournament.Status.RUNNING):
        lock(
            [f for f in EDITABLE if f != "name"] + [f"rules.{k}" for k in PARAMETER_KEYS],
            "tournament_finished",
            _("The tournament is over: only its name can change."),
        )
        return locks
    if tournament.status != Tournament.Status.REGISTERING:
        lock(
            ("structure_id", "starting_stack"),
            "tournament_started",
            _("The tournament has started: the structure and the starting stack stay."),
        )
    if LedgerEntry.objects.filter(tournament=tournament).exists():
        lock(
            ("buy_in", "fee", "currency", "bounty"),
            "money_taken",
            _("Entries have been paid: the buy-in, fee and currency stay (refund them first)."),
        )
    if tournament.seats_drawn_at is not None:
        lock(
            ("table_numbers", *(f"rules.{k}" for k in TABLE_RULES)),
            "seats_drawn",
            _("The seats are drawn: the tables stay (open or close tables on the console)."),
        )
    if prizes_paid(tournament=tournament).exists():
        lock(
            ("payout_structure_id", "guarantee"),
            "prizes_paid",
            _("Prizes have been paid: the payouts stay as they are."),
        )
    if Deal.objects.filter(tournament=tournament, undone_at__isnull=True).exists():
        lock(
            ("payout_structure_id", "guarantee"),
            "deal_in_force",
            _("A deal was made on these payouts: undo it first."),
        )
    sold = set(ChipPurchase.objects.filter(tournament=tournament).values_list("kind", flat=True))
    if ChipPurchase.Kind.REBUY in sold:
        lock(
            PURCHASE_PRICES[ChipPurchase.Kind.REBUY],
            "rebuys_sold",
            _("Rebuys have been sold: their price and chips stay."),
        )
    if ChipPurchase.Kind.ADDON in sold:
        lock(
            PURCHASE_PRICES[ChipPurchase.Kind.ADDON],
            "addons_sold",
            _("Add-ons have been sold: their price and chips stay."),
        )
    return locks


def _check_status(tournament: Tournament, changed: set[str]) -> None:
    """Refuse (409) a change of a setting the state of play fixes."""
    locks = setup_locks(tournament)
    for field in sorted(changed):
        if field in locks:
            raise locks[field]


def _check_values(tournament: Tournament, new: dict[str, Any]) -> None:
    """Refuse values that are wrong whatever the state of play (422)."""
    name = " ".join(str(new["name"] or "").split())
    if not name or len(name) > 160:
        raise InvalidInput("invalid_name", _("A tournament needs a name (at most 160 characters)."))
    new["name"] = name
    for field in ("starting_stack", "buy_in", "fee"):
        value = new[field]
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise InvalidInput(
                f"invalid_{field}",
                _("%(field)s must be a whole number of at least 0.")
                % {"field": field.replace("_", " ")},
            )
    if new["starting_stack"] < 1:
        raise InvalidInput("invalid_starting_stack", _("The starting stack must be positive."))
    cap = new["max_entries"]
    if cap is not None and (not isinstance(cap, int) or isinstance(cap, bool) or cap < 1):
        raise InvalidInput("invalid_max_entries", _("The entry cap must be at least 1, or empty."))
    currency = str(new["currency"] or "").strip().upper()
    if not currency or len(currency) > 8:
        raise InvalidInput("invalid_currency", _("The currency is a code of 1 to 8 letters."))
    new["currency"] = currency
    new["game"], new["game_limit"] = game_checked(new["game"], new["game_limit"])
    new["bounty"] = bounty_checked(new["bounty"], new["buy_in"])
    new["satellite"] = satellite_checked(new["satellite"], tournament.pk)
    start = new["scheduled_start"]
    if start is not None and not isinstance(start, datetime):
        raise InvalidInput("invalid_scheduled_start", _("The start is a date and a time."))
    try:
        resolve_house_rules(tournament.house_rules, new["rules"])
    except HouseRulesError as exc:
        raise InvalidInput(exc.code, str(exc)) from exc


def _check_structure(new: dict[str, Any]) -> None:
    structure_id = new["structure_id"]
    if not Structure.objects.filter(pk=structure_id).exists():
        raise NotFound(
            "structure_not_found",
            _("There is no blind structure with id %(id)s.") % {"id": structure_id},
        )
    level = new["late_registration_level"]
    if level is not None:
        levels = StructureLevel.objects.filter(structure_id=structure_id, kind="level").count()
        if not isinstance(level, int) or not 0 <= level <= levels:
            raise InvalidInput(
                "invalid_late_registration_level",
                _(
                    "Late registration must end at a level of the structure (1 to %(n)s), or "
                    "at the start (0)."
                )
                % {"n": levels},
            )
    money = MoneySettings(**{field: new[field] for field in MONEY_FIELDS})
    problem = money_settings_refusal(money, structure_periods(structure_id))
    if problem is not None:
        raise refusal(problem, InvalidInput)
    if new["payout_structure_id"] is not None:
        payout_structure_of(new["payout_structure_id"])


def _rules_overrides(rules: Mapping[str, Any] | None) -> dict[str, Any]:
    """The overrides as stored: a rule left out follows the profile (null is a value of its
    own for the rules that take one, e.g. `table_thresholds`)."""
    if rules is None:
        return {}
    if not isinstance(rules, Mapping):
        raise InvalidInput("invalid_house_rule", _("The house rules are a set of name: value."))
    return {key: list(value) if isinstance(value, tuple) else value for key, value in rules.items()}


def _apply(tournament: Tournament, new: dict[str, Any], changed: set[str], tables: bool) -> None:
    """Store the changed settings; `tables`: lay out the tournament's tables again (before the
    draw, when the tables or their seats changed)."""
    for field in changed - {"rules", "table_numbers"}:
        setattr(tournament, field, new[field])
    if "rules" in changed:
        tournament.rules_overrides = new["rules"]
    tournament.save()
    if tables:
        room_tables, numbers = room_tables_chosen(tournament.room, new["table_numbers"])
        TournamentTable.objects.filter(tournament=tournament).delete()
        rules = resolve_house_rules(tournament.house_rules, tournament.rules_overrides)
        tournament_tables_create(tournament, room_tables, numbers, rules.seats_per_table)


def tournament_update(
    *,
    actor,
    tournament_id: int,
    changes: Mapping[str, Any],
    expected_token: str | None = None,
) -> Tournament:
    """Change the named settings (keys of `EDITABLE`); the rest stay. Refused as a whole, with
    nothing changed: an unknown key or a bad value (422), a setting the state of play fixes
    (409: `tournament_finished`, `tournament_started`, `money_taken`, `seats_drawn`,
    `prizes_paid`, `deal_in_force`, `rebuys_sold`, `addons_sold`) or an edit made from settings
    that changed since (`edited_meanwhile`, when `expected_token` is given)."""
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise InvalidInput(
            "invalid_field",
            _("These settings cannot be edited: %(names)s.") % {"names": ", ".join(unknown)},
        )
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        if expected_token is not None and expected_token != settings_token(tournament):
            raise Conflict(
                "edited_meanwhile",
                _(
                    "Someone changed this tournament's settings after you opened them: "
                    "nothing was saved. Reload to see their changes, then edit again."
                ),
            )
        before = setup_values(tournament)
        new = {**before, **changes}
        new["rules"] = dict(sorted(_rules_overrides(new["rules"]).items()))
        if new["table_numbers"] is not None:
            new["table_numbers"] = list(new["table_numbers"])
        _check_values(tournament, new)
        new_json = json.loads(json.dumps(new, default=_json_value))
        changed = {key for key in before if new_json[key] != before[key]}
        if not changed:
            return tournament
        rules_changed = {
            f"rules.{key}"
            for key in PARAMETER_KEYS
            if new["rules"].get(key, _MISSING) != before["rules"].get(key, _MISSING)
        }
        tables = "table_numbers" in changed or bool(
            rules_changed & {f"rules.{key}" for key in TABLE_RULES}
        )
        _check_status(tournament, changed | rules_changed)
        _check_structure(new)
        if not new["table_numbers"]:
            new["table_numbers"] = None  # every table of the room, by number
        _apply(tournament, new, changed, tables)
        _record(actor, tournament, before, new_json, changed)
        _consequences(actor, tournament, changed)
    return tournament


def _json_value(value: Any) -> Any:
    return value.astimezone(UTC).isoformat() if isinstance(value, datetime) else str(value)


def _record(actor, tournament: Tournament, before: dict, after: dict, changed: set[str]) -> None:
    keys = sorted(changed)
    if "rules" in changed:
        rule_keys = sorted(
            k for k in PARAMETER_KEYS if before["rules"].get(k) != after["rules"].get(k)
        )
        keys = [k for k in keys if k != "rules"] + [f"rules.{k}" for k in rule_keys]
    audit_record(
        actor=actor,
        action="tournament.update",
        summary=audit_text(
            gettext_noop("Settings of %(name)s changed: %(fields)s"),
            {"name": tournament.name, "fields": ", ".join(keys)},
        ),
        tournament=tournament,
        target=tournament,
        before={k: before[k] for k in sorted(changed)},
        after={k: after[k] for k in sorted(changed)},
    )
    event_append(tournament, "tournament", {"action": "update", "changed": keys})


def _consequences(actor, tournament: Tournament, changed: set[str]) -> None:
    """What follows at once: payouts shown again, the waiting list moves into a larger cap,
    the floor replans under new rules."""
    if {"payout_structure_id", "guarantee"} & changed:
        payouts_changed(tournament, "settings")
    if {"max_entries", "rules", "waiting_list_enabled"} & changed and Entry.objects.filter(
        tournament=tournament, status=Entry.Status.WAITING
    ).exists():
        promote_waiting(tournament, actor)
    if (
        "rules" in changed
        and tournament.status == Tournament.Status.RUNNING
        and tournament.seats_drawn_at is not None
    ):
        floor_follow(actor=actor, tournament=tournament)
