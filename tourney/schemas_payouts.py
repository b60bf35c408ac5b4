"""API schemas of payout structures, payouts, results, deals, prizes paid and championships."""

from typing import Literal

from ninja import Field, Schema


class BracketIn(Schema):
    min_entries: int = Field(..., ge=1)
    max_entries: int | None = Field(None, ge=1, description="Omit on the last table: no limit")
    percents: list[str | float | int] | None = Field(
        None, description='Percent of the pool by place, 1st first ("50", 12.5, "0.0150")'
    )
    shares: list[int] | None = Field(None, description="Or millionths of the pool by place")


class PayoutStructureIn(Schema):
    name: str = Field(..., min_length=1, max_length=120)
    brackets: list[BracketIn]


class PayoutPreviewIn(Schema):
    name: str = "preview"
    brackets: list[BracketIn]
    sample_pool: int = Field(1_000_000, ge=0, description="Pool the editor shows amounts for")
    unit: int = Field(1, ge=1, description="Rounding unit of the sample amounts")


class BracketOut(Schema):
    min_entries: int
    max_entries: int | None
    shares: list[int]
    percents: list[str]


class PayoutStructureOut(Schema):
    id: int
    name: str
    template: str | None
    brackets: list[BracketOut]


class PreviewErrorOut(Schema):
    code: str
    detail: str
    bracket: int | None = Field(None, description="Index of the table at fault")
    place: int | None = None


class PreviewBracketOut(Schema):
    min_entries: int
    max_entries: int | None
    places_paid: int
    total_percent: str
    total_ok: bool
    amounts: list[int] | None


class PayoutPreviewOut(Schema):
    valid: bool
    error: PreviewErrorOut | None
    brackets: list[PreviewBracketOut]


class TournamentPayoutStructureIn(Schema):
    payout_structure_id: int | None = Field(None, description="None: the default template")


class PayoutOut(Schema):
    place: int
    amount: int


class TournamentPayoutsOut(Schema):
    payout_structure_id: int | None
    payouts: list[PayoutOut]


class ResultOut(Schema):
    place: int
    entry_id: int
    player_name: str
    prize: int
    place_to: int
    tied: bool
    entry_number: int
    player_id: int
    earned: int = Field(..., description="What the place or the deal earned, before forfeiture")
    deal: bool
    left_to_play: int
    disqualified: bool
    forfeited: int
    paid: int = Field(..., description="Paid at the cage so far")


class PrizePayIn(Schema):
    method: Literal["cash", "card", "other"] = "cash"


class PrizePaidOut(Schema):
    id: int
    entry_id: int
    amount: int
    method: str
    receipt_number: str
    receipt_url: str


class DealStackIn(Schema):
    entry_id: int
    stack: int


class DealAmountIn(Schema):
    entry_id: int
    amount: int


class DealIn(Schema):
    method: Literal["icm", "chip_chop"]
    stacks: list[DealStackIn]
    left_to_play: int = Field(0, ge=0)
    amounts: list[DealAmountIn] | None = Field(
        None, description="Amounts agreed by hand (else the calculator's)"
    )


class DealShareOut(Schema):
    entry_id: int
    player_name: str
    stack: int
    equity: float
    computed: int
    amount: int


class DealQuoteOut(Schema):
    method: str
    calculator: str
    pool: int
    left_to_play: int
    prizes: list[int]
    exact: bool
    max_error: float
    chips_counted: int
    chips_in_play: int
    warnings: list[str]
    shares: list[DealShareOut]


class DealOut(Schema):
    id: int
    method: str
    left_to_play: int
    shares: list[dict]
    pool: int
    at_ms: int
    undone: bool


class SeasonIn(Schema):
    name: str = Field(..., min_length=1, max_length=160)
    points_formula: Literal["linear", "table", "sqrt"] = "linear"
    points_table: list[int] = Field(default_factory=list)
    best_of: int | None = Field(None, description="Count only the best rounds; None: all")


class SeasonTournamentOut(Schema):
    id: int
    name: str
    round: int | None
    status: str


class SeasonOut(Schema):
    id: int
    name: str
    points_formula: str
    points_table: list[int]
    best_of: int | None
    tournaments: list[SeasonTournamentOut]


class StandingOut(Schema):
    rank: int
    player_id: int
    player_name: str
    points: float
    counted: list[int]
    rounds: dict[str, float]


class SeasonRoundOut(Schema):
    tournament_id: int
    name: str
    round: int | None
    status: str


class StandingsOut(Schema):
    season: SeasonOut
    rounds: list[SeasonRoundOut]
    standings: list[StandingOut]


class TournamentSeasonIn(Schema):
    season_id: int | None = None
    round: int | None = Field(None, description="Omit for the next round number")


class TournamentSeasonOut(Schema):
    season_id: int | None
    round: int | None
