"""Payouts, results and prizes paid at the cage (docs/rules.md §12).

The payouts are never stored: they are computed from the prize pool and the entries of
`tournament_summary` (so they follow every entry, rebuy and add-on at once), the tournament's
payout structure (the default template when none is chosen) and the house's `money_rounding`.
The results are computed the same way from the standing eliminations, the winner, the deal in
force and the disqualifications (`tourney.domain.results`). What is stored is what happened:
the structure chosen, a deal (`tourney.deals.usecases`) and each prize paid (a `payout` ledger
row, negative, purpose `prize`, once per entry): the use cases here, the reads in `selectors`.
Changing a payout structure that tournaments pay by is here too (`payout_structure_update`):
their payouts change with it.
"""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.cage.selectors import prizes_paid
from tourney.core.errors import Conflict, InvalidInput
from tourney.core.locks import tournament_lock
from tourney.domain.receipts import PRIZE, receipt_number, repeat_tail
from tourney.events.log import event_append
from tourney.models import Deal, LedgerEntry, Tournament
from tourney.models import PayoutStructure as PayoutStructureRow
from tourney.payouts.operations import payouts_changed
from tourney.payouts.selectors import (
    brackets_json,
    payout_amounts,
    payout_structure_name,
    payout_structure_of,
    payout_structure_out,
    payout_structure_paid_by,
    payout_structure_validated,
    tournament_results,
)
from tourney.tournaments.selectors import finisher_of

LIVE = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)


# --- payouts ---------------------------------------------------------------------------------


def tournaments_lock_using(structure_id: int) -> list[Tournament]:
    """Lock the live tournaments paying by a structure, in id order (the one lock order)."""
    return list(
        Tournament.objects.select_for_update(no_key=True)
        .filter(payout_structure_id=structure_id, status__in=LIVE)
        .order_by("pk")
    )


def _prizes_paid(tournament: Tournament) -> bool:
    return prizes_paid(tournament=tournament).exists()


def tournament_payout_structure_set(
    *, actor, tournament_id: int, payout_structure_id: int | None
) -> Tournament:
    """Choose the tournament's payout structure (None: the default template). Refused once a
    prize has been paid (`prizes_paid`) or while a deal stands (`deal_in_force`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        structure = (
            None if payout_structure_id is None else payout_structure_of(payout_structure_id)
        )
        if _prizes_paid(tournament):
            raise Conflict(
                "prizes_paid", _("Prizes have been paid: the payout structure cannot change now.")
            )
        if Deal.objects.filter(tournament=tournament, undone_at__isnull=True).exists():
            raise Conflict("deal_in_force", _("A deal was made on these payouts: undo it first."))
        before = tournament.payout_structure_id
        tournament.payout_structure = structure
        payout_amounts(tournament)  # refused if it has no table for the entries now
        tournament.save(update_fields=["payout_structure"])
        audit_record(
            actor=actor,
            action="tournament.payout_structure",
            summary=audit_text(
                gettext_noop("Payout structure set to %(name)s"),
                {"name": structure.name if structure else "default"},
            ),
            tournament=tournament,
            target=tournament,
            before={"payout_structure_id": before},
            after={"payout_structure_id": payout_structure_id},
        )
        payouts_changed(tournament, "structure")
        return tournament


# --- paying a prize --------------------------------------------------------------------------


def prize_pay(*, actor, tournament_id: int, entry_id: int, method: str = "cash") -> LedgerEntry:
    """Pay a finished player's prize at the cage, with the bounties he won (docs/rules.md
    §16.4): a `payout` ledger row each (negative amounts, purposes `prize` and `bounty`) under
    one receipt number, once per entry; returns the first. Refused: not finished
    (`not_finished`), nothing won (`no_prize`), forfeited by a disqualification
    (`prize_forfeited`), paid (`already_paid`)."""
    if method not in LedgerEntry.Method.values or method == LedgerEntry.Method.TICKET:
        raise InvalidInput("invalid_method", _("Payment is cash, card or other."))
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        entry = finisher_of(tournament, entry_id)
        row = _payable(tournament, entry)
        number = receipt_number(
            tournament.pk,
            entry.number,
            repeat_tail(
                PRIZE,
                LedgerEntry.objects.filter(
                    entry=entry, kind=LedgerEntry.Kind.PAYOUT, amount__lt=0
                ).count(),
            ),
        )
        parts = [(LedgerEntry.Purpose.PRIZE, row["prize"])]
        parts.append((LedgerEntry.Purpose.BOUNTY, row.get("bounties", 0)))
        payments = LedgerEntry.objects.bulk_create(
            LedgerEntry(
                tournament=tournament,
                entry=entry,
                kind=LedgerEntry.Kind.PAYOUT,
                purpose=purpose,
                amount=-amount,
                method=method,
                cashier=actor if actor is not None and actor.is_authenticated else None,
                at=timezone.now(),
                receipt_number=number,
            )
            for purpose, amount in parts
            if amount > 0
        )
        total = sum(amount for _purpose, amount in parts if amount > 0)
        audit_record(
            actor=actor,
            action="prize.pay",
            summary=audit_text(
                gettext_noop("Prize paid to %(name)s for place %(place)s: %(amount)s"),
                {"name": entry.player.name, "place": row["place"], "amount": total},
            ),
            tournament=tournament,
            target=payments[0],
            after={
                "entry_id": entry.pk,
                "amount": total,
                "prize": row["prize"],
                "bounties": row.get("bounties", 0),
                "method": method,
                "receipt_number": number,
            },
        )
        event_append(
            tournament, "payouts", {"reason": "paid", "entry_id": entry.pk, "amount": total}
        )
        return payments[0]


def _payable(tournament, entry) -> dict:
    """The entry's results row, refused unless something is owed to him."""
    row = next((r for r in tournament_results(tournament).rows if r["entry_id"] == entry.pk), None)
    if row is None:
        raise Conflict(
            "not_finished",
            _("%(name)s has not finished yet: prizes are paid by the final place.")
            % {"name": entry.player.name},
        )
    if prizes_paid(entry=entry).exists():
        raise Conflict(
            "already_paid",
            _("The prize of %(name)s has been paid already.") % {"name": entry.player.name},
        )
    bounties = row.get("bounties", 0)
    if row["forfeited"] and not row["prize"] and not bounties:
        raise Conflict(
            "prize_forfeited",
            _("%(name)s was disqualified: the prize is forfeited.") % {"name": entry.player.name},
        )
    if row["prize"] + bounties <= 0:
        raise Conflict("no_prize", _("Place %(place)s wins no prize.") % {"place": row["place"]})
    return row


