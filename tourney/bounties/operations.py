"""A bust-out's bounty (docs/rules.md §16.2): who won the pot, written on the bust-out."""

import random
from collections.abc import Mapping, Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.selectors import clock_view, structure_periods
from tourney.audit.log import audit_record, audit_text
from tourney.bounties.selectors import bounty_of, envelopes_drawn, envelopes_of
from tourney.core.errors import Conflict, InvalidInput
from tourney.domain.bounties import (
    DEFAULT_CASH_PERCENT,
    Bounty,
    BountyError,
    bounty_data,
    envelopes_from_template,
    envelopes_left,
    in_mystery_phase,
    odd_chip_order,
)
from tourney.events.log import event_append
from tourney.models import Elimination, Entry, Tournament
from tourney.tournaments.selectors import tournament_summary


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
    rng: random.Random | None = None,
) -> None:
    """Name the winners of the pots that busted the players of `rows` (entry id -> winners'
    entry ids, the first seat left of the button first). Each winner is in play after the
    hand, once, never the busted player; refused (`not_a_bounty_tournament`) without a
    bounty. A mystery bounty's bust-outs in its phase are marked, and each pot's winners draw
    an envelope (`rng`, §16.5)."""
    named = {entry_id: list(winners) for entry_id, winners in busted_by.items() if winners}
    bounty = bounty_of(tournament)
    if not named:
        if bounty is not None and bounty.kind == "mystery":
            mystery_knockouts(actor, tournament, bounty, rows, rng)
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
    if bounty is not None and bounty.kind == "mystery":
        mystery_knockouts(actor, tournament, bounty, rows, rng)


def levels_started(tournament: Tournament) -> int:
    """The blind levels begun on the clock (breaks not counted)."""
    periods = structure_periods(tournament.structure_id)
    index = clock_view(tournament)["period_index"]
    return sum(1 for p in periods[: index + 1] if p.kind == "level")


def mystery_knockouts(
    actor, tournament: Tournament, bounty: Bounty, rows: Sequence[Elimination], rng
) -> None:
    """A mystery bounty's bust-outs (§16.5): in its phase (by the players in play before the
    hand or the level), they are marked; the envelopes are fixed at the phase's first one (the
    director's, or the template's for the players then in play); each pot with its winners
    named draws one."""
    players_before = Entry.objects.filter(
        tournament=tournament, status=Entry.Status.ACTIVE
    ).count() + len(rows)
    if not in_mystery_phase(bounty, players_before, levels_started(tournament)):
        return
    for row in rows:
        row.bounty_phase = True
    Elimination.objects.bulk_update(list(rows), ["bounty_phase"])
    if not envelopes_of(tournament):
        envelopes_fix(actor, tournament, players_before)
    mystery_draw(actor, tournament, [r for r in rows if r.busted_by], rng)


def envelopes_fix(actor, tournament: Tournament, count: int, values: list[int] | None = None):
    """The envelopes of the phase, stored with the bounty: `values` (the director's), or
    `count` from the template summing to the bounty pool."""
    pool = tournament_summary(tournament).bounty_pool
    values = values if values is not None else envelopes_from_template(pool, count)
    tournament.bounty = {**tournament.bounty, "envelopes": values}
    tournament.save(update_fields=["bounty"])
    audit_record(
        actor=actor,
        action="bounty.envelopes",
        summary=audit_text(
            gettext_noop("%(n)s mystery bounty envelopes, %(total)s in all"),
            {"n": len(values), "total": sum(values)},
        ),
        tournament=tournament,
        target=tournament,
        after={"envelopes": values},
    )


def mystery_draw(actor, tournament: Tournament, rows: Sequence[Elimination], rng) -> None:
    """Each pot's winners draw one envelope at random from those left (a bust-out undone puts
    its envelope back); each draw audited and announced (the lobby TV shows it)."""
    rng = rng or random.SystemRandom()
    envelopes = envelopes_of(tournament)
    left = envelopes_left(envelopes, envelopes_drawn(tournament))
    for row in rows:
        if not left:
            return  # more knockouts than envelopes: the rest pay nothing (the house's count)
        row.envelope = left.pop(rng.randrange(len(left)))
        row.save(update_fields=["envelope"])
        value = envelopes[row.envelope]
        names = list(
            Entry.objects.filter(pk__in=row.busted_by).values_list("player__name", flat=True)
        )
        audit_record(
            actor=actor,
            action="bounty.mystery_draw",
            summary=audit_text(
                gettext_noop("%(names)s drew a mystery bounty of %(value)s"),
                {"names": ", ".join(names), "value": value},
            ),
            tournament=tournament,
            target=row,
            after={"envelope": row.envelope, "value": value, "busted_by": row.busted_by},
        )
        event_append(
            tournament,
            "bounty",
            {
                "mystery": {
                    "entry_id": row.entry_id,
                    "winners": [{"entry_id": w} for w in row.busted_by],
                    "names": names,
                    "value": value,
                    "left": len(left),
                }
            },
        )


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


BOUNTY_KEYS = {"kind", "amount", "cash_percent", "phase_level", "phase_players"}


def bounty_checked(bounty: dict | None, buy_in: int) -> dict:
    """The bounty as `Tournament.bounty` stores it ({} for none), or 400: a known kind, at
    least 1 and at most the buy-in, a cash share of 0-100 (docs/rules.md §16.1)."""
    if not bounty:
        return {}
    try:
        if not isinstance(bounty, dict) or set(bounty) - BOUNTY_KEYS:
            raise TypeError("a bounty is an object of kind, amount, cash_percent and the phase")
        amount = bounty.get("amount", 0)
        percent = bounty.get("cash_percent", DEFAULT_CASH_PERCENT)
        phase = (bounty.get("phase_level"), bounty.get("phase_players"))
        if not all(type(n) is int for n in (amount, percent)) or any(
            n is not None and type(n) is not int for n in phase
        ):
            raise TypeError("whole numbers")
        checked = Bounty(
            kind=str(bounty.get("kind", "")),
            amount=amount,
            cash_percent=percent,
            phase_level=phase[0],
            phase_players=phase[1],
        )
    except (BountyError, TypeError, ValueError) as exc:
        raise InvalidInput(
            "invalid_bounty",
            _(
                "A bounty is a knockout, a progressive or a mystery one of at least 1, its cash "
                "share 0-100, a mystery one's phase from level or players 1 or more."
            ),
        ) from exc
    if checked.amount > buy_in:
        raise InvalidInput(
            "bounty_over_buy_in", _("The bounty is part of the buy-in: at most the buy-in.")
        )
    return bounty_data(checked)
