"""Reads of a bounty tournament (docs/rules.md §16): the bounty on every head and the cash
each player has won, worked out from the standing bust-outs."""

from django.db.models import Q

from infra.text.collation import sorted_by_name
from tourney.domain.bounties import (
    Bounty,
    BountyBook,
    Knockout,
    Rebought,
    bounty_book,
    bounty_from,
    mystery_book,
)
from tourney.flights.selectors import IN_FIELD
from tourney.models import ChipPurchase, Elimination, Entry, Tournament


def bounty_of(tournament: Tournament) -> Bounty | None:
    return bounty_from(tournament.bounty)


def counted_knockouts(tournament: Tournament):
    """The bust-outs whose bounty stands: those not undone, and those a rebuy took back (the
    bounty was paid; the rebuy buys a new one, docs/rules.md §16.1)."""
    revived = ChipPurchase.objects.filter(
        tournament=tournament, undone_at__isnull=True, revives__isnull=False
    ).values("revives_id")
    return Elimination.objects.filter(tournament=tournament).filter(
        Q(undone_at__isnull=True) | Q(pk__in=revived)
    )


def knockouts_of(tournament: Tournament) -> list[Knockout | Rebought]:
    """The bust-outs that count and the rebuys, in the order they happened, each bust-out with
    its pot's winners (a mystery bounty's: whether in its phase, the envelope drawn)."""
    rows = counted_knockouts(tournament).values_list(
        "at", "pk", "entry_id", "busted_by", "envelope", "bounty_phase"
    )
    rebuys = ChipPurchase.objects.filter(
        tournament=tournament, kind=ChipPurchase.Kind.REBUY, undone_at__isnull=True
    ).values_list("at", "pk", "entry_id")
    timeline: list[tuple] = [
        (at, 0, pk, Knockout(entry_id, tuple(by or ()), envelope, phase))
        for at, pk, entry_id, by, envelope, phase in rows
    ]
    timeline += [(at, 1, pk, Rebought(entry_id)) for at, pk, entry_id in rebuys]
    return [event for *_order, event in sorted(timeline, key=lambda t: t[:3])]


def envelopes_of(tournament: Tournament) -> list[int]:
    """A mystery bounty's envelopes (values, by index), once fixed ([] before its phase)."""
    return list((tournament.bounty or {}).get("envelopes") or [])


def envelopes_drawn(tournament: Tournament) -> dict[int, int]:
    """Envelope index -> the busted entry whose knockout drew it (standing bust-outs)."""
    rows = counted_knockouts(tournament).filter(envelope__isnull=False)
    return dict(rows.values_list("envelope", "entry_id"))


def book_of(tournament: Tournament, bounty: Bounty) -> BountyBook:
    """The tournament's bounty book: one bounty bought with every entry in the field; the
    champion, once there is one, takes his own."""
    entries = Entry.objects.filter(tournament=tournament, status__in=IN_FIELD)
    champion = None
    if tournament.status == Tournament.Status.FINISHED:
        champion = entries.filter(status=Entry.Status.ACTIVE).values_list("pk", flat=True).first()
    if bounty.kind == "mystery":
        book = mystery_book(envelopes_of(tournament), knockouts_of(tournament), champion)
        for entry_id in entries.values_list("pk", flat=True):
            book.won.setdefault(entry_id, 0)
        return book
    bought = dict.fromkeys(entries.values_list("pk", flat=True), 1)
    return bounty_book(bounty, bought, knockouts_of(tournament), champion)


def bounties_list(tournament: Tournament) -> list[dict]:
    """Every entry in the field: the bounty on his head (0 once busted) and the cash won, by
    player name."""
    bounty = bounty_of(tournament)
    if bounty is None:
        return []
    book = book_of(tournament, bounty)
    names = dict(
        Entry.objects.filter(tournament=tournament, status__in=IN_FIELD).values_list(
            "pk", "player__name"
        )
    )
    rows = (
        {
            "entry_id": entry_id,
            "player_name": name,
            "on_head": book.on_head.get(entry_id, 0),
            "won": book.won.get(entry_id, 0),
        }
        for entry_id, name in sorted(names.items())
    )
    return sorted_by_name(rows, key=lambda row: row["player_name"])


