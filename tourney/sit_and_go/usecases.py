"""Sit-and-go series (docs/rules.md §19): create one; the event a registration goes to (the
filling one, or the next opened at once on a free table); the countdown once full; the
start when it is over. The registration itself is the tournament's own (entry_register)."""

import random

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.models import Structure
from clocks.structures.operations import structure_copy
from tables.models import Room, Table
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput, NotFound
from tourney.core.locks import tournament_lock
from tourney.domain.house_rules import resolve_house_rules
from tourney.domain.house_rules_params import HouseRulesError
from tourney.domain.house_rules_profiles import DEFAULT_PROFILE
from tourney.models import SitAndGoSeries, Tournament
from tourney.payouts.selectors import payout_structure_of
from tourney.sit_and_go.operations import (
    event_overrides,
    sng_countdown_start,
    sng_event_open,
)
from tourney.sit_and_go.selectors import filling_event, free_table, series_of
from tourney.tournaments.operations import game_checked

SEATS = (2, 10)
COUNTDOWN_MAX = 900


def _series_checked(fields: dict) -> None:
    if not fields["name"]:
        raise InvalidInput("invalid_name", _("A sit-and-go series needs a name."))
    if not SEATS[0] <= fields["seats"] <= SEATS[1]:
        raise InvalidInput(
            "invalid_seats",
            _("A sit-and-go has 2 to 10 seats, not %(n)s.") % {"n": fields["seats"]},
        )
    if fields["starting_stack"] <= 0:
        raise InvalidInput("invalid_starting_stack", _("The starting stack must be positive."))
    if fields["buy_in"] < 0 or fields["fee"] < 0:
        raise InvalidInput("invalid_buy_in", _("The buy-in and the fee cannot be negative."))
    if not 0 <= fields["countdown_seconds"] <= COUNTDOWN_MAX:
        raise InvalidInput(
            "invalid_countdown",
            _("The countdown is 0 to %(n)s seconds.") % {"n": COUNTDOWN_MAX},
        )
    try:
        resolve_house_rules(
            fields["house_rules"], event_overrides(fields["rules_overrides"], fields["seats"])
        )
    except HouseRulesError as exc:
        raise InvalidInput(exc.code, str(exc)) from exc


@transaction.atomic(durable=True)
def sng_series_create(
    *,
    actor,
    name: str,
    room_id: int,
    structure_id: int,
    starting_stack: int,
    buy_in: int,
    fee: int,
    seats: int,
    house_rules: str | None = None,
    rules_overrides: dict | None = None,
    payout_structure_id: int | None = None,
    game: str = "holdem",
    game_limit: str = "no_limit",
    countdown_seconds: int = 60,
    currency: str = "HUF",
) -> SitAndGoSeries:
    """A series whose events the desk fills one after another, on its own copy of a built-in
    structure template. Refused: a bad number
    (`invalid_*`), no room, structure or payout structure (404), no table of the room with
    that many seats (`no_table_for_seats`)."""
    fields = {
        "name": " ".join((name or "").split()),
        "starting_stack": starting_stack,
        "buy_in": buy_in,
        "fee": fee,
        "seats": seats,
        "house_rules": house_rules or DEFAULT_PROFILE,
        "rules_overrides": dict(rules_overrides or {}),
        "countdown_seconds": countdown_seconds,
        "currency": (currency or "HUF")[:8],
    }
    _series_checked(fields)
    room = Room.objects.filter(pk=room_id).first()
    structure = Structure.objects.filter(pk=structure_id).first()
    if room is None or structure is None:
        raise NotFound(
            "room_not_found" if room is None else "structure_not_found",
            _("There is no such room or blind structure."),
        )
    if not Table.objects.filter(room=room, seats__gte=seats).exists():
        raise Conflict(
            "no_table_for_seats",
            _("The room has no table with %(n)s seats.") % {"n": seats},
        )
    if payout_structure_id is not None:
        payout_structure_of(payout_structure_id)
    game, game_limit = game_checked(game, game_limit)
    if structure.template_key:
        # the series' own copy of a built-in template, as a new event gets (issue 32): its
        # events play it, and its levels can change for this series alone
        structure = structure_copy(structure, f"{structure.display_name} · {fields['name']}")
    series = SitAndGoSeries.objects.create(
        **fields,
        room=room,
        structure=structure,
        payout_structure_id=payout_structure_id,
        game=game,
        game_limit=game_limit,
        created_by=actor if actor is not None and actor.is_authenticated else None,
    )
    audit_record(
        actor=actor,
        action="sng_series.create",
        summary=audit_text(gettext_noop("Created sit-and-go series %(name)s"), {"name": name}),
        target=series,
        after={**fields, "room_id": room.pk, "structure_id": structure.pk},
    )
    return series


def sng_next_event(*, actor, series_id: int) -> int:
    """The event of the series a registration goes to: the one filling, or a new one opened
    at once on a free table of the room (`no_free_table` when every table is taken)."""
    with transaction.atomic(durable=True):
        series = series_of(series_id, lock=True)
        event = filling_event(series)
        if event is not None:
            return event.pk
        table = free_table(series)
        if table is None:
            raise Conflict(
                "no_free_table",
                _("Every table of the room with %(n)s seats is in play: wait for one to end.")
                % {"n": series.seats},
            )
        return sng_event_open(actor, series, table, timezone.now()).pk


def sng_filled(*, actor, tournament_id: int, rng: random.Random | None = None) -> bool:
    """After a registration or a refund: a sit-and-go with every seat taken starts its
    countdown (the button drawn by high card); one that is no longer full stops it. True
    when the countdown runs."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        series = tournament.sng_series
        if series is None or tournament.status != Tournament.Status.REGISTERING:
            return False
        full = tournament.playing >= series.seats
        if full and tournament.auto_start_at is None:
            now = timezone.now()
            sng_countdown_start(actor, tournament, series, rng or random.SystemRandom(), now)
        elif not full and tournament.auto_start_at is not None:
            tournament.auto_start_at = None
            tournament.save(update_fields=["auto_start_at"])
        return full


def sng_start_due(*, tournament_id: int) -> bool:
    """The countdown is over: True when the event is still full and waits to start (the
    caller starts it); a seat freed since puts it back to filling."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        if tournament.status != Tournament.Status.REGISTERING or tournament.auto_start_at is None:
            return False
        if tournament.playing >= tournament.sng_series.seats:
            return True
        tournament.auto_start_at = None
        tournament.save(update_fields=["auto_start_at"])
        return False
