"""A bust-out's bounty (docs/rules.md §16.2): who won the pot, written on the bust-out."""

from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.bounties.selectors import bounty_of
from tourney.core.errors import Conflict, InvalidInput
from tourney.domain.bounties import (
    DEFAULT_CASH_PERCENT,
    Bounty,
    BountyError,
    bounty_data,
    odd_chip_order,
)
from tourney.events.log import event_append
from tourney.models import Elimination, Entry, Tournament


def _left_of_the_button(winners: list[int]) -> list[int]:
    """A pot's winners in the odd chip's order when they sit at one table with a button (as
    the seating chart shows them); else as given."""
    rows = list(
        Entry.objects.filter(pk__in=winners).values_list(
            "pk", "seat", "tournament_table_id", "tournament_table__button_seat",
            "tournament_table__seats",
        )
    )  # fmt: skip
    places = {(table, button, seats) for _pk, _seat, table, button, seats in rows}
    if len(rows) != len(set(winners)) or len(places) != 1:
        return winners
    ((_table, button, seats),) = places
    if not button or not seats or any(seat is None for _pk, seat, *_rest in rows):
        return winners
    seat_of = {pk: seat for pk, seat, *_rest in rows}
    return odd_chip_order(winners, seat_of, button, seats)


def knockouts_record(
    actor,
    tournament: Tournament,
    rows: Sequence[Elimination],
    busted_by: Mapping[int, Sequence[int]],
) -> None:
    """Name the winners of the pots that busted the players of `rows` (entry id -> winners'
    entry ids, the first seat left of the button first). Each winner is in play after the
    hand, once, never the busted player; refused (`not_a_bounty_tournament`) without a
    bounty."""
    named = {entry_id: list(winners) for entry_id, winners in busted_by.items() if winners}
    if not named:
        return
    if bounty_of(tournament) is None:
        raise Conflict(
            "not_a_bounty_tournament", _("This tournament has no bounties: name no winner.")
        )
    by_entry = {row.entry_id: row for row in rows}
    if set(named) - set(by_entry):
        raise InvalidInput("invalid_busted_by", _("Name the winners of this hand's bust-outs."))
    winners = {w for ws in named.values() for w in ws}
    playing = set(
        Entry.objects.filter(
            tournament=tournament, pk__in=winners, status=Entry.Status.ACTIVE
        ).values_list("pk", flat=True)
    )
    for entry_id, ws in named.items():
        named[entry_id] = ws = _left_of_the_button(ws)
        if len(set(ws)) != len(ws) or entry_id in ws:
            raise InvalidInput(
                "invalid_busted_by", _("Name each winner once, and never the busted player.")
            )
        if set(ws) - playing:
            raise InvalidInput(
                "winner_not_playing",
                _("A pot's winner must be a player still in this tournament."),
            )
        by_entry[entry_id].busted_by = ws
    Elimination.objects.bulk_update([by_entry[e] for e in named], ["busted_by"])
    winners_announced(actor, tournament, named)


def winners_announced(
    actor, tournament: Tournament, named: Mapping[int, list[int]], before: list[int] | None = None
) -> None:
    """The audit entry and the event of pot winners named (entry id -> winners; `before`, the
    winners a correction replaced): the event names the winners too, so that their own pages
    refetch at once (their bounty grew)."""
    audit_record(
        actor=actor,
        action="bounty.winners",
        summary=audit_text(
            gettext_noop("Bounty winners named for %(n)s bust-outs"), {"n": len(named)}
        ),
        tournament=tournament,
        target=tournament,
        before={"busted_by": before} if before else None,
        after={"busted_by": {str(e): ws for e, ws in named.items()}},
    )
    event_append(
        tournament,
        "bounty",
        {
            "knockouts": [
                {"entry_id": e, "busted_by": [{"entry_id": w} for w in ws]}
                for e, ws in named.items()
            ]
        },
    )


def bounty_checked(bounty: dict | None, buy_in: int) -> dict:
    """The bounty as `Tournament.bounty` stores it ({} for none), or 400: a known kind, at
    least 1 and at most the buy-in, a cash share of 0-100 (docs/rules.md §16.1)."""
    if not bounty:
        return {}
    try:
        if not isinstance(bounty, dict) or set(bounty) - {"kind", "amount", "cash_percent"}:
            raise TypeError("a bounty is an object of kind, amount and cash_percent")
        amount = bounty.get("amount", 0)
        percent = bounty.get("cash_percent", DEFAULT_CASH_PERCENT)
        if not all(type(n) is int for n in (amount, percent)):
            raise TypeError("whole numbers")
        checked = Bounty(kind=str(bounty.get("kind", "")), amount=amount, cash_percent=percent)
    except (BountyError, TypeError, ValueError) as exc:
        raise InvalidInput(
            "invalid_bounty",
            _("A bounty is a knockout or a progressive one of at least 1, its cash share 0-100."),
        ) from exc
    if checked.amount > buy_in:
        raise InvalidInput(
            "bounty_over_buy_in", _("The bounty is part of the buy-in: at most the buy-in.")
        )
    return bounty_data(checked)
