"""Taking back money moves made by mistake at the cage: a refund of an entry, a prize paid.

Nothing is edited or deleted: each undo writes its own compensating ledger rows under a receipt
number of its own (the refund's number + `U`; the prize's number + `R`), an audit entry and an
event, like every other write.
"""

import random

from django.db import transaction
from django.db.models import Count, Q, Sum
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.floor.follow import floor_follow
from tables.seating.operations import entry_seat_late, held_seats
from tourney.audit.log import audit_record, audit_text
from tourney.cage.selectors import prizes_paid
from tourney.core.errors import Conflict
from tourney.core.locks import tournament_lock
from tourney.domain.receipts import REFUND, receipt_number
from tourney.events.log import event_append
from tourney.models import AuditEntry, Entry, LedgerEntry, Tournament
from tourney.registration.operations import entry_payment, entry_record, places_shift
from tourney.registration.selectors import OPEN_FOR_REGISTRATION, refunds_of
from tourney.tickets.operations import ticket_taken_again
from tourney.tournaments.selectors import (
    entry_of,
    finisher_of,
    tournament_capacity,
    tournament_rules,
)

UNDONE = "U"


def _user(actor):
    return actor if actor is not None and actor.is_authenticated else None


def _seat_again(tournament: Tournament, entry: Entry, before: dict, rng, now) -> None:
    """The seat the entry had before its refund when it is still free, else a late seat."""
    table = (
        tournament.tournament_tables.filter(number=before.get("table"), status="open").first()
        if before.get("table")
        else None
    )
    free = (
        table is not None
        and before.get("seat")
        and not Entry.objects.filter(
            seat_row__tournament_table=table, seat=before["seat"], status=Entry.Status.ACTIVE
        ).exists()
        and before["seat"] not in held_seats(tournament).get(table.number, set())
    )
    if free:
        entry.tournament_table, entry.seat, entry.seated_at = table, before["seat"], now
    else:
        entry_seat_late(tournament, entry, tournament_rules(tournament), rng, now)


def _refund_refusal(tournament: Tournament, entry: Entry) -> None:
    if entry.status != Entry.Status.UNREGISTERED:
        raise Conflict(
            "not_refunded",
            _("%(name)s has not been refunded: there is nothing to undo.")
            % {"name": entry.player.name},
        )
    if tournament.status not in OPEN_FOR_REGISTRATION:
        raise Conflict(
            "registration_closed",
            _("Registration is closed: the tournament is %(status)s.")
            % {"status": tournament.get_status_display().lower()},
        )
    again = (
        Entry.objects.filter(
            tournament=tournament,
            player=entry.player,
            status__in=(Entry.Status.ACTIVE, Entry.Status.WAITING),
        )
        .values_list("number", flat=True)
        .first()
    )
    if again is not None:
        raise Conflict(
            "already_registered",
            _("%(name)s has registered again since (entry %(number)s): refund that one instead.")
            % {"name": entry.player.name, "number": again},
        )


def entry_refund_undo(
    *, actor, tournament_id: int, entry_id: int, rng: random.Random | None = None
) -> Entry:
    """Take back a refund made by mistake: the entry plays (or waits) again under its own
    number, in its old seat when that is still free, and pays again by the refund's method.
    Refused: not refunded (`not_refunded`), registration over (`registration_closed`), the
    player registered again since (`already_registered`), no room and no waiting list
    (`tournament_full`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        entry = entry_of(tournament, entry_id)
        _refund_refusal(tournament, entry)
        refund = refunds_of(entry).first()
        last = (
            AuditEntry.objects.filter(
                action="entry.unregister", target_type="entry", target_id=entry.pk
            )
            .order_by("-at", "-id")
            .first()
        )
        before = (last.before if last is not None else None) or {}
        stats = Entry.objects.filter(tournament=tournament).aggregate(
            playing=Count("pk", filter=Q(status=Entry.Status.ACTIVE)),
            waiting=Count("pk", filter=Q(status=Entry.Status.WAITING)),
        )
        full = stats["waiting"] > 0 or stats["playing"] >= tournament_capacity(tournament)
        if full and not tournament.waiting_list_enabled:
            raise Conflict(
                "tournament_full", _("Every seat is taken and this tournament has no waiting list.")
            )
        now = timezone.now()
        entry.status = Entry.Status.WAITING if full else Entry.Status.ACTIVE
        entry.ended_at = None
        entry.waiting_since = now if full else None
        if not full and tournament.seats_drawn_at is not None:
            _seat_again(tournament, entry, before, rng or random.SystemRandom(), now)
        entry.save()
        method = refund.method if refund is not None else LedgerEntry.Method.CASH
        if method == LedgerEntry.Method.TICKET:
            ticket_taken_again(entry, actor, now)
        number = receipt_number(tournament.pk, entry.number)
        tail = (refund.receipt_number.removeprefix(number) if refund else REFUND) + UNDONE
        entry_payment(tournament, entry, method, _user(actor), now, +1, tail)
        entry_record(
            actor,
            tournament,
            entry,
            "refund_undo",
            gettext_noop("Refund of %(name)s undone: registered again"),
            {"status": Entry.Status.UNREGISTERED},
            paid=tournament.entry_price,
            method=method,
        )
        if entry.status == Entry.Status.ACTIVE:
            places_shift(tournament)
            if entry.tournament_table_id is not None and tournament.status == "running":
                floor_follow(actor=actor, tournament=tournament)
    return entry


def prize_pay_undo(*, actor, tournament_id: int, entry_id: int) -> LedgerEntry:
    """Take back a prize paid by mistake: the money comes back to the cage (a positive `payout`
    row under the payment's receipt number + `R`) and the prize is unpaid again. Refused when
    it is not paid (`not_paid`)."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        entry = finisher_of(tournament, entry_id)
        if not prizes_paid(entry=entry).exists():
            raise Conflict(
                "not_paid",
                _("The prize of %(name)s has not been paid: there is nothing to undo.")
                % {"name": entry.player.name},
            )
        paid = LedgerEntry.objects.filter(entry=entry, kind=LedgerEntry.Kind.PAYOUT)
        net = -(paid.aggregate(total=Sum("amount"))["total"] or 0)
        payment = paid.filter(amount__lt=0).order_by("-at", "-id").first()
        back = LedgerEntry.objects.create(
            tournament=tournament,
            entry=entry,
            kind=LedgerEntry.Kind.PAYOUT,
            purpose=LedgerEntry.Purpose.PRIZE,
            amount=net,
            method=payment.method,
            cashier=_user(actor),
            at=timezone.now(),
            receipt_number=payment.receipt_number + REFUND,
        )
        audit_record(
            actor=actor,
            action="prize.pay_undo",
            summary=audit_text(
                gettext_noop("Prize payment to %(name)s undone: %(amount)s back at the cage"),
                {"name": entry.player.name, "amount": net},
            ),
            tournament=tournament,
            target=back,
            before={"entry_id": entry.pk, "paid": net, "receipt_number": payment.receipt_number},
            after={"entry_id": entry.pk, "paid": 0, "receipt_number": back.receipt_number},
        )
        event_append(
            tournament, "payouts", {"reason": "pay_undone", "entry_id": entry.pk, "amount": net}
        )
        return back
