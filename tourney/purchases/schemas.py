"""API schemas of rebuys, add-ons and their undo (docs/rules.md §2.5, §2.6)."""

from typing import Literal

from ninja import Field, Schema

from infra.web.schema_types import BodyIn, Chips


class RebuyIn(BodyIn):
    stack: Chips | None = Field(
        None,
        description="The chips the player has now (0 or omitted for a busted player); needed "
        "when rebuys are allowed with at most the starting stack",
    )
    method: Literal["cash", "card", "other"] = "cash"


class AddonIn(BodyIn):
    method: Literal["cash", "card", "other"] = "cash"


class ChipPurchaseOut(Schema):
    id: int
    kind: Literal["rebuy", "addon"]
    entry_id: int
    entry_number: int
    player_id: int
    player_name: str
    chips: int
    buy_in: int = Field(..., description="To the prize pool")
    fee: int = Field(..., description="To the house")
    price: int
    method: str | None
    receipt_number: str
    refund_receipt_number: str | None
    period_index: int | None
    stack_before: int | None
    revived: bool = Field(..., description="The rebuy took back the entry's bust-out")
    at_ms: int
    undone: bool
    undone_at_ms: int | None
    summary: str
    receipt_url: str
    undo_url: str
