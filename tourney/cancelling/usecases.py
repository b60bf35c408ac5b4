"""Cancelling an event, taking the cancellation back, and paying each entry its settlement
at the cage (docs/rules.md §18). Director only (the faces check the role)."""

from django.db import transaction
from django.db.models import Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.clock.operations import clock_restart_after_undo, clock_stop_at_finish
from tourney.audit.log import audit_record, audit_text
from tourney.cage.operations import ledger_price_write
from tourney.cancelling.selectors import (
    SETTLED,
    cancel_plan,
    owed_of,
    settled_entries,
    settlement_rows,
    standing_cancellation,
)
from tourney.core.errors import Conflict, InvalidInput, refusal
from tourney.core.locks import tournament_lock
from tourney.domain.cancelling import CancelError, Settlement, settlement_of
from tourney.domain.receipts import receipt_number, repeat_tail
from tourney.events.log import event_append
from tourney.models import Cancellation, Entry, LedgerEntry, Tournament
from tourney.payouts.selectors import deal_in_force
from tourney.tickets.operations import ticket_given_back, ticket_taken_again
from tourney.tournaments.selectors import tournament_not_over, tournament_rules

REASON_MAX_LENGTH = 300
UNDONE = "U"


def _user(actor):
    return actor if actor is not None and actor.is_authenticated else None


def _reason_checked(reason: str) -> str:
    reason = " ".join((reason or "").split())
    if not reason or "\x00" in reason:
        raise InvalidInput("invalid_reason", _("Say why the event is cancelled."))
    if len(reason) > REASON_MAX_LENGTH:
        raise InvalidInput(
            "invalid_reason",
            _("The reason is at most %(n)s characters.") % {"n": REASON_MAX_LENGTH},
        )
    return reason


def _settlement_checked(tournament: Tournament, asked: str | None) -> Settlement:
    started = tournament.started_at is not None or tournament.status == Tournament.Status.RUNNING
    if started and (tournament.is_main_event or tournament.main_event_id is not None):
        raise Conflict(
            "festival_event",
            _("A festival's flight or main event cannot be cancelled once it has started."),
        )
    try:
        settlement = settlement_of(started, tournament_rules(tournament).cancel_settlement, asked)
    except CancelError as exc:
        raise refusal(exc, InvalidInput) from exc
    if started and deal_in_force(tournament) is not None:
        raise Conflict("deal_in_force", _("A deal stands: undo it before cancelling."))
    paid_out = LedgerEntry.objects.filter(tournament=tournament, kind=LedgerEntry.Kind.PAYOUT)
    if settlement == "refund" and paid_out.exists():
        raise Conflict(
            "prizes_paid",
            _("Prizes have been paid: refunds are no longer possible; share the prizes left."),
        )
    return settlement


def tournament_cancel(
    *, actor, tournament_id: int, reason: str, settlement: str | None = None
) -> Tournament:
    """Cancel the event: the clock stops, play ends, every screen says so and why; what each
    entry gets back follows from the settlement (`cancel_plan`). Refused once over
    (`tournament_over`), a flight or main event after its start (`festival_event`), a deal
    standing (`deal_in_force`), refunds after a prize was paid (`prizes_paid`), stacks not
    counted for `chip_count` (`chips_not_counted`)."""
    reason = _reason_checked(reason)
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        tournament_not_over(tournament)
        chosen = _settlement_checked(tournament, settlement)
        plan = cancel_plan(tournament, chosen)  # refuses what cannot be worked out
        now = timezone.now()
        before = tournament.status
        Cancellation.objects.create(
            tournament=tournament,
            reason=reason,
            settlement=chosen,
            status_before=before,
            at=now,
            by=_user(actor),
        )
        tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, now
        tournament.save(update_fields=["status", "finished_at"])
        clock_stop_at_finish(actor=actor, tournament=tournament)
        owed = sum(o.total for o in plan)
        audit_record(
            actor=actor,
            action="tournament.cancel",
            summary=audit_text(
                gettext_noop("%(tournament)s cancelled: %(reason)s"),
                {"tournament": tournament.name, "reason": reason},
            ),
            tournament=tournament,
            target=tournament,
            before={"status": before},
            after={"status": tournament.status, "settlement": chosen, "owed": owed},
        )
        event_append(
            tournament,
            "tournament",
            {"status": tournament.status, "reason": reason, "settlement": chosen},
        )
    return tournament


