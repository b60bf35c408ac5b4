"""Payout structures, payouts, results, deals, prizes paid and championships (docs/rules.md
§12 and §13)."""

from django.shortcuts import get_object_or_404
from ninja import Router, Status

from infra.web.schema_types import Id
from tourney.cage.selectors import ledger_row_out, receipt_total
from tourney.core import roles
from tourney.deals.usecases import deal_make, deal_out, deal_preview, deal_undo
from tourney.models import Deal, PayoutStructure, Season, Tournament
from tourney.payouts.schemas import (
    DealIn,
    DealOut,
    DealQuoteOut,
    PayoutOut,
    PayoutPreviewIn,
    PayoutPreviewOut,
    PayoutStructureIn,
    PayoutStructureOut,
    PrizePaidOut,
    PrizePayIn,
    ResultOut,
    SeasonIn,
    SeasonOut,
    StandingsOut,
    TournamentPayoutsOut,
    TournamentPayoutStructureIn,
    TournamentSeasonIn,
    TournamentSeasonOut,
)
from tourney.payouts.selectors import (
    payout_structure_check,
    payout_structure_out,
    structure_from_payload,
    tournament_payouts,
    tournament_results,
)
from tourney.payouts.usecases import (
    payout_structure_create,
    payout_structure_duplicate,
    payout_structure_update,
    prize_pay,
    tournament_payout_structure_set,
)
from tourney.seasons.usecases import (
    season_create,
    season_out,
    season_standings,
    season_update,
    tournament_season_set,
)
from tourney.system.schemas import ERROR_RESPONSES

router = Router(tags=["payouts"])
ERRORS = ERROR_RESPONSES
BASE = "/tournaments/{tournament_id}"


def _brackets(payload) -> list[dict]:
    return [b.dict() for b in payload.brackets]


# --- payout structures -----------------------------------------------------------------------


@router.get("/payout-structures", response=list[PayoutStructureOut])
def list_payout_structures(request):
    """Templates (read-only, `template` set) and the house's own structures."""
    roles.require(request.auth, "read")
    return [payout_structure_out(s) for s in PayoutStructure.objects.all()]


@router.get("/payout-structures/{int:structure_id}", response={200: PayoutStructureOut, **ERRORS})
def get_payout_structure(request, structure_id: Id):
    roles.require(request.auth, "read")
    return payout_structure_out(get_object_or_404(PayoutStructure, pk=structure_id))


@router.post("/payout-structures", response={201: PayoutStructureOut, **ERRORS})
def create_payout_structure(request, payload: PayoutStructureIn):
    """Tables by number of entries; each table's percentages must add up to 100 % (422
    `percent_sum` naming the table), without gaps between tables."""
    roles.require(request.auth, "director")
    row = payout_structure_create(
        actor=request.auth, name=payload.name, brackets=_brackets(payload)
    )
    return Status(201, payout_structure_out(row))


@router.post("/payout-structures/preview", response={200: PayoutPreviewOut, **ERRORS})
def preview_payout_structure(request, payload: PayoutPreviewIn):
    """Check a structure without saving it: the first error (with its table), each table's
    total and the amounts of `sample_pool` (the editor calls this as you type)."""
    roles.require(request.auth, "read")
    structure = structure_from_payload(payload.name, _brackets(payload))
    return payout_structure_check(structure, payload.sample_pool, payload.unit)


@router.put("/payout-structures/{int:structure_id}", response={200: PayoutStructureOut, **ERRORS})
def update_payout_structure(request, structure_id: Id, payload: PayoutStructureIn):
    """Replace a structure (same body as POST); 409 `payout_structure_is_template`, or
    `payout_structure_in_use` once a tournament finished, paid a prize or made a deal by it."""
    roles.require(request.auth, "director")
    row = payout_structure_update(
        actor=request.auth,
        structure_id=structure_id,
        name=payload.name,
        brackets=_brackets(payload),
    )
    return payout_structure_out(row)


@router.post(
    "/payout-structures/{int:structure_id}/copy", response={201: PayoutStructureOut, **ERRORS}
)
def copy_payout_structure(request, structure_id: Id):
    roles.require(request.auth, "director")
    row = payout_structure_duplicate(actor=request.auth, structure_id=structure_id)
    return Status(201, payout_structure_out(row))


# --- a tournament's payouts and results ------------------------------------------------------


@router.put(f"{BASE}/payout-structure", response={200: TournamentPayoutsOut, **ERRORS})
def set_tournament_payout_structure(
    request, tournament_id: Id, payload: TournamentPayoutStructureIn
):
    """Choose how the tournament pays (`null`: the default template); 409 `prizes_paid`,
    `deal_in_force`."""
    roles.require(request.auth, "director")
    tournament = tournament_payout_structure_set(
        actor=request.auth,
        tournament_id=tournament_id,
        payout_structure_id=payload.payout_structure_id,
    )
    return {
        "payout_structure_id": tournament.payout_structure_id,
        "payouts": tournament_payouts(tournament),
    }


@router.get(f"{BASE}/payouts", response={200: list[PayoutOut], **ERRORS})
def payouts(request, tournament_id: Id):
    """The places paid now, summing exactly to the prize pool (recomputed as entries, rebuys
    and add-ons come in), rounded to the house's `money_rounding`."""
    roles.require(request.auth, "read")
    return tournament_payouts(get_object_or_404(Tournament, pk=tournament_id))


