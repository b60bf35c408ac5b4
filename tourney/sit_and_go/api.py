"""Routes of sit-and-go series (docs/rules.md §19, docs/api.md): create, read, register a
player into the next one, and a gaming day's report."""

import datetime
import random
from typing import Any, Literal

from django.utils.translation import gettext as _
from ninja import Field, Query, Router, Schema, Status

from infra.web.schema_types import BodyIn, Chips, Id, Line, Money, bounded
from tourney.core import roles
from tourney.core.errors import Conflict, InvalidInput
from tourney.models import SitAndGoSeries
from tourney.registration.usecases import entry_register
from tourney.sit_and_go.selectors import (
    gaming_day_in_play,
    series_of,
    series_out,
    series_report,
)
from tourney.sit_and_go.usecases import sng_filled, sng_next_event, sng_series_create
from tourney.system.schemas import ERROR_RESPONSES, GameIn

router = Router(tags=["sit-and-gos"])
BASE = "/sng-series"
# A registration that loses the last seat to another desk goes to the next event.
ATTEMPTS = 3


class SeriesIn(BodyIn):
    name: Line = Field(..., min_length=1, max_length=120)
    room_id: Id
    structure_id: Id
    starting_stack: Chips = Field(..., gt=0)
    buy_in: Money
    fee: Money = 0
    seats: bounded(2, 10)
    house_rules: Line | None = Field(None, max_length=20)
    rules: dict[str, Any] = Field(default_factory=dict, description="Other house-rule overrides")
    payout_structure_id: Id | None = None
    game: GameIn | None = None
    countdown_seconds: bounded(0, 900) = 60
    currency: Line = Field("HUF", max_length=8)


class SeriesEntryIn(BodyIn):
    player_id: Id
    method: Literal["cash", "card", "other"] = "cash"


class FillingOut(Schema):
    tournament_id: int
    entries: int


class StartingOut(Schema):
    tournament_id: int
    starts_at_ms: int


class SeriesOut(Schema):
    id: int
    name: str
    room_id: int
    structure_id: int
    starting_stack: int
    buy_in: int
    fee: int
    currency: str
    seats: int
    house_rules: str
    payout_structure_id: int | None
    countdown_seconds: int
    game: dict[str, str]
    filling: FillingOut | None
    starting: list[StartingOut]
    running: list[int]
    finished: list[int]


class SeriesEntryOut(Schema):
    tournament_id: int
    entry_id: int
    table: int | None
    seat: int | None
    starts_at_ms: int | None = Field(None, description="Full: its countdown ends then")


class ReportOut(Schema):
    date: str
    events: int
    entries: int
    buy_ins: int
    fees: int
    prizes: int


def sng_register(actor, series_id: int, player_id: int, method: str = "cash"):
    """A player into the series' next event (the desk's one step): the event filling, the
    next one when another desk took the last seat first; its countdown starts once full."""
    for attempt in range(ATTEMPTS):
        tournament_id = sng_next_event(actor=actor, series_id=series_id)
        try:
            entry = entry_register(
                actor=actor, tournament_id=tournament_id, player_id=player_id, method=method
            )
        except Conflict as exc:
            if exc.code in ("tournament_full", "registration_closed") and attempt + 1 < ATTEMPTS:
                continue
            raise
        sng_filled(actor=actor, tournament_id=tournament_id, rng=random.SystemRandom())
        return entry
    raise Conflict("tournament_full", _("Every seat is taken."))  # pragma: no cover


@router.post(BASE, response={201: SeriesOut, **ERROR_RESPONSES})
def create_series(request, payload: SeriesIn):
    roles.require(request.auth, "director")
    series = sng_series_create(
        actor=request.auth,
        name=payload.name,
        room_id=payload.room_id,
        structure_id=payload.structure_id,
        starting_stack=payload.starting_stack,
        buy_in=payload.buy_in,
        fee=payload.fee,
        seats=payload.seats,
        house_rules=payload.house_rules,
        rules_overrides=payload.rules,
        payout_structure_id=payload.payout_structure_id,
        countdown_seconds=payload.countdown_seconds,
        currency=payload.currency,
        **({"game": payload.game.kind, "game_limit": payload.game.limit} if payload.game else {}),
    )
    return Status(201, series_out(series))


@router.get(BASE, response=list[SeriesOut])
def list_series(request):
    roles.require(request.auth, "read")
    return [series_out(s) for s in SitAndGoSeries.objects.all()[:100]]


@router.get(f"{BASE}/{{series_id}}", response={200: SeriesOut, **ERROR_RESPONSES})
def get_series(request, series_id: Id):
    roles.require(request.auth, "read")
    return series_out(series_of(series_id))


@router.post(f"{BASE}/{{series_id}}/entries", response={201: SeriesEntryOut, **ERROR_RESPONSES})
def register(request, series_id: Id, payload: SeriesEntryIn):
    """A seat in the next sit-and-go of the series, drawn as he registers; the event starts
    itself when its last seat is taken, after the series' countdown."""
    roles.require(request.auth, "desk")
    entry = sng_register(request.auth, series_id, payload.player_id, payload.method)
    tournament = entry.tournament
    tournament.refresh_from_db(fields=["auto_start_at"])
    starts = tournament.auto_start_at
    return Status(
        201,
        {
            "tournament_id": tournament.pk,
            "entry_id": entry.pk,
            "table": entry.tournament_table.number if entry.tournament_table_id else None,
            "seat": entry.seat,
            "starts_at_ms": int(starts.timestamp() * 1000) if starts else None,
        },
    )


@router.get(f"{BASE}/{{series_id}}/report", response={200: ReportOut, **ERROR_RESPONSES})
def report(request, series_id: Id, date: str | None = Query(None)):
    """A gaming day of the series (the room's day boundary; default: today's)."""
    roles.require(request.auth, "read")
    series = series_of(series_id)
    if date is None:
        day = gaming_day_in_play(series)
    else:
        try:
            day = datetime.date.fromisoformat(date)
        except ValueError as exc:
            raise InvalidInput("invalid_date", _("The date is YYYY-MM-DD.")) from exc
    return series_report(series, day)
