"""What is read of the payouts (docs/rules.md §12): the amounts and the ladder, computed from the
prize pool, the entries, the structure and the house's rounding (never stored); the results,
from the standing eliminations, the winner, the deal in force and the disqualifications; whether
a structure has been paid by."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, Sum

from tourney.cage.selectors import prizes_paid
from tourney.core.errors import Conflict
from tourney.domain.payouts import PayoutError, payouts_for
from tourney.domain.results import Award, Finisher, awards_for, forfeited_total
from tourney.domain.results import Deal as DealTerms
from tourney.models import Deal, Elimination, Entry, LedgerEntry, Tournament
from tourney.payouts.structures import (
    payout_refusal,
    payout_structure_domain,
)
from tourney.selectors import tournament_rules, tournament_summary


def payout_amounts(tournament: Tournament, summary=None) -> tuple[int, ...]:
    """Amounts by place (1st first) for the entries and the pool now; () with no entries.
    Refused with the domain's code when the structure has no table for that many entries."""
    summary = summary or tournament_summary(tournament)
    if summary.entries < 1:
        return ()
    structure = payout_structure_domain(tournament.payout_structure)
    unit = tournament_rules(tournament).money_rounding
    try:
        return payouts_for(summary.prize_pool, summary.entries, structure, unit)
    except PayoutError as exc:
        raise payout_refusal(exc, error=Conflict) from exc


def tournament_payouts(tournament: Tournament) -> list[dict]:
    """The API's [{place, amount}] for the places paid now, summing exactly to the prize pool."""
    return [{"place": p, "amount": a} for p, a in enumerate(payout_amounts(tournament), 1)]


def payout_ladder(tournament: Tournament, summary=None, limit: int = 10) -> dict:
    """What the lobby screen shows: places with the same amount grouped ({place, place_to,
    amount, state: done | next | open}), at most `limit` rows (the top ones and those around
    the next place to be decided, a {gap} row between), the places paid, the bubble."""
    summary = summary or tournament_summary(tournament)
    try:
        amounts = payout_amounts(tournament, summary)
    except Conflict:
        amounts = ()
    left = summary.players_remaining if tournament.status != Tournament.Status.REGISTERING else 0
    groups: list[dict] = []
    for place, amount in enumerate(amounts, 1):
        if groups and groups[-1]["amount"] == amount:
            groups[-1]["place_to"] = place
        else:
            groups.append({"place": place, "place_to": place, "amount": amount})
    current = None
    for index, g in enumerate(groups):
        if left and g["place"] > left:
            g["state"] = "done"
        elif left and g["place"] <= left <= g["place_to"]:
            g["state"], current = "next", index
        else:
            g["state"] = "open"
    if current is None and left and groups and groups[-1]["state"] == "open":
        current = len(groups) - 1
    shown = set(range(min(len(groups), limit)))
    if len(groups) > limit:
        around = current if current is not None else len(groups) - 1
        near = set(range(max(0, around - 2), min(len(groups), around + 2)))
        shown = set(range(limit - len(near))) | near
    rows: list[dict] = []
    for index in sorted(shown):
        if rows and rows[-1].get("_index", -1) != index - 1:
            rows.append({"gap": True})
        rows.append({**groups[index], "_index": index})
    for row in rows:
        row.pop("_index", None)
    paid = len(amounts)
    return {
        "payouts": rows,
        "payout_ladder": {
            "places_paid": paid,
            "players_remaining": left,
            "bubble": bool(left) and paid > 0 and left == paid + 1,
            "in_money": bool(left) and 0 < left <= paid,
        },
    }


def payout_structure_paid_by(structure_id: int) -> bool:
    """Whether a tournament has paid by this structure's tables (finished, a prize paid, or a
    deal standing on them): its results and the cage's payments must not change under it."""
    paid = prizes_paid(tournament=OuterRef("pk"))
    deal = Deal.objects.filter(tournament=OuterRef("pk"), undone_at__isnull=True)
    return (
        Tournament.objects.filter(payout_structure_id=structure_id)
        .filter(Q(status=Tournament.Status.FINISHED) | Exists(paid) | Exists(deal))
        .exists()
    )


@dataclass(frozen=True)
class Results:
    rows: list[dict]
    """By place: {place, place_to, tied, entry_id, player_id, player_name, prize, earned,
    deal, left_to_play, disqualified, forfeited, paid}."""
    pool: int
    payouts: tuple[int, ...]
    forfeited: int
    paid: int
    deal: Deal | None


def deal_in_force(tournament: Tournament) -> Deal | None:
    return (
        Deal.objects.filter(tournament=tournament, undone_at__isnull=True).order_by("-id").first()
    )


def _finishers(tournament: Tournament) -> list[tuple[Finisher, Entry]]:
    rows = (
        Elimination.objects.filter(tournament=tournament, undone_at__isnull=True)
        .select_related("entry__player")
        .order_by("place", "entry_id")
    )
    out = [
        (
            Finisher(
                e.entry_id,
                e.place,
                e.place_to,
                e.reason == Elimination.Reason.DISQUALIFIED or e.entry.disqualified_at is not None,
            ),
            e.entry,
        )
        for e in rows
    ]
    if tournament.status == Tournament.Status.FINISHED:
        winner = (
            Entry.objects.select_related("player")
            .filter(tournament=tournament, status=Entry.Status.ACTIVE, place=1)
            .first()
        )
        if winner is not None:
            out.insert(0, (Finisher(winner.pk, 1, 1, winner.disqualified_at is not None), winner))
    return out


def tournament_results(tournament: Tournament) -> Results:
    summary = tournament_summary(tournament)
    try:
        payouts = payout_amounts(tournament, summary)
    except Conflict:
        payouts = ()
    rules = tournament_rules(tournament)
    deal = deal_in_force(tournament)
    terms = DealTerms({s["entry_id"]: s["amount"] for s in deal.shares}) if deal else None
    finishers = _finishers(tournament)
    awards: dict[int, Award] = awards_for(
        payouts,
        [f for f, _e in finishers],
        unit=rules.money_rounding,
        deal=terms,
        dq_forfeits_prize=rules.dq_forfeits_prize,
    )
    paid = dict(
        LedgerEntry.objects.filter(tournament=tournament, kind=LedgerEntry.Kind.PAYOUT)
        .values("entry_id")
        .annotate(total=Sum("amount"))
        .values_list("entry_id", "total")
    )
    rows = []
    for finisher, entry in finishers:
        award = awards[finisher.entry_id]
        rows.append(
            {
                "place": finisher.place,
                "place_to": finisher.place_to,
                "tied": finisher.place_to != finisher.place,
                "entry_id": entry.pk,
                "entry_number": entry.number,
                "player_id": entry.player_id,
                "player_name": entry.player.name,
                "prize": award.prize,
                "earned": award.earned,
                "deal": award.deal,
                "left_to_play": award.left_to_play,
                "disqualified": finisher.disqualified,
                "forfeited": award.forfeited,
                "paid": -paid.get(entry.pk, 0),
            }
        )
    return Results(
        rows=rows,
        pool=summary.prize_pool,
        payouts=payouts,
        forfeited=forfeited_total(awards),
        paid=-sum(paid.values()),
        deal=deal,
    )
