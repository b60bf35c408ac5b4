"""The root API (`/api/v1/`) and the routes of players, tournaments and entries."""

import time
from datetime import UTC, datetime
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.db import InterfaceError as DatabaseInterfaceError
from django.db import OperationalError as DatabaseOperationalError
from django.db import connection
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from ninja import Status
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError

from clocks.clock.usecases import clocks_late, tournament_start
from infra.web.api_contract import CheckedJsonParser, ContractAPI, status_code
from infra.web.schema_types import Id, Line, bounded
from tourney.absence.usecases import entry_mark_absent
from tourney.api_common import (
    duplicates_out,
    entry_out,
    ms_datetime,
    player_out,
    router,
    tournament_out,
)
from tourney.auth import api_auth
from tourney.core import roles
from tourney.core.errors import TourneyError
from tourney.domain.purchases import MONEY_FIELDS, MoneySettings
from tourney.models import Entry, Player, Tournament
from tourney.penalties.schemas import BanOut
from tourney.players.selectors import player_duplicates, player_search
from tourney.players.usecases import player_ban, player_create
from tourney.registration.usecases import entry_register, entry_unregister
from tourney.schemas import (
    ERROR_RESPONSES,
    BanIn,
    EntryIn,
    EntryOut,
    HealthOut,
    MessageIn,
    MessageOut,
    PlayerDuplicateOut,
    PlayerIn,
    PlayerOut,
    SeatAssignIn,
    TimeOut,
    TournamentIn,
    TournamentOut,
)
from tourney.tournaments.usecases import (
    tournament_create,
    tournament_message_set,
)


def staff_docs_only(view):
    """The docs page is for staff; the OpenAPI document stays public for other programs."""

    @wraps(view)
    def wrapper(request, *args, **kwargs):
        if request.path.endswith("openapi.json") or roles.can(request.user, "read"):
            return view(request, *args, **kwargs)
        return redirect_to_login(request.get_full_path())

    return wrapper


api = ContractAPI(
    title="Tourney API",
    version="1",
    urls_namespace="api",
    auth=api_auth,
    docs_decorator=staff_docs_only,
    parser=CheckedJsonParser(),
    # frozen when the modules moved into their features (docs/api.md)
    operation_ids=Path(__file__).parent / "operation_ids.json",
)
ERRORS = ERROR_RESPONSES


def error_response(request: HttpRequest, code: str, detail: str, status: int):
    return api.create_response(request, {"code": code, "detail": detail}, status=status)


@api.exception_handler(TourneyError)
def on_tourney_error(request, exc: TourneyError):
    return error_response(request, exc.code, exc.detail, exc.status_code)


@api.exception_handler(NinjaValidationError)
def on_validation_error(request, exc: NinjaValidationError):
    parts = []
    for err in exc.errors:
        where = ".".join(
            str(p) for p in err.get("loc", ()) if p not in ("body", "payload", "query")
        )
        parts.append(f"{where}: {err.get('msg')}" if where else str(err.get("msg")))
    detail = _("The request is not valid: %(errors)s") % {"errors": "; ".join(parts)}
    return error_response(request, "invalid_input", detail, 422)


@api.exception_handler(AuthenticationError)
def on_auth_error(request, exc):
    return error_response(
        request, "not_authenticated", _("Log in or send a valid bearer token."), 401
    )


@api.exception_handler(Http404)
def on_not_found(request, exc):
    return error_response(request, "not_found", _("There is no such object."), 404)


@api.exception_handler(HttpError)
def on_http_error(request, exc: HttpError):
    code, _default = status_code(exc.status_code)
    return error_response(request, code, str(exc), exc.status_code)


# --- health and time ---------------------------------------------------------------------


def _broker_health() -> str:
    if not settings.REDIS_URL:
        return "absent"
    from infra.bus import redis_client

    try:
        redis_client().ping()
    except Exception:
        return "down"
    return "ok"


@api.get("/health", auth=None, response={200: HealthOut, 503: HealthOut}, tags=["system"])
def health(request):
    """What is up: 200 while the database answers, 503 (`"database": "down"`) when it does not,
    so that a proxy or a supervisor can tell a web process that cannot serve."""
    broker = _broker_health()
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        late = [{"tournament_id": t, "late_ms": ms} for t, ms in clocks_late()]
    except (DatabaseOperationalError, DatabaseInterfaceError):
        down = {"database": "down", "timers": "unknown", "late_timers": []}
        return Status(503, {"status": "down", "broker": broker, **down})
    return {
        "status": "ok",
        "database": "ok",
        "broker": broker,
        "timers": "late" if late else "ok",
        "late_timers": late,
    }


