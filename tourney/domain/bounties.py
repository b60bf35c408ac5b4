"""Bounties (docs/rules.md §16): a part of every buy-in is a prize on the player's head, paid
to whoever busts him. Money in the currency's units (integers); nothing here stores anything:
the bounties paid are worked out again from the standing bust-outs, so an undone bust-out
takes its bounty back and every later one follows."""

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

KINDS = ("knockout", "progressive", "mystery")
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
    # A mystery bounty's phase (§16.5): from this level (1-based, levels only) or this many
    # players left, whichever comes first; neither: from the start.
    phase_level: int | None = None
    phase_players: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise BountyError("invalid_bounty_kind", f"unknown bounty kind {self.kind!r}")
        if self.amount < 1:
            raise BountyError("invalid_bounty", "a bounty is at least 1")
        if not 0 <= self.cash_percent <= 100:
            raise BountyError("invalid_bounty", "the cash share is 0-100 percent")
        for limit in (self.phase_level, self.phase_players):
            if limit is not None and (self.kind != "mystery" or limit < 1):
                raise BountyError("invalid_bounty", "a mystery bounty's phase starts at 1")


@dataclass(frozen=True, slots=True)
class Knockout:
    """A standing bust-out with the pot's winners (entry ids, the first seat left of the button
    first); no winners: the bounty is not claimed yet (the console asks for them). A mystery
    bounty's knockout in the phase names the envelope its winners drew (`envelope`, an index;
    None: before the phase, or not drawn yet)."""

    busted: int
    winners: tuple[int, ...] = ()
    envelope: int | None = None
    in_phase: bool = False


@dataclass(frozen=True, slots=True)
class Rebought:
    """A rebuy in a bounty tournament (§16.1): one more bounty on the player's head, a new one
    after his bust-out (its bounty was paid: the rebuy does not take it back)."""

    entry: int


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


def mystery_book(
    envelopes: Sequence[int], knockouts: Iterable[Knockout | Rebought], champion: int | None = None
) -> BountyBook:
    """A mystery bounty's book (§16.5): each knockout's winners share the envelope they drew
    (split as a pot, the odd units to the first); a knockout before the phase pays nothing,
    one in the phase with no envelope drawn yet (no winner named) is unclaimed. The
    `champion` takes every envelope left. Invariant: the cash won and the envelopes not drawn
    sum to the envelopes."""
    book = BountyBook()
    drawn: set[int] = set()
    for ko in knockouts:
        if isinstance(ko, Rebought):  # his rebuy's bounty is in the envelopes
            continue
        book.won.setdefault(ko.busted, 0)
        if not ko.in_phase:
            continue
        if ko.envelope is None:
            book.unclaimed[ko.busted] = 0  # its envelope is drawn when the winners are named
            continue
        if ko.envelope in drawn or not 0 <= ko.envelope < len(envelopes):
            raise BountyError("envelope_drawn", f"envelope {ko.envelope} is drawn already")
        drawn.add(ko.envelope)
        for winner, share in zip(
            ko.winners, split_pot(envelopes[ko.envelope], ko.winners), strict=True
        ):
            book.awards.append(Award(ko.busted, winner, share, 0))
            book.won[winner] = book.won.get(winner, 0) + share
    if champion is not None:
        rest = sum(v for i, v in enumerate(envelopes) if i not in drawn)
        book.won[champion] = book.won.get(champion, 0) + rest
    return book


def envelopes_left(envelopes: Sequence[int], drawn: Iterable[int]) -> list[int]:
    """The indexes of the envelopes not drawn yet, in order."""
    taken = set(drawn)
    return [i for i in range(len(envelopes)) if i not in taken]


# The template's tiers (§16.5): 1 envelope of weight 8, 2 of 4, 4 of 2, the rest of 1.
TEMPLATE_TIERS = ((1, 8), (2, 4), (4, 2))


def envelopes_from_template(pool: int, count: int) -> list[int]:
    """`count` envelopes summing to `pool` to the unit, biggest first: a few big ones (weights
    8, 4, 4, 2, 2, 2, 2, then 1 each), each its share of the pool rounded down, the units left
    one each to the biggest envelopes first (so the values never increase)."""
    if count < 1:
        raise BountyError("no_envelopes", "a mystery bounty needs at least one envelope")
    if pool < 0:
        raise BountyError("negative", "the bounty pool cannot be negative")
    weights: list[int] = []
    for size, weight in TEMPLATE_TIERS:
        weights += [weight] * size
    weights = (weights + [1] * count)[:count]
    total = sum(weights)
    values = [pool * w // total for w in weights]
    for i in range(pool - sum(values)):  # fewer than `count` units: one each, biggest first
        values[i] += 1
    return values


def in_mystery_phase(bounty: Bounty, players_before: int, levels_started: int) -> bool:
    """Whether a bust-out is in a mystery bounty's phase: `players_before` in play before the
    hand, `levels_started` the blind levels begun (breaks not counted)."""
    if bounty.kind != "mystery":
        return False
    if bounty.phase_level is None and bounty.phase_players is None:
        return True
    by_level = bounty.phase_level is not None and levels_started >= bounty.phase_level
    by_players = bounty.phase_players is not None and players_before <= bounty.phase_players
    return by_level or by_players


def bounty_book(
    bounty: Bounty,
    bought: Mapping[int, int],
    knockouts: Iterable[Knockout | Rebought],
    champion: int | None = None,
) -> BountyBook:
    """Replay the standing bust-outs and the rebuys in order. `bought`: each entry's bounties
    bought at the start (1 an entry), so its head starts at `amount` times that; a rebuy adds
    `amount` to his head (a new head after a bust-out). A winner must still be in play when he
    busts someone. The `champion`, once the tournament is won, takes the bounty on his own
    head in cash. Invariant: the cash won, the heads and the unclaimed sum to `amount` times
    the bounties bought (entries and rebuys)."""
    book = BountyBook(on_head={e: bounty.amount * n for e, n in bought.items()})
    book.won = dict.fromkeys(bought, 0)
    for ko in knockouts:
        if isinstance(ko, Rebought):
            book.on_head[ko.entry] = book.on_head.get(ko.entry, 0) + bounty.amount
            book.won.setdefault(ko.entry, 0)
            continue
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
        phase_level=data.get("phase_level"),
        phase_players=data.get("phase_players"),
    )


def bounty_data(bounty: Bounty | None) -> dict:
    """What `bounty_from` reads back."""
    if bounty is None:
        return {}
    data: dict = {"kind": bounty.kind, "amount": bounty.amount}
    if bounty.kind == "progressive":
        data["cash_percent"] = bounty.cash_percent
    if bounty.kind == "mystery":
        data["phase_level"] = bounty.phase_level
        data["phase_players"] = bounty.phase_players
    return data
