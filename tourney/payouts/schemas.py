"""API schemas of payout structures, payouts, results, deals, prizes paid and championships."""

from typing import Annotated, Literal

from ninja import Field, Schema

from infra.web.schema_types import (
    CHIPS_MAX,
    BodyIn,
    Entries,
    Id,
    Level,
    Line,
    Money,
    PoolMoney,
    SignedMoney,
    bounded,
)

# A payout table pays at most this many places; millionths of the pool per place.
PLACES_MAX = 10_000
SEASON_NAME_MAX = 160
POINTS_MAX = 1_000_000
Share = bounded(0, 1_000_000)


class BracketIn(BodyIn):
    min_entries: Entries
    max_entries: Entries | None = Field(None, description="Omit on the last table: no limit")
    percents: list[Line | Annotated[float, Field(ge=0, le=100)]] | None = Field(
        None,
        max_length=PLACES_MAX,
        description='Percent of the pool by place, 1st first ("50", 12.5, "0.0150")',
    )
    shares: list[Share] | None = Field(
        None, max_length=PLACES_MAX, description="Or millionths of the pool by place"
    )


class PayoutStructureIn(BodyIn):
    name: Line = Field(..., min_length=1, max_length=120)
    brackets: list[BracketIn] = Field(..., max_length=1_000)


class PayoutPreviewIn(BodyIn):
    name: Line = Field("preview", max_length=120)
    brackets: list[BracketIn] = Field(..., max_length=1_000)
    sample_pool: PoolMoney = Field(1_000_000, description="Pool the editor shows amounts for")
    unit: Money = Field(1, ge=1, description="Rounding unit of the sample amounts")


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


class TournamentPayoutStructureIn(BodyIn):
    payout_structure_id: Id | None = Field(None, description="None: the default template")


class PayoutOut(Schema):
    place: int
    amount: int
    ticket_to: int | None = Field(None, description="A satellite's seat: the target event")
    ticket: int = Field(0, description="A satellite: the ticket's value in the amount")
    cash: int = Field(0, description="The amount's cash part (all of it but a ticket)")


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
    bounties: int = Field(0, description="A bounty tournament: the bounties won, in cash")
    ticket: int = Field(0, description="A satellite: the ticket won (the prize is the cash)")


class PrizePayIn(BodyIn):
    method: Literal["cash", "card", "other"] = "cash"


class PrizePaidOut(Schema):
    id: int
    entry_id: int
    amount: int
    method: str
    receipt_number: str
    receipt_url: str


class DealStackIn(BodyIn):
    entry_id: Id
    stack: bounded(-CHIPS_MAX, CHIPS_MAX)  # a negative one is refused by the deal's rules


class DealAmountIn(BodyIn):
    entry_id: Id
    amount: SignedMoney


class DealIn(BodyIn):
    method: Literal["icm", "chip_chop"]
    stacks: list[DealStackIn] = Field(..., max_length=PLACES_MAX)
    left_to_play: PoolMoney = 0
    amounts: list[DealAmountIn] | None = Field(
        None, max_length=PLACES_MAX, description="Amounts agreed by hand (else the calculator's)"
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


class SeasonIn(BodyIn):
    name: Line = Field(..., min_length=1, max_length=SEASON_NAME_MAX)
    points_formula: Literal["linear", "table", "sqrt"] = "linear"
    points_table: list[bounded(0, POINTS_MAX)] = Field(default_factory=list, max_length=PLACES_MAX)
    best_of: Level | None = Field(None, description="Count only the best rounds; None: all")


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


class TournamentSeasonIn(BodyIn):
    season_id: Id | None = None
    round: Level | None = Field(None, description="Omit for the next round number")


class TournamentSeasonOut(Schema):
    season_id: int | None
    round: int | None