def awards_of(tournament: Tournament, busted: set[int]) -> dict[int, list[dict]]:
    """The bounties paid for the bust-outs of `busted`: entry id -> [{entry_id, amount,
    to_head}] (the winner, the cash he got, what went onto his head)."""
    bounty = bounty_of(tournament)
    if bounty is None:
        return {}
    out: dict[int, list[dict]] = {}
    for award in book_of(tournament, bounty).awards:
        if award.busted in busted:
            out.setdefault(award.busted, []).append(
                {"entry_id": award.winner, "amount": award.cash, "to_head": award.to_head}
            )
    return out


def biggest_bounties(tournament: Tournament, limit: int) -> list[dict]:
    """The biggest bounties on the heads of the players still in, for the lobby TV: [{rank,
    entry_id, player_name, on_head}], equal bounties sharing a rank and listed by name; []
    without bounties."""
    bounty = bounty_of(tournament)
    if bounty is None:
        return []
    heads = {e: v for e, v in book_of(tournament, bounty).on_head.items() if v > 0}
    names = dict(Entry.objects.filter(pk__in=list(heads)).values_list("pk", "player__name"))
    ordered = sorted_by_name(heads, key=lambda e: names.get(e, ""))
    ordered.sort(key=lambda e: -heads[e])  # stable: by name within a bounty
    rows: list[dict] = []
    for i, entry_id in enumerate(ordered[:limit]):
        same = rows and rows[-1]["on_head"] == heads[entry_id]
        rows.append(
            {
                "rank": rows[-1]["rank"] if same else i + 1,
                "entry_id": entry_id,
                "player_name": names.get(entry_id, ""),
                "on_head": heads[entry_id],
            }
        )
    return rows


def unclaimed_busts(tournament: Tournament):
    """The standing bust-outs (a queryset) of a bounty tournament with no pot's winner named."""
    rows = Elimination.objects.filter(
        tournament=tournament,
        undone_at__isnull=True,
        reason=Elimination.Reason.BUST,
        busted_by=[],
    )
    if (tournament.bounty or {}).get("kind") == "mystery":
        return rows.filter(bounty_phase=True)  # before its phase a bust-out pays nothing
    return rows


def unclaimed_count(tournament: Tournament) -> int:
    return unclaimed_busts(tournament).count() if tournament.bounty else 0


def mystery_state(tournament: Tournament) -> dict | None:
    """A mystery bounty's envelopes for the pages, the TV and the API: {envelopes: [{index,
    value, drawn: bool, busted_entry_id}], left, left_total, pool, phase_level,
    phase_players, in_phase, draws: the latest draws [{entry_id, value, names}], newest
    first}; None without a mystery bounty."""
    bounty = bounty_of(tournament)
    if bounty is None or bounty.kind != "mystery":
        return None
    envelopes = envelopes_of(tournament)
    drawn = envelopes_drawn(tournament)
    rows = (
        counted_knockouts(tournament)
        .filter(envelope__isnull=False)
        .order_by("-pk")
        .values_list("entry_id", "envelope", "busted_by")[:10]
    )
    winners = {w for _e, _i, by in rows for w in by or ()}
    names = dict(Entry.objects.filter(pk__in=winners).values_list("pk", "player__name"))
    return {
        "envelopes": [
            {"index": i, "value": v, "drawn": i in drawn, "busted_entry_id": drawn.get(i)}
            for i, v in enumerate(envelopes)
        ],
        "left": len(envelopes) - len(drawn),
        "left_total": sum(v for i, v in enumerate(envelopes) if i not in drawn),
        "phase_level": bounty.phase_level,
        "phase_players": bounty.phase_players,
        "in_phase": Elimination.objects.filter(
            tournament=tournament, undone_at__isnull=True, bounty_phase=True
        ).exists(),
        "draws": [
            {
                "entry_id": entry_id,
                "value": envelopes[index] if index < len(envelopes) else 0,
                "names": [names.get(w, "") for w in by or ()],
            }
            for entry_id, index, by in rows
        ],
    }
