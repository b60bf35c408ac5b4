"""Bounties (docs/rules.md §16): a part of every buy-in is a prize on the player's head, paid
to whoever busts him. Money in the currency's units (integers); nothing here stores anything:
the bounties paid are worked out again from the standing bust-outs, so an undone bust-out
takes its bounty back and every later one follows."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

KINDS = ("knockout", "progressive")
# The progressive knockout's share paid to the eliminator in cash, the rest onto his own head
# (docs/rules.md §16.3): half, unless the house says otherwise.
DEFAULT_CASH_PERCENT = 50


class BountyError(ValueError):
    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Bounty:
    """A tournament's bounty: `amount` of each buy-in (the rest is the prize pool);
    `cash_percent` of a progressive bounty goes to the eliminator in cash."""

    kind: str
    amount: int
    cash_percent: int = DEFAULT_CASH_PERCENT

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise BountyError("invalid_bounty_kind", f"unknown bounty kind {self.kind!r}")
        if self.amount < 1:
            raise BountyError("invalid_bounty", "a bounty is at least 1")
        if not 0 <= self.cash_percent <= 100:
            raise BountyError("invalid_bounty", "the cash share is 0-100 percent")


@dataclass(frozen=True, slots=True)
class Knockout:
    """A standing bust-out with the pot's winners (entry ids, the first seat left of the button
    first); no winners: the bounty is not claimed yet (the console asks for them)."""

    busted: int
    winners: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Award:
    """What one winner got for one bust-out: `cash` paid to him, `to_head` onto his own
    bounty (a progressive knockout's)."""

    busted: int
    winner: int
    cash: int
    to_head: int


@dataclass
class BountyBook:
    """Where the bounty pool stands: the bounty on each player's head (`on_head`, the busted
    ones' taken), the cash each has won, every award in order, and the bounties of players
    busted with no winner named (`unclaimed`, entry id -> amount)."""

    on_head: dict[int, int] = field(default_factory=dict)
    won: dict[int, int] = field(default_factory=dict)
    awards: list[Award] = field(default_factory=list)
    unclaimed: dict[int, int] = field(default_factory=dict)


def split_pot(amount: int, winners: Sequence[int]) -> list[int]:
    """`amount` shared equally among the winners of a split pot, in their order; the odd units
    one each to the first ones (the first seat left of the button first, as the TDA's odd
    chip: docs/rules.md §16.2). Sums to `amount`."""
    if not winners:
        raise BountyError("no_winner", "a split needs at least one winner")
    share, odd = divmod(amount, len(winners))
    return [share + (1 if i < odd else 0) for i in range(len(winners))]


def odd_chip_order(
    winners: Sequence[int], seat_of: Mapping[int, int], button: int, seats: int
) -> list[int]:
    """The winners of one table's pot (entry ids) in the odd chip's order: the first seat left
    of the `button` first, round the table's `seats` (seat numbers 1..seats; the button's own
    seat last). `seat_of` maps each winner to his seat."""
    return sorted(winners, key=lambda w: (seat_of[w] - button) % seats or seats)


def awards_for(bounty: Bounty, on_head: int, busted: int, winners: Sequence[int]) -> list[Award]:
    """The bounty on `busted`'s head (`on_head`) paid to the winners: a knockout's all in cash;
    a progressive one's `cash_percent` of each share in cash (rounded down) and the rest onto
    the winner's head. Every unit of `on_head` lands exactly once."""
    out = []
    for winner, share in zip(winners, split_pot(on_head, winners), strict=True):
        cash = share if bounty.kind == "knockout" else share * bounty.cash_percent // 100
        out.append(Award(busted, winner, cash, share - cash))
    return out


def bounty_book(
    bounty: Bounty,
    bought: Mapping[int, int],
    knockouts: Iterable[Knockout],
    champion: int | None = None,
) -> BountyBook:
    """Replay the standing bust-outs in order. `bought`: each entry's bounties bought (1 an
    entry; a rebuy that buys a bounty, one more), so its head starts at `amount` times that.
    A winner must still be in play when he busts someone. The `champion`, once the tournament
    is won, takes the bounty on his own head in cash. Invariant: the cash won, the heads and
    the unclaimed sum to `amount` times the bounties bought."""
    book = BountyBook(on_head={e: bounty.amount * n for e, n in bought.items()})
    book.won = dict.fromkeys(bought, 0)
    for ko in knockouts:
        head = book.on_head.pop(ko.busted, None)
        if head is None:
            raise BountyError("not_in_play", f"entry {ko.busted} is not in play")
        if not ko.winners:
            book.unclaimed[ko.busted] = head
            continue
        if len(set(ko.winners)) != len(ko.winners) or ko.busted in ko.winners:
            raise BountyError("invalid_winners", "each winner once, never the busted player")
        missing = [w for w in ko.winners if w not in book.on_head]
        if missing:
            raise BountyError("winner_not_in_play", f"entries {missing} are not in play")
        for award in awards_for(bounty, head, ko.busted, ko.winners):
            book.awards.append(award)
            book.won[award.winner] += award.cash
            book.on_head[award.winner] += award.to_head
    if champion is not None and champion in book.on_head:
        book.won[champion] += book.on_head[champion]
        book.on_head[champion] = 0
    return book


def bounty_pool(bounty: Bounty | None, bounties_bought: int) -> int:
    """The bounty pool: `amount` for every bounty bought (0 without bounties)."""
    return bounty.amount * bounties_bought if bounty else 0


def bounty_from(data: Mapping | None) -> Bounty | None:
    """The tournament's stored bounty (`Tournament.bounty`, {} for none)."""
    if not data:
        return None
    return Bounty(
        kind=data["kind"],
        amount=int(data["amount"]),
        cash_percent=int(data.get("cash_percent", DEFAULT_CASH_PERCENT)),
    )


def bounty_data(bounty: Bounty | None) -> dict:
    """What `bounty_from` reads back."""
    if bounty is None:
        return {}
    data = {"kind": bounty.kind, "amount": bounty.amount}
    if bounty.kind == "progressive":
        data["cash_percent"] = bounty.cash_percent
    return data
