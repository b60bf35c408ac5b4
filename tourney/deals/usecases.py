"""Deal-making at the final table (docs/rules.md §12.5): the calculators' quote (nothing saved), the
deal agreed (a `Deal` whose amounts become the prizes of its players, whatever place they then
finish) and its undo.

Every player still in must be in the deal, each with a stack of at least 1 chip; the deal
shares what places 1..n pay (n = players left), less an amount left to play for that goes to
the winner. Amounts typed by hand must add up to the same total.
"""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.cage.selectors import prizes_paid
from tourney.core.errors import Conflict, InvalidInput, NotFound, refusal
from tourney.core.locks import tournament_lock
from tourney.domain.deals import DealError, DealQuote, agreed_amounts_check, deal_quote
from tourney.events.log import event_append
from tourney.models import Deal, Entry, Tournament
from tourney.payouts.selectors import deal_in_force, payout_amounts
from tourney.tournaments.selectors import tournament_rules, tournament_summary

MESSAGES = [
    gettext_noop("A deal needs at least two players left."),
    gettext_noop("The amount left to play for must be between 0 and the 1st prize (%(first)s)."),
    gettext_noop("Choose the chip chop or ICM."),
    gettext_noop("Every player in the deal needs at least 1 chip."),
    gettext_noop("An amount in the deal cannot be negative."),
    gettext_noop("The amounts add up to %(total)s, but the deal shares %(pool)s."),
]


def players_left(tournament: Tournament) -> list[Entry]:
    """The entries still playing, by table and seat (the order the calculator lists them)."""
    return list(
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE)
        .select_related("player", "tournament_table")
        .order_by("tournament_table__number", "seat", "number")
    )


def _check_players(tournament: Tournament, stacks: Sequence[tuple[int, int]]) -> list[Entry]:
    """The players left in the order of `stacks`; refused unless they are exactly the players
    left (`deal_players`), once each, with a stack of at least 1 chip (`bad_stack`)."""
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict("tournament_not_running", _("A deal is made while the tournament runs."))
    left = {e.pk: e for e in players_left(tournament)}
    ids = [entry_id for entry_id, _stack in stacks]
    if len(set(ids)) != len(ids):
        raise InvalidInput("duplicate_entry", _("A player appears twice in the deal."))
    missing = [left[i].player.name for i in left if i not in set(ids)]
    extra = [str(i) for i in ids if i not in left]
    if missing or extra:
        raise InvalidInput(
            "deal_players",
            _(
                "The deal must list exactly the players left (missing: %(missing)s; not playing: "
                "%(extra)s)."
            )
            % {"missing": ", ".join(missing) or "—", "extra": ", ".join(extra) or "—"},
        )
    bad = [left[i].player.name for i, stack in stacks if stack < 1]
    if bad:
        raise InvalidInput(
            "bad_stack",
            _("Every player in the deal needs at least 1 chip (%(names)s).")
            % {"names": ", ".join(bad)},
        )
    return [left[i] for i in ids]


def _quote(
    tournament: Tournament, method: str, stacks: Sequence[tuple[int, int]], left_to_play: int
) -> tuple[list[Entry], DealQuote]:
    entries = _check_players(tournament, stacks)
    try:
        quote = deal_quote(
            method,
            [stack for _e, stack in stacks],
            payout_amounts(tournament),
            left_to_play=left_to_play,
            unit=tournament_rules(tournament).money_rounding,
        )
    except DealError as exc:
        raise refusal(exc, InvalidInput) from exc
    return entries, quote


def _agreed(quote: DealQuote, amounts: Sequence[int] | None) -> tuple[int, ...]:
    if amounts is None:
        return quote.amounts
    try:
        agreed_amounts_check(list(amounts), quote.pool)
    except DealError as exc:
        raise refusal(exc, InvalidInput) from exc
    return tuple(amounts)


def _amounts_in_order(
    stacks: Sequence[tuple[int, int]], amounts: Sequence[tuple[int, int]] | None
) -> list[int] | None:
    if amounts is None:
        return None
    by_entry = dict(amounts)
    if set(by_entry) != {e for e, _s in stacks} or len(by_entry) != len(amounts):
        raise InvalidInput("deal_players", _("Give one amount for each player in the deal."))
    return [by_entry[e] for e, _s in stacks]


