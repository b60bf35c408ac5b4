"""A ticket's changes at the cage (docs/rules.md §17.4): transferred to another event of the
same value, cashed out (the cage pays its value, in the satellite's ledger), and the last of
these taken back. Each audited; the undo reads what the audit kept."""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict, InvalidInput
from tourney.domain.receipts import REFUND
from tourney.models import AuditEntry, LedgerEntry, Ticket, Tournament
from tourney.tickets.operations import ticket_locked
from tourney.tickets.selectors import ticket_out

OPEN = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
CASH_METHODS = (LedgerEntry.Method.CASH, LedgerEntry.Method.CARD, LedgerEntry.Method.OTHER)


def _user(actor):
    return actor if actor is not None and actor.is_authenticated else None


def _active(ticket: Ticket) -> None:
    if ticket.status != Ticket.Status.ACTIVE:
        raise Conflict(
            "ticket_not_active",
            _("This ticket is %(status)s.") % {"status": ticket.get_status_display().lower()},
        )


def _changed(ticket: Ticket, actor, action: str, summary, before: dict) -> dict:
    ticket.changed_at, ticket.changed_by = timezone.now(), _user(actor)
    ticket.save()
    after = ticket_out(ticket)
    audit_record(
        actor=actor,
        action=action,
        summary=summary,
        tournament=ticket.source,
        target=ticket,
        before=before,
        after=after,
    )
    return after


@transaction.atomic(durable=True)
def ticket_transfer(*, actor, ticket_id: int, target_id: int) -> dict:
    """The ticket enters another event instead, one open for registration whose entry costs
    what the ticket is worth."""
    ticket = ticket_locked(ticket_id)
    _active(ticket)
    target = Tournament.objects.filter(pk=target_id).first()
    if target is None or target.pk == ticket.target_id or target.status not in OPEN:
        raise InvalidInput("invalid_target", _("Transfer to another event that is open."))
    if target.entry_price != ticket.value:
        raise Conflict(
            "ticket_value_differs",
            _("The ticket is worth %(value)s; %(name)s costs %(price)s.")
            % {"value": ticket.value, "name": target.name, "price": target.entry_price},
        )
    before = ticket_out(ticket)
    ticket.target = target
    summary = audit_text(
        gettext_noop("Ticket of %(name)s transferred from %(old)s to %(new)s"),
        {"name": ticket.player.name, "old": before["target_name"], "new": target.name},
    )
    return _changed(ticket, actor, "ticket.transfer", summary, before)


@transaction.atomic(durable=True)
def ticket_cash_out(*, actor, ticket_id: int, method: str = LedgerEntry.Method.CASH) -> dict:
    """The cage pays the ticket's value instead (a prize payment in the satellite's ledger)."""
    if method not in CASH_METHODS:
        raise InvalidInput("invalid_method", _("Payment is cash, card or other."))
    ticket = ticket_locked(ticket_id)
    _active(ticket)
    before = ticket_out(ticket)
    ticket.status = Ticket.Status.CASHED_OUT
    LedgerEntry.objects.create(
        tournament_id=ticket.source_id,
        entry_id=ticket.source_entry_id,
        kind=LedgerEntry.Kind.PAYOUT,
        purpose=LedgerEntry.Purpose.PRIZE,
        amount=-ticket.value,
        method=method,
        cashier=_user(actor),
        at=timezone.now(),
        receipt_number=f"T{ticket.pk}",
    )
    summary = audit_text(
        gettext_noop("Ticket of %(name)s cashed out: %(value)s paid"),
        {"name": ticket.player.name, "value": ticket.value},
    )
    return _changed(ticket, actor, "ticket.cash_out", summary, before)


@transaction.atomic(durable=True)
def ticket_change_undo(*, actor, ticket_id: int) -> dict:
    """Take back the ticket's last transfer or cash-out (refused when it has been used since,
    or there is none)."""
    ticket = ticket_locked(ticket_id)
    last = (
        AuditEntry.objects.filter(target_type="ticket", target_id=ticket.pk)
        .filter(action__in=("ticket.transfer", "ticket.cash_out", "ticket.undo"))
        .order_by("-at", "-id")
        .first()
    )
    if last is None or ticket.status not in (Ticket.Status.ACTIVE, Ticket.Status.CASHED_OUT):
        raise Conflict("nothing_to_undo", _("This ticket has no change to take back."))
    before = ticket_out(ticket)
    if last.action == "ticket.cash_out" and ticket.status == Ticket.Status.CASHED_OUT:
        LedgerEntry.objects.create(
            tournament_id=ticket.source_id,
            entry_id=ticket.source_entry_id,
            kind=LedgerEntry.Kind.PAYOUT,
            purpose=LedgerEntry.Purpose.PRIZE,
            amount=ticket.value,
            method=LedgerEntry.Method.CASH,
            cashier=_user(actor),
            at=timezone.now(),
            receipt_number=f"T{ticket.pk}{REFUND}",
        )
        ticket.status = Ticket.Status.ACTIVE
    elif last.action == "ticket.transfer" and ticket.status == Ticket.Status.ACTIVE:
        ticket.target_id = last.before["target_id"]
    else:
        raise Conflict("nothing_to_undo", _("This ticket has no change to take back."))
    summary = audit_text(
        gettext_noop("Ticket change of %(name)s undone"), {"name": ticket.player.name}
    )
    return _changed(ticket, actor, "ticket.undo", summary, before)
