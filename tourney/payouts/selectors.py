"""What is read of the payouts (docs/rules.md §12): the amounts and the ladder, computed from the
prize pool, the entries, the structure and the house's rounding (never stored); the results,
from the standing eliminations, the winner, the deal in force and the disqualifications; whether
a structure has been paid by."""

from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Q, Sum
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop, ngettext

from tourney.bounties.selectors import book_of, bounty_of
from tourney.cage.selectors import prizes_paid
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.domain.festival import Day1Bust, day1_places
from tourney.domain.payouts import (
    DEFAULT_TEMPLATE,
    PAYOUT_TEMPLATES,
    PayoutBracket,
    PayoutError,
    PayoutStructure,
    payouts_for,
    percent_text,
    shares_from_percents,
    validate_structure,
)
from tourney.domain.results import Award, Finisher, awards_for, forfeited_total
from tourney.domain.results import Deal as DealTerms
from tourney.domain.satellites import place_values
from tourney.models import Deal, Elimination, Entry, LedgerEntry, Ticket, Tournament
from tourney.models import PayoutStructure as PayoutStructureRow
from tourney.satellites.selectors import (
    prize_label,
    satellite_info,
    satellite_of,
    satellite_prizes_of,
    seats_of,
    tickets_issued,
)
from tourney.tournaments.selectors import tournament_rules, tournament_summary


def payout_amounts(tournament: Tournament, summary=None) -> tuple[int, ...]:
    """Amounts by place (1st first) for the entries and the pool now; () with no entries.
    Refused with the domain's code when the structure has no table for that many entries.
    A flight pays nothing: its money is its main event's prize pool (docs/rules.md §15.1)."""
    if tournament.main_event_id is not None:
        return ()
    summary = summary or tournament_summary(tournament)
    if summary.entries < 1:
        return ()
    if tournament.satellite:  # seats of the target, the leftover by the house rule (§17)
        return place_values(satellite_prizes_of(tournament, summary.prize_pool))
    structure = payout_structure_domain(tournament.payout_structure)
    unit = tournament_rules(tournament).money_rounding
    try:
        return payouts_for(summary.prize_pool, summary.entries, structure, unit)
    except PayoutError as exc:
        raise payout_refusal(exc, error=Conflict) from exc


def tournament_payouts(tournament: Tournament) -> list[dict]:
    """The API's [{place, amount, ticket_to, ticket, cash}] for the places paid now, summing
    exactly to the prize pool; a satellite's seats name the target (`ticket_to`), the ticket's
    value and the cash beside it (docs/rules.md §17)."""
    if tournament.satellite:
        prizes = satellite_prizes_of(tournament, tournament_summary(tournament).prize_pool)
        target = satellite_of(tournament).target_id
        return [
            {
                "place": p.place,
                "amount": p.ticket + p.cash,
                "ticket_to": target if p.ticket else None,
                "ticket": p.ticket,
                "cash": p.cash,
            }
            for p in prizes
        ]
    return [
        {"place": p, "amount": a, "ticket_to": None, "ticket": 0, "cash": a}
        for p, a in enumerate(payout_amounts(tournament), 1)
    ]


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
    satellite = None
    if tournament.satellite:  # its bubble is the last seat's, not the leftover's (§17.3)
        paid = seats_of(tournament, summary.prize_pool)
        satellite = _seat_labels(tournament, summary.prize_pool, rows)
    return {
        "payouts": rows,
        "satellite": satellite,
        "payout_ladder": {
            "places_paid": paid,
            "players_remaining": left,
            "bubble": bool(left) and paid > 0 and left == paid + 1,
            "in_money": bool(left) and 0 < left <= paid,
        },
    }


