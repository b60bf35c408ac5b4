"""Routes of a festival's main event: flights, the end of a flight's day, the Day-2 draw, chip
counts and the public page's link (the API's "Festivals" routes, docs/rules.md §15)."""

from django.shortcuts import get_object_or_404
from ninja import Router, Status

from infra.web.schema_types import Id
from tables.dealer_links.selectors import require_busts_at
from tables.seating.schemas import DrawOut
from tourney.chip_counts.selectors import chip_leaderboard
from tourney.chip_counts.usecases import chip_counts_set
from tourney.core import roles
from tourney.flights.schemas import (
    ChipCountOut,
    ChipCountsIn,
    ChipCountsSaved,
    DayEndOut,
    FlightIn,
    FlightOut,
    PublicLinkOut,
)
from tourney.flights.selectors import flight_rows
from tourney.flights.usecases import (
    day2_draw,
    flight_create,
    flight_day_end,
    flight_day_end_undo,
)
from tourney.models import Tournament
from tourney.public_page.selectors import public_token
from tourney.public_page.usecases import public_link_revoke
from tourney.system.schemas import ERROR_RESPONSES, TournamentOut, ms, ms_datetime, tournament_out

router = Router(tags=["festivals"])
ERRORS = ERROR_RESPONSES
BASE = "/tournaments/{tournament_id}"


def _flight_out(row: dict) -> dict:
    return {**row, "starts_at_ms": ms(row.pop("scheduled_start"))}


@router.post(f"{BASE}/flights", response={201: TournamentOut, **ERRORS})
def create_flight(request, tournament_id: Id, payload: FlightIn):
    """A flight (Day 1A, 1B ...) of the main event: a tournament of its own with the main
    event's structure, buy-in, payouts and house rules."""
    roles.require(request.auth, "director")
    flight = flight_create(
        actor=request.auth,
        main_id=tournament_id,
        name=payload.name,
        starts_at=ms_datetime(payload.starts_at_ms),
        room_id=payload.room_id,
        table_numbers=payload.table_numbers,
        day_end_level=payload.day_end_level,
    )
    return Status(201, tournament_out(flight))


@router.get(f"{BASE}/flights", response={200: list[FlightOut], **ERRORS})
def list_flights(request, tournament_id: Id):
    roles.require(request.auth, "read")
    main = get_object_or_404(Tournament, pk=tournament_id)
    return [_flight_out(r) for r in flight_rows(main)]


@router.post(f"{BASE}/end-of-day", response={200: DayEndOut, **ERRORS})
def end_of_day(request, tournament_id: Id):
    """Bag and tag: refused (`chip_counts_missing`) until every player left has a count."""
    roles.require(request.auth, "director")
    return flight_day_end(actor=request.auth, tournament_id=tournament_id)


@router.post(f"{BASE}/end-of-day/undo", response={200: TournamentOut, **ERRORS})
def end_of_day_undo(request, tournament_id: Id):
    """Until Day 2 is drawn: the bagged players play on, the clock goes on."""
    roles.require(request.auth, "director")
    return tournament_out(flight_day_end_undo(actor=request.auth, tournament_id=tournament_id))


@router.post(f"{BASE}/day2/draw", response={200: DrawOut, **ERRORS})
def draw_day2(request, tournament_id: Id):
    roles.require(request.auth, "director")
    return {"tables": day2_draw(actor=request.auth, main_id=tournament_id)}


@router.put(f"{BASE}/chip-counts", response={200: ChipCountsSaved, **ERRORS})
def put_chip_counts(request, tournament_id: Id, payload: ChipCountsIn):
    """Counts from the floor or the director, or from a dealer link for its own table."""
    counts = [(c.entry_id, c.chips) for c in payload.counts]
    require_busts_at(request.auth, tournament_id, [e for e, _c in counts])
    return {
        "stored": chip_counts_set(actor=request.auth, tournament_id=tournament_id, counts=counts)
    }


@router.get(f"{BASE}/chip-counts", response={200: list[ChipCountOut], **ERRORS})
def get_chip_counts(request, tournament_id: Id):
    roles.require(request.auth, "read")
    return chip_leaderboard(get_object_or_404(Tournament, pk=tournament_id))


@router.get(f"{BASE}/public-link", response={200: PublicLinkOut, **ERRORS})
def public_link(request, tournament_id: Id):
    roles.require(request.auth, "director")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return {"url": request.build_absolute_uri(f"/public/{public_token(tournament)}/")}


@router.post(f"{BASE}/public-link/revoke", response={200: PublicLinkOut, **ERRORS})
def revoke_public_link(request, tournament_id: Id):
    """The old link stops working at once; the new one is returned."""
    roles.require(request.auth, "director")
    tournament = public_link_revoke(actor=request.auth, tournament_id=tournament_id)
    return {"url": request.build_absolute_uri(f"/public/{public_token(tournament)}/")}