def tournament_cancel_undo(*, actor, tournament_id: int) -> Tournament:
    """Take a cancellation made by mistake back, until the cage has paid the first entry its
    settlement (`settlement_paid`): the event is as it was, its clock as if it had never
    stopped. Refused when not cancelled (`not_cancelled`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        cancellation = standing_cancellation(tournament)
        if tournament.status != Tournament.Status.CANCELLED or cancellation is None:
            raise Conflict("not_cancelled", _("This event is not cancelled."))
        if settled_entries(tournament):
            raise Conflict(
                "settlement_paid",
                _("The cage has paid refunds already: the cancellation stands."),
            )
        now = timezone.now()
        cancellation.undone_at = now
        cancellation.save(update_fields=["undone_at"])
        tournament.status = cancellation.status_before
        tournament.finished_at = None
        tournament.save(update_fields=["status", "finished_at"])
        clock_restart_after_undo(actor=actor, tournament=tournament)
        audit_record(
            actor=actor,
            action="tournament.cancel_undo",
            summary=audit_text(
                gettext_noop("Cancellation of %(tournament)s undone"),
                {"tournament": tournament.name},
            ),
            tournament=tournament,
            target=tournament,
            before={"status": Tournament.Status.CANCELLED},
            after={"status": tournament.status},
        )
        event_append(tournament, "tournament", {"status": tournament.status})
    return tournament


def cancel_settlement_pay(
    *, actor, tournament_id: int, entry_id: int, method: str = LedgerEntry.Method.CASH
) -> LedgerEntry | None:
    """The cage pays one entry of a cancelled event what it gets back, under one receipt
    (`<entry's number>C`): each payment refunded by the way it was paid (a ticket goes back
    to its holder), a share of the prizes by `method`. Refused: not cancelled
    (`not_cancelled`), nothing owed (`nothing_owed`), already paid (`already_paid`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        cancellation = standing_cancellation(tournament)
        if tournament.status != Tournament.Status.CANCELLED or cancellation is None:
            raise Conflict("not_cancelled", _("This event is not cancelled."))
        owed = owed_of(tournament, cancellation.settlement, entry_id)
        if owed is None:
            raise Conflict("nothing_owed", _("This entry gets nothing back."))
        if owed.paid:
            raise Conflict("already_paid", _("This entry has been paid already."))
        entry = Entry.objects.select_related("player").get(pk=entry_id)
        now, cashier = timezone.now(), _user(actor)
        times = settlement_rows(tournament, entry=entry, amount__lt=0)
        tail = repeat_tail(SETTLED, times.values("receipt_number").distinct().count())
        receipt = receipt_number(tournament.pk, entry.number, tail)
        for (purpose, paid_by), prices in owed.refunds.items():
            if paid_by == LedgerEntry.Method.TICKET:
                ticket_given_back(entry, actor, now)
            ledger_price_write(
                tournament_id=tournament.pk,
                entry_id=entry.pk,
                prices=prices,
                sign=-1,
                method=paid_by,
                cashier=cashier,
                at=now,
                receipt=receipt,
                purpose=purpose,
            )
        if owed.share:
            LedgerEntry.objects.create(
                tournament=tournament,
                entry=entry,
                kind=LedgerEntry.Kind.PAYOUT,
                purpose=LedgerEntry.Purpose.PRIZE,
                amount=-owed.share,
                method=method,
                cashier=cashier,
                at=now,
                receipt_number=receipt,
            )
        audit_record(
            actor=actor,
            action="tournament.cancel_pay",
            summary=audit_text(
                gettext_noop("%(name)s paid back %(amount)s: %(tournament)s cancelled"),
                {"name": entry.player.name, "amount": owed.total, "tournament": tournament.name},
            ),
            tournament=tournament,
            target=entry,
            before={"paid": 0},
            after={"paid": owed.total, "receipt_number": receipt},
        )
        event_append(tournament, "payouts", {"reason": "cancel_paid", "entry_id": entry.pk})
        return LedgerEntry.objects.filter(receipt_number=receipt).order_by("amount").first()


def cancel_settlement_pay_undo(*, actor, tournament_id: int, entry_id: int) -> None:
    """A settlement paid to the wrong entry, taken back: what it paid comes back to the cage
    under its receipt + `U`, a ticket given back pays the entry again. Refused when not paid
    (`not_paid`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        if entry_id not in settled_entries(tournament):
            raise Conflict("not_paid", _("This entry's settlement has not been paid."))
        entry = Entry.objects.select_related("player").get(pk=entry_id)
        rows = settlement_rows(tournament, entry=entry)
        receipt = rows.filter(amount__lt=0).order_by("-at", "-id").first().receipt_number
        net = rows.values("kind", "purpose", "method").annotate(total=Sum("amount")).order_by()
        now = timezone.now()
        if any(r["method"] == LedgerEntry.Method.TICKET and r["total"] for r in net):
            ticket_taken_again(entry, actor, now)
        LedgerEntry.objects.bulk_create(
            LedgerEntry(
                tournament=tournament,
                entry=entry,
                kind=r["kind"],
                purpose=r["purpose"],
                amount=-r["total"],
                method=r["method"],
                cashier=_user(actor),
                at=now,
                receipt_number=receipt + UNDONE,
            )
            for r in net
            if r["total"]
        )
        audit_record(
            actor=actor,
            action="tournament.cancel_pay_undo",
            summary=audit_text(
                gettext_noop("Payment back to %(name)s undone"), {"name": entry.player.name}
            ),
            tournament=tournament,
            target=entry,
            before={"receipt_number": receipt},
            after={"receipt_number": receipt + UNDONE},
        )
        event_append(tournament, "payouts", {"reason": "cancel_pay_undone", "entry_id": entry.pk})