@api.get("/time", auth=None, response=TimeOut, tags=["system"])
def server_time(request):
    return {"server_time_ms": time.time_ns() // 1_000_000}


# --- players -----------------------------------------------------------------------------


@router.post("/players", response={201: PlayerOut, **ERRORS}, tags=["players"])
def create_player(request, payload: PlayerIn):
    roles.require(request.auth, "desk")
    data = payload.dict()
    duplicates = player_duplicates(data["name"], data["phone"], data["email"])
    player = player_create(actor=request.auth, **data)
    return Status(201, {**player_out(player), "possible_duplicates": duplicates_out(duplicates)})


@router.get("/players", response=list[PlayerOut], tags=["players"])
def list_players(request, search: Line = "", limit: bounded(1, 100) = 20):
    roles.require(request.auth, "read")
    contact = roles.can(request.auth, "desk")
    found = player_search(search[:200], limit=limit, by_phone=contact)
    return [player_out(p, contact) for p in found]


@router.get("/players/duplicates", response=list[PlayerDuplicateOut], tags=["players"])
def find_duplicates(request, name: str = "", phone: str = "", email: str = ""):
    """Players a new one with these details would likely duplicate: the same name (accents,
    case and word order ignored), phone number or e-mail address."""
    roles.require(request.auth, "desk")
    return duplicates_out(player_duplicates(name[:120], phone[:40], email[:254]))


@router.get("/players/{player_id}", response={200: PlayerOut, **ERRORS}, tags=["players"])
def get_player(request, player_id: Id):
    roles.require(request.auth, "read")
    player = get_object_or_404(Player, pk=player_id)
    return player_out(player, roles.can(request.auth, "desk"))


@router.get("/players/{player_id}/bans", response={200: list[BanOut], **ERRORS}, tags=["players"])
def player_bans_list(request, player_id: Id):
    """Every ban of the player, newest first (lifted and ended ones too)."""
    from tourney.penalties.selectors import ban_out
    from tourney.players.selectors import player_bans

    roles.require(request.auth, "read")
    return [ban_out(b) for b in player_bans(get_object_or_404(Player, pk=player_id))]


@router.post("/players/{player_id}/bans", response={201: BanOut, **ERRORS}, tags=["players"])
def ban_player(request, player_id: Id, payload: BanIn):
    from tourney.penalties.selectors import ban_out

    roles.require(request.auth, "director")
    # 0 is 1970, in the past like any other instant before now: refused, never "no end".
    ends_at = (
        datetime.fromtimestamp(payload.ends_at_ms / 1000, tz=UTC)
        if payload.ends_at_ms is not None
        else None
    )
    ban = player_ban(
        actor=request.auth,
        player_id=player_id,
        reason=payload.reason,
        ends_at=ends_at,
        season_id=payload.season_id,
    )
    return Status(201, ban_out(ban))


# --- tournaments and entries ---------------------------------------------------------------


@router.post("/tournaments", response={201: TournamentOut, **ERRORS})
def create_tournament(request, payload: TournamentIn):
    roles.require(request.auth, "director")
    overrides = dict(payload.rules)
    for key in ("seats_per_table", "final_table_size", "balance_threshold", "reentry_max"):
        value = getattr(payload, key)
        if value is not None:
            overrides[key] = value
    tournament = tournament_create(
        actor=request.auth,
        name=payload.name,
        structure_id=payload.structure_id,
        starting_stack=payload.starting_stack,
        buy_in=payload.buy_in,
        fee=payload.fee,
        room_id=payload.room_id,
        house_rules=payload.house_rules,
        rules_overrides=overrides,
        table_numbers=payload.table_numbers,
        waiting_list_enabled=payload.waiting_list,
        max_entries=payload.max_entries,
        scheduled_start=ms_datetime(payload.scheduled_start_ms),
        currency=payload.currency,
        late_registration_level=payload.late_registration_level,
        money=MoneySettings(**{field: getattr(payload, field) for field in MONEY_FIELDS}),
        payout_structure_id=payload.payout_structure_id,
    )
    return Status(201, tournament_out(tournament))


@router.get("/tournaments", response=list[TournamentOut])
def list_tournaments(request):
    roles.require(request.auth, "read")
    return [tournament_out(t) for t in Tournament.objects.all()[:100]]


@router.get("/tournaments/{tournament_id}", response={200: TournamentOut, **ERRORS})
def get_tournament(request, tournament_id: Id):
    roles.require(request.auth, "read")
    return tournament_out(get_object_or_404(Tournament, pk=tournament_id))


@router.post("/tournaments/{tournament_id}/start", response={200: TournamentOut, **ERRORS})
def start_tournament(request, tournament_id: Id):
    roles.require(request.auth, "director")
    return tournament_out(tournament_start(actor=request.auth, tournament_id=tournament_id))


@router.post(
    "/tournaments/{tournament_id}/entries", response={201: EntryOut, **ERRORS}, tags=["entries"]
)
def register_entry(request, tournament_id: Id, payload: EntryIn):
    roles.require(request.auth, "desk")
    entry = entry_register(
        actor=request.auth,
        tournament_id=tournament_id,
        player_id=payload.player_id,
        method=payload.method,
    )
    return Status(201, entry_out(entry))


@router.get("/tournaments/{tournament_id}/entries", response=list[EntryOut], tags=["entries"])
def list_entries(request, tournament_id: Id, status: Line | None = None):
    roles.require(request.auth, "read")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    entries = Entry.objects.filter(tournament=tournament).select_related(
        "player", "tournament_table"
    )
    if status:
        entries = entries.filter(status=status)
    return [entry_out(e) for e in entries.order_by("number")]


@router.delete(
    "/tournaments/{tournament_id}/entries/{entry_id}",
    response={204: None, **ERRORS},
    tags=["entries"],
)
def unregister_entry(request, tournament_id: Id, entry_id: Id):
    roles.require(request.auth, "desk")
    entry_unregister(actor=request.auth, tournament_id=tournament_id, entry_id=entry_id)
    return Status(204, None)


@router.post(
    "/tournaments/{tournament_id}/entries/{entry_id}/seat",
    response={200: EntryOut, **ERRORS},
    tags=["entries"],
)
def assign_seat(request, tournament_id: Id, entry_id: Id, payload: SeatAssignIn):
    from tables.seating.usecases import entry_seat_assign

    roles.require(request.auth, "floor")
    entry = entry_seat_assign(
        actor=request.auth,
        tournament_id=tournament_id,
        entry_id=entry_id,
        table_number=payload.table,
        seat=payload.seat,
    )
    return entry_out(entry)


@router.put(
    "/tournaments/{tournament_id}/message", response={200: MessageOut, **ERRORS}, tags=["display"]
)
def set_message(request, tournament_id: Id, payload: MessageIn):
    """The director's message scrolled on the lobby screens (`message` event)."""
    roles.require(request.auth, "director")
    tournament = tournament_message_set(
        actor=request.auth, tournament_id=tournament_id, message=payload.message
    )
    return {"message": tournament.display_message}


def _absence_route(action: str, absent: bool):
    def handler(request, tournament_id: Id, entry_id: Id):
        roles.require(request.auth, "floor")
        entry = entry_mark_absent(
            actor=request.auth, tournament_id=tournament_id, entry_id=entry_id, absent=absent
        )
        return entry_out(entry)

    handler.__name__ = f"entry_{action}"
    handler.__doc__ = (
        "Mark a seated entry absent; `arrived` undoes it."
        if absent
        else "Mark an absent entry arrived (undoes `absent`)."
    )
    router.post(
        f"/tournaments/{{tournament_id}}/entries/{{entry_id}}/{action}",
        response={200: EntryOut, **ERRORS},
        tags=["entries"],
        operation_id=f"entry_{action}",
    )(handler)


_absence_route("absent", True)
_absence_route("arrived", False)


api.add_router("/", router)


def _mount_app_routers() -> None:
    from clocks.color_ups.api import router as colorup_router
    from clocks.display.api import router as display_router
    from clocks.structures.api import router as clocks_router
    from tables.dealer_links.api import router as dealer_links_router
    from tables.floor.api import router as floor_router
    from tables.seating.api import router as tables_router
    from tourney.cage.api import router as cage_router
    from tourney.payouts.api import router as payouts_router
    from tourney.penalties.api import router as penalties_router
    from tourney.player_page.api import router as player_page_router
    from tourney.players.api import router as players_router
    from tourney.purchases.api import router as purchases_router
    from tourney.setup import api as setup_api  # noqa: F401  (adds PATCH /tournaments/{id})

    api.add_router("/", tables_router)
    api.add_router("/", floor_router)
    api.add_router("/", clocks_router)
    api.add_router("/", payouts_router)
    api.add_router("/", purchases_router)
    api.add_router("/", penalties_router)
    api.add_router("/", colorup_router)
    api.add_router("/", display_router)
    api.add_router("/", cage_router)
    api.add_router("/", players_router)
    api.add_router("/", player_page_router)
    api.add_router("/", dealer_links_router)


_mount_app_routers()