def _seat_labels(tournament: Tournament, pool: int, rows: list[dict]) -> dict | None:
    """A satellite's ladder reads in seats: each row's `label` ("Seat", "Seat + 2,857", "Ticket
    20,000" for a partial seat); returns `satellite_info` and the panel's title ("7 seats")."""
    prizes = {p.place: p for p in satellite_prizes_of(tournament, pool)}
    info = satellite_info(tournament, pool)
    for row in rows:
        prize = prizes.get(row.get("place"))
        if prize is not None and prize.ticket:
            row["label"] = prize_label(prize.ticket, prize.cash, info["seat_value"])
    return {
        **info,
        "title": ngettext("%(seats)s seat", "%(seats)s seats", info["seats"])
        % {"seats": info["seats"]},
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


def _day1_finishers(main: Tournament, paid: int) -> list[tuple[Finisher, Entry]]:
    """A main event's players out in its flights who reach the money (docs/rules.md §15.5)."""
    field = Entry.objects.filter(tournament=main).count()
    if main.seats_drawn_at is None or paid <= field:
        return []
    rows = list(
        Elimination.objects.filter(tournament__main_event=main, undone_at__isnull=True)
        .select_related("entry__player")
        .order_by("at", "pk")
    )
    day2 = Entry.objects.filter(tournament=main).values_list("player_id", flat=True)
    busts = [
        Day1Bust(e.entry_id, e.entry.player_id, (e.tournament_id, e.bust_group), i)
        for i, e in enumerate(rows)
    ]
    by_entry = {e.entry_id: e for e in rows}
    out = []
    for entry_id, place, place_to in day1_places(busts, day2, field, paid):
        e = by_entry[entry_id]
        dq = e.reason == Elimination.Reason.DISQUALIFIED or e.entry.disqualified_at is not None
        out.append((Finisher(entry_id, place, place_to, dq), e.entry))
    return out


def _finishers(tournament: Tournament, paid: int = 0) -> list[tuple[Finisher, Entry]]:
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
                e.entry.absent_at_money is not None,
            ),
            e.entry,
        )
        for e in rows
    ]
    if tournament.status == Tournament.Status.FINISHED:
        # The winner; a satellite's seat winners, who share 1st place (docs/rules.md §17.3).
        winners = list(
            Entry.objects.select_related("player")
            .filter(tournament=tournament, status=Entry.Status.ACTIVE, place=1)
            .order_by("pk")
        )
        out[:0] = [
            (
                Finisher(
                    w.pk,
                    1,
                    len(winners),
                    w.disqualified_at is not None,
                    w.absent_at_money is not None,
                ),
                w,
            )
            for w in winners
        ]
    if tournament.is_main_event:
        out += _day1_finishers(tournament, paid)
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
    finishers = _finishers(tournament, len(payouts))
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
    bounty = bounty_of(tournament)
    won = book_of(tournament, bounty).won if bounty else {}
    # A ticket cashed out is paid at the cage as prize money (docs/rules.md §17.4).
    tickets = dict(
        tickets_issued(tournament)
        .exclude(status=Ticket.Status.CASHED_OUT)
        .values_list("source_entry_id", "value")
    )
    rows = []
    for finisher, entry in finishers:
        award = awards[finisher.entry_id]
        ticket = tickets.get(entry.pk, 0)
        rows.append(
            {
                "place": finisher.place,
                "place_to": finisher.place_to,
                "tied": finisher.place_to != finisher.place,
                "entry_id": entry.pk,
                "entry_number": entry.number,
                "player_id": entry.player_id,
                "player_name": entry.player.name,
                # A satellite's ticket is part of the place's prize; the cage pays the rest.
                "prize": award.prize - ticket,
                "ticket": ticket,
                "earned": award.earned,
                "deal": award.deal,
                "left_to_play": award.left_to_play,
                "disqualified": finisher.disqualified,
                "forfeited": award.forfeited,
                "paid": -paid.get(entry.pk, 0),
                "bounties": won.get(entry.pk, 0),
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


TEMPLATE_NAMES = {
    "standard": gettext_noop("Standard (about 12.5 % paid)"),
    "flat": gettext_noop("Flat (about 18 % paid)"),
    "winner-heavy": gettext_noop("Winner-heavy (about 10 % paid)"),
}


# The domain's refusals, marked for makemessages (the domain may not import Django).
MESSAGES = [
    gettext_noop("A payout table must pay at least one place."),
    gettext_noop("Place %(place)s must get more than 0 %%."),
    gettext_noop("Place %(place)s gets more than place %(better)s."),
    gettext_noop("The percentages add up to %(total)s %%, not 100 %%."),
    gettext_noop("%(places)s places are paid but there may be only %(entries)s entries."),
    gettext_noop("The payout structure has no tables."),
    gettext_noop("Table %(number)s ends at %(last)s entries, before it starts (%(first)s)."),
    gettext_noop("Table %(number)s should start at %(expected)s entries, not %(first)s."),
    gettext_noop("Only the last table can be open-ended (table %(number)s is not)."),
    gettext_noop("Place %(place)s: %(text)s is not a percentage."),
    gettext_noop("Place %(place)s: percentages have at most 4 decimals."),
    gettext_noop("The payout structure has no table for %(entries)s entries."),
]


MAX_BRACKETS = 60


MAX_PLACES = 2_000


def brackets_json(structure: PayoutStructure) -> list[dict]:
    return [
        {"min_entries": b.min_entries, "max_entries": b.max_entries, "shares": list(b.shares)}
        for b in structure.brackets
    ]


def structure_from_json(name: str, brackets: Sequence[dict]) -> PayoutStructure:
    return PayoutStructure(
        name,
        tuple(
            PayoutBracket(b["min_entries"], b.get("max_entries"), tuple(b["shares"]))
            for b in brackets
        ),
    )


def payout_structure_domain(row: PayoutStructureRow | None) -> PayoutStructure:
    """The stored structure as the domain's; None = the default template."""
    if row is None:
        return PAYOUT_TEMPLATES[DEFAULT_TEMPLATE]
    return structure_from_json(row.name, row.brackets)


def _bracket_label(bracket: int | None, structure: PayoutStructure) -> str:
    for b in structure.brackets:
        if b.min_entries == bracket:
            if b.max_entries is None:
                return _("From %(first)s entries") % {"first": b.min_entries}
            return _("%(first)s–%(last)s entries") % {"first": b.min_entries, "last": b.max_entries}
    return ""


def payout_refusal(
    exc: PayoutError, structure: PayoutStructure | None = None, error=InvalidInput
) -> InvalidInput:
    """A domain refusal, translated, with the table of entries at fault named first."""
    detail = refusal(exc, error).detail
    label = _bracket_label(exc.bracket, structure) if structure is not None else ""
    return error(exc.code, f"{label}: {detail}" if label else detail)


def structure_from_payload(name: str, brackets: Sequence[dict]) -> PayoutStructure:
    """API brackets [{min_entries, max_entries, percents | shares}] -> the domain structure,
    each percentage turned into exact millionths (refused: not a number, too many decimals)."""
    if len(brackets) > MAX_BRACKETS:
        raise InvalidInput(
            "too_many_brackets", _("At most %(n)s tables of entries.") % {"n": MAX_BRACKETS}
        )
    out = []
    for b in brackets:
        percents, shares = b.get("percents"), b.get("shares")
        if percents is not None:
            try:
                shares = shares_from_percents([str(p) for p in percents])
            except PayoutError as exc:
                exc.bracket = b["min_entries"]
                partial = PayoutStructure(
                    name, (PayoutBracket(b["min_entries"], b.get("max_entries"), ()),)
                )
                raise payout_refusal(exc, partial) from exc
        if len(shares or ()) > MAX_PLACES:
            raise InvalidInput(
                "too_many_places", _("At most %(n)s places paid.") % {"n": MAX_PLACES}
            )
        out.append(PayoutBracket(b["min_entries"], b.get("max_entries"), tuple(shares or ())))
    return PayoutStructure(name, tuple(out))


def payout_structure_check(structure: PayoutStructure, sample_pool: int, unit: int = 1) -> dict:
    """What the editor shows as you type: the first error (with its table), each table's total
    percentage, and the amounts of a sample pool at each table's fewest entries."""
    error = None
    try:
        validate_structure(structure)
    except PayoutError as exc:
        error = {
            "code": exc.code,
            "detail": payout_refusal(exc, structure).detail,
            "bracket": next(
                (i for i, b in enumerate(structure.brackets) if b.min_entries == exc.bracket),
                None,
            ),
            "place": exc.params.get("place"),
        }
    brackets = []
    for b in structure.brackets:
        # Each table's amounts on their own, so a mistake in one table hides no other's.
        try:
            alone = PayoutStructure(structure.name, (b,))
            amounts = list(payouts_for(sample_pool, b.min_entries, alone, unit))
        except PayoutError:
            amounts = None
        brackets.append(
            {
                "min_entries": b.min_entries,
                "max_entries": b.max_entries,
                "places_paid": b.places_paid,
                "total_percent": percent_text(sum(b.shares)),
                "total_ok": sum(b.shares) == 1_000_000,
                "amounts": amounts,
            }
        )
    return {"valid": error is None, "error": error, "brackets": brackets}


def payout_structure_out(row: PayoutStructureRow) -> dict:
    return {
        "id": row.pk,
        "name": row.name,
        "template": row.template_key or None,
        "brackets": [
            {
                "min_entries": b["min_entries"],
                "max_entries": b.get("max_entries"),
                "shares": b["shares"],
                "percents": [percent_text(s) for s in b["shares"]],
            }
            for b in row.brackets
        ],
    }


def payout_structure_name(name: str) -> str:
    name = " ".join((name or "").split())
    if not name:
        raise InvalidInput("invalid_name", _("A payout structure needs a name."))
    return name[:120]


def payout_structure_validated(name: str, brackets: Sequence[dict]) -> PayoutStructure:
    structure = structure_from_payload(name, brackets)
    try:
        validate_structure(structure)
    except PayoutError as exc:
        raise payout_refusal(exc, structure) from exc
    return structure


def payout_structure_of(structure_id: int, *, lock: bool = False) -> PayoutStructureRow:
    """The payout structure `structure_id` (locked for update with `lock`), or 404
    `payout_structure_not_found`."""
    rows = (
        PayoutStructureRow.objects.select_for_update(no_key=True)
        if lock
        else PayoutStructureRow.objects
    )
    row = rows.filter(pk=structure_id).first()
    if row is None:
        raise NotFound(
            "payout_structure_not_found",
            _("There is no payout structure with id %(id)s.") % {"id": structure_id},
        )
    return row
