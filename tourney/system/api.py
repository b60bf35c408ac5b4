"""The root API (`/api/v1/`) and the routes of players, tournaments and entries."""

import time
from functools import wraps
from pathlib import Path

from django.conf import settings
from django.contrib.auth.views import redirect_to_login
from django.db import InterfaceError as DatabaseInterfaceError
from django.db import OperationalError as DatabaseOperationalError
from django.db import connection
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from ninja import Status
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError

from clocks.clock.selectors import clocks_late
from infra.web.api_contract import CheckedJsonParser, ContractAPI, status_code
from tourney.core import roles
from tourney.core.errors import TourneyError
from tourney.system.auth import api_auth
from tourney.system.schemas import (
    HealthOut,
    TimeOut,
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


# --- tournaments and entries ---------------------------------------------------------------


def _mount_app_routers() -> None:
    from clocks.color_ups.api import router as colorup_router
    from clocks.display.api import router as display_router
    from clocks.structures.api import router as clocks_router
    from tables.cash.api import router as cash_router
    from tables.cash_report.api import router as cash_report_router
    from tables.cash_seats.api import router as cash_seats_router
    from tables.cash_undo.api import router as cash_undo_router
    from tables.dealer_links.api import router as dealer_links_router
    from tables.floor.api import router as floor_router
    from tables.hands.api import router as hands_router
    from tables.rooms.api import router as rooms_router
    from tables.seating.api import router as tables_router
    from tourney.bounties.api import router as bounties_router
    from tourney.cage.api import router as cage_router
    from tourney.cancelling.api import router as cancelling_router
    from tourney.flights.api import router as festivals_router
    from tourney.payouts.api import router as payouts_router
    from tourney.penalties.api import router as penalties_router
    from tourney.player_page.api import router as player_page_router
    from tourney.players.api import router as players_router
    from tourney.purchases.api import router as purchases_router
    from tourney.registration import api as registration_api  # noqa: F401  (entries' routes)
    from tourney.setup import api as setup_api  # noqa: F401  (adds PATCH /tournaments/{id})
    from tourney.sit_and_go.api import router as sng_router
    from tourney.tickets.api import router as tickets_router
    from tourney.tournaments.api import router as tournaments_router

    api.add_router("/", tournaments_router)
    api.add_router("/", rooms_router)
    api.add_router("/", tables_router)
    api.add_router("/", hands_router)
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
    api.add_router("/", festivals_router)
    api.add_router("/", bounties_router)
    api.add_router("/", tickets_router)
    api.add_router("/", cancelling_router)
    api.add_router("/", sng_router)
    api.add_router("/", cash_router)
    api.add_router("/", cash_seats_router)
    api.add_router("/", cash_report_router)
    api.add_router("/", cash_undo_router)


_mount_app_routers()