def _quote_out(tournament, entries, stacks, quote: DealQuote, agreed) -> dict:
    summary = tournament_summary(tournament)
    counted = sum(s for _e, s in stacks)
    warnings = []
    if counted != summary.total_chips:
        warnings.append(
            _("The stacks add up to %(counted)s chips; %(in_play)s are in play.")
            % {"counted": f"{counted:,}", "in_play": f"{summary.total_chips:,}"}
        )
    return {
        "method": quote.method if tuple(agreed) == quote.amounts else "custom",
        "calculator": quote.method,
        "pool": quote.pool,
        "left_to_play": quote.left_to_play,
        "prizes": list(quote.prizes),
        "exact": quote.exact,
        "max_error": round(quote.max_error, 2),
        "chips_counted": counted,
        "chips_in_play": summary.total_chips,
        "warnings": warnings,
        "shares": [
            {
                "entry_id": entry.pk,
                "player_name": entry.player.name,
                "stack": stack,
                "equity": round(equity, 2),
                "computed": computed,
                "amount": amount,
            }
            for entry, (_id, stack), equity, computed, amount in zip(
                entries, stacks, quote.equities, quote.amounts, agreed, strict=True
            )
        ],
    }


def deal_preview(
    *,
    tournament: Tournament,
    method: str,
    stacks: Sequence[tuple[int, int]],
    left_to_play: int = 0,
    amounts: Sequence[tuple[int, int]] | None = None,
) -> dict:
    """What each player gets by the calculator (and by the amounts typed, when given, checked
    to add up); nothing is saved."""
    entries, quote = _quote(tournament, method, stacks, left_to_play)
    agreed = _agreed(quote, _amounts_in_order(stacks, amounts))
    return _quote_out(tournament, entries, stacks, quote, agreed)


def deal_out(deal: Deal) -> dict:
    return {
        "id": deal.pk,
        "method": deal.method,
        "left_to_play": deal.left_to_play,
        "shares": deal.shares,
        "pool": sum(s["amount"] for s in deal.shares) + deal.left_to_play,
        "at_ms": int(deal.at.timestamp() * 1000),
        "undone": deal.undone_at is not None,
    }


def deal_make(
    *,
    actor,
    tournament_id: int,
    method: str,
    stacks: Sequence[tuple[int, int]],
    left_to_play: int = 0,
    amounts: Sequence[tuple[int, int]] | None = None,
) -> Deal:
    """Confirm a deal: its amounts replace the prizes of the players left. Refused while
    another deal stands (`deal_exists`) and for what the preview refuses."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        if deal_in_force(tournament) is not None:
            raise Conflict("deal_exists", _("A deal has been made already: undo it first."))
        entries, quote = _quote(tournament, method, stacks, left_to_play)
        agreed = _agreed(quote, _amounts_in_order(stacks, amounts))
        out = _quote_out(tournament, entries, stacks, quote, agreed)
        deal = Deal.objects.create(
            tournament=tournament,
            method=out["method"],
            shares=[
                {
                    "entry_id": s["entry_id"],
                    "player_name": s["player_name"],
                    "stack": s["stack"],
                    "amount": s["amount"],
                }
                for s in out["shares"]
            ],
            left_to_play=left_to_play,
            at=timezone.now(),
            by=actor if actor is not None and actor.is_authenticated else None,
        )
        audit_record(
            actor=actor,
            action="deal.make",
            summary=audit_text(
                gettext_noop("Deal made by %(n)s players (%(method)s): %(amounts)s"),
                {
                    "n": len(entries),
                    "method": deal.method,
                    "amounts": ", ".join(f"{s['player_name']} {s['amount']}" for s in deal.shares),
                },
            ),
            tournament=tournament,
            target=deal,
            after=deal_out(deal),
        )
        event_append(tournament, "payouts", {"reason": "deal", "deal": deal_out(deal)})
        return deal


def deal_undo(*, actor, tournament_id: int, deal_id: int) -> Deal:
    """Take a deal back: the payouts by place apply again. Refused once a prize of the deal
    has been paid (`prizes_paid`) or when it is undone already (`deal_undone`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        deal = Deal.objects.filter(tournament=tournament, pk=deal_id).first()
        if deal is None:
            raise NotFound("deal_not_found", _("There is no such deal."))
        if deal.undone_at is not None:
            raise Conflict("deal_undone", _("This deal has been undone already."))
        if prizes_paid(entry_id__in=[s["entry_id"] for s in deal.shares]).exists():
            raise Conflict(
                "prizes_paid", _("A prize of this deal has been paid: it cannot be undone.")
            )
        before = deal_out(deal)
        deal.undone_at = timezone.now()
        deal.save(update_fields=["undone_at"])
        audit_record(
            actor=actor,
            action="deal.undo",
            summary=audit_text(gettext_noop("Deal undone: prizes by place again"), {}),
            tournament=tournament,
            target=deal,
            before=before,
            after=deal_out(deal),
        )
        event_append(tournament, "payouts", {"reason": "deal_undo", "deal": deal_out(deal)})
        return deal