@router.get(f"{BASE}/results", response={200: list[ResultOut], **ERRORS})
def results(request, tournament_id: Id):
    """Finished players by place with their prize: tied places share, a deal's amounts replace
    its players' prizes, a disqualified player's prize is `forfeited` (house rule)."""
    roles.require(request.auth, "read")
    return tournament_results(get_object_or_404(Tournament, pk=tournament_id)).rows


@router.post(f"{BASE}/results/{{entry_id}}/pay", response={201: PrizePaidOut, **ERRORS})
def pay_prize(request, tournament_id: Id, entry_id: Id, payload: PrizePayIn | None = None):
    """Pay a finished player's prize at the cage, with the bounties he won (`payout` ledger
    rows under one receipt, once per entry: 409 `already_paid`, `not_finished`, `no_prize`,
    `prize_forfeited`)."""
    roles.require(request.auth, "desk")
    row = prize_pay(
        actor=request.auth,
        tournament_id=tournament_id,
        entry_id=entry_id,
        method=payload.method if payload else "cash",
    )
    # The answer's amount is the receipt's: the prize and the bounties won, paid together.
    paid = {
        **ledger_row_out(tournament_id, row),
        "amount": receipt_total(tournament_id, row.receipt_number),
    }
    return Status(201, paid)


# --- deals -----------------------------------------------------------------------------------


def _deal_args(payload: DealIn) -> dict:
    return {
        "method": payload.method,
        "stacks": [(s.entry_id, s.stack) for s in payload.stacks],
        "left_to_play": payload.left_to_play,
        "amounts": [(a.entry_id, a.amount) for a in payload.amounts]
        if payload.amounts is not None
        else None,
    }


@router.post(f"{BASE}/deals/preview", response={200: DealQuoteOut, **ERRORS}, tags=["deals"])
def preview_deal(request, tournament_id: Id, payload: DealIn):
    """The calculator's amounts for the stacks of the players left; nothing is saved."""
    roles.require(request.auth, "director")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return deal_preview(tournament=tournament, **_deal_args(payload))


@router.get(f"{BASE}/deals", response={200: list[DealOut], **ERRORS}, tags=["deals"])
def list_deals(request, tournament_id: Id):
    roles.require(request.auth, "read")
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    return [deal_out(d) for d in Deal.objects.filter(tournament=tournament).order_by("-id")]


@router.post(f"{BASE}/deals", response={201: DealOut, **ERRORS}, tags=["deals"])
def make_deal(request, tournament_id: Id, payload: DealIn):
    """Confirm a deal: the amounts become the prizes of those players, whatever place they
    finish (409 `deal_exists`; 422 `deal_players`, `bad_stack`, `deal_sum`)."""
    roles.require(request.auth, "director")
    deal = deal_make(actor=request.auth, tournament_id=tournament_id, **_deal_args(payload))
    return Status(201, deal_out(deal))


@router.post(f"{BASE}/deals/{{deal_id}}/undo", response={200: DealOut, **ERRORS}, tags=["deals"])
def undo_deal(request, tournament_id: Id, deal_id: Id):
    roles.require(request.auth, "director")
    return deal_out(deal_undo(actor=request.auth, tournament_id=tournament_id, deal_id=deal_id))


# --- championships ---------------------------------------------------------------------------


@router.get("/seasons", response=list[SeasonOut], tags=["seasons"])
def list_seasons(request):
    roles.require(request.auth, "read")
    return [season_out(s) for s in Season.objects.all()]


@router.post("/seasons", response={201: SeasonOut, **ERRORS}, tags=["seasons"])
def create_season(request, payload: SeasonIn):
    roles.require(request.auth, "director")
    return Status(201, season_out(season_create(actor=request.auth, **payload.dict())))


@router.get("/seasons/{season_id}", response={200: SeasonOut, **ERRORS}, tags=["seasons"])
def get_season(request, season_id: Id):
    roles.require(request.auth, "read")
    return season_out(get_object_or_404(Season, pk=season_id))


@router.put("/seasons/{season_id}", response={200: SeasonOut, **ERRORS}, tags=["seasons"])
def update_season(request, season_id: Id, payload: SeasonIn):
    roles.require(request.auth, "director")
    return season_out(season_update(actor=request.auth, season_id=season_id, **payload.dict()))


@router.get(
    "/seasons/{season_id}/standings", response={200: StandingsOut, **ERRORS}, tags=["seasons"]
)
def standings(request, season_id: Id):
    """Points by place in each round (the season's formula), the best `best_of` rounds added."""
    roles.require(request.auth, "read")
    return season_standings(get_object_or_404(Season, pk=season_id))


@router.put(f"{BASE}/season", response={200: TournamentSeasonOut, **ERRORS}, tags=["seasons"])
def set_tournament_season(request, tournament_id: Id, payload: TournamentSeasonIn):
    """Make the tournament a round of a championship (`season_id` null: none); 409
    `round_taken`."""
    roles.require(request.auth, "director")
    tournament = tournament_season_set(
        actor=request.auth,
        tournament_id=tournament_id,
        season_id=payload.season_id,
        season_round=payload.round,
    )
    return {"season_id": tournament.season_id, "round": tournament.season_round}
