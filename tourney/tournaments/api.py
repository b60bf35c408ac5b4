"""Routes of tournaments: create, list, read, start, the lobby message (the router that
setup's and registration's routes share: one view per path)."""

from django.shortcuts import get_object_or_404
from ninja import Router, Status

from clocks.clock.usecases import tournament_start
from infra.web.schema_types import Id
from tourney.core import roles
from tourney.domain.purchases import MONEY_FIELDS, MoneySettings
from tourney.models import Tournament
from tourney.system.schemas import (
    ERROR_RESPONSES,
    MessageIn,
    MessageOut,
    TournamentIn,
    TournamentOut,
    ms_datetime,
    tournament_out,
)
from tourney.tournaments.usecases import tournament_create, tournament_message_set

router = Router(tags=["tournaments"])


@router.post("/tournaments", response={201: TournamentOut, **ERROR_RESPONSES})
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
        bounty=payload.bounty.dict() if payload.bounty else None,
        satellite=payload.satellite.dict() if payload.satellite else None,
        **({"game": payload.game.kind, "game_limit": payload.game.limit} if payload.game else {}),
    )
    return Status(201, tournament_out(tournament))


@router.get("/tournaments", response=list[TournamentOut])
def list_tournaments(request):
    roles.require(request.auth, "read")
    return [tournament_out(t) for t in Tournament.objects.all()[:100]]


@router.get("/tournaments/{tournament_id}", response={200: TournamentOut, **ERROR_RESPONSES})
def get_tournament(request, tournament_id: Id):
    roles.require(request.auth, "read")
    return tournament_out(get_object_or_404(Tournament, pk=tournament_id))


@router.post("/tournaments/{tournament_id}/start", response={200: TournamentOut, **ERROR_RESPONSES})
def start_tournament(request, tournament_id: Id):
    roles.require(request.auth, "director")
    return tournament_out(tournament_start(actor=request.auth, tournament_id=tournament_id))


@router.put(
    "/tournaments/{tournament_id}/message",
    response={200: MessageOut, **ERROR_RESPONSES},
    tags=["display"],
)
def set_message(request, tournament_id: Id, payload: MessageIn):
    """The director's message scrolled on the lobby screens (`message` event)."""
    roles.require(request.auth, "director")
    tournament = tournament_message_set(
        actor=request.auth, tournament_id=tournament_id, message=payload.message
    )
    return {"message": tournament.display_message}