@transaction.atomic(durable=True)
def payout_structure_update(
    *, actor, structure_id: int, name: str, brackets: Sequence[dict]
) -> PayoutStructureRow:
    """Replace a structure's name and tables; tournaments using it pay by the new tables from
    now on. Templates are refused (`payout_structure_is_template`), and so is a structure a
    tournament has paid by (`payout_structure_in_use`: finished, a prize paid, a deal)."""
    # Tournament rows first (the one lock order): their payouts change with the structure.
    tournaments = tournaments_lock_using(structure_id)
    row = payout_structure_of(structure_id, lock=True)
    if row.template_key:
        raise Conflict(
            "payout_structure_is_template",
            _("Built-in templates are read-only: duplicate it to change it."),
        )
    if payout_structure_paid_by(structure_id):
        raise Conflict(
            "payout_structure_in_use",
            _(
                "A tournament has finished, paid a prize or made a deal by this structure: "
                "duplicate it to change it."
            ),
        )
    name = payout_structure_name(name)
    structure = payout_structure_validated(name, brackets)
    before = payout_structure_out(row)
    row.name = name
    row.brackets = brackets_json(structure)
    row.save(update_fields=["name", "brackets"])
    audit_record(
        actor=actor,
        action="payout_structure.update",
        summary=audit_text(gettext_noop("Changed payout structure %(name)s"), {"name": name}),
        target=row,
        before=before,
        after=payout_structure_out(row),
    )
    for tournament in tournaments:
        payouts_changed(tournament, "structure")
    return row


@transaction.atomic(durable=True)
def payout_structure_create(*, actor, name: str, brackets: Sequence[dict]) -> PayoutStructureRow:
    name = payout_structure_name(name)
    structure = payout_structure_validated(name, brackets)
    row = PayoutStructureRow.objects.create(name=name, brackets=brackets_json(structure))
    audit_record(
        actor=actor,
        action="payout_structure.create",
        summary=audit_text(gettext_noop("Created payout structure %(name)s"), {"name": name}),
        target=row,
        after=payout_structure_out(row),
    )
    return row


@transaction.atomic(durable=True)
def payout_structure_duplicate(*, actor, structure_id: int) -> PayoutStructureRow:
    source = payout_structure_of(structure_id, lock=True)
    name = (_("Copy of %(name)s") % {"name": _(source.name)})[:120]
    row = PayoutStructureRow.objects.create(name=name, brackets=source.brackets)
    audit_record(
        actor=actor,
        action="payout_structure.create",
        summary=audit_text(
            gettext_noop("Copied payout structure %(source)s as %(name)s"),
            {"source": source.name, "name": name},
        ),
        target=row,
        after=payout_structure_out(row),
    )
    return row
