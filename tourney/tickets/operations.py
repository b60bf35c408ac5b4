"""A ticket's uses inside the caller's transaction (docs/rules.md §17.4): the desk registers a
player on it (no cash: the ledger shows the ticket), a refund before the start gives it back."""

from django.utils.translation import gettext as _

from tourney.core.errors import Conflict, NotFound
from tourney.models import Entry, Ticket, Tournament


def ticket_locked(ticket_id: int) -> Ticket:
    ticket = (
        Ticket.objects.select_for_update(no_key=True, of=("self",))
        .select_related("player", "target")
        .filter(pk=ticket_id)
    )
    found = ticket.first()
    if found is None:
        raise NotFound(
            "ticket_not_found", _("There is no ticket with id %(id)s.") % {"id": ticket_id}
        )
    return found


def ticket_for_entry(tournament: Tournament, player_id: int, ticket_id: int) -> Ticket:
    """The ticket a registration pays with, locked: the player's own, not used, for this
    event, worth its whole price (a partial seat is not a way in: cash it out instead)."""
    ticket = ticket_locked(ticket_id)
    if ticket.player_id != player_id:
        raise Conflict("ticket_not_his", _("This ticket belongs to another player."))
    if ticket.status != Ticket.Status.ACTIVE:
        raise Conflict(
            "ticket_not_active",
            _("This ticket is %(status)s.") % {"status": ticket.get_status_display().lower()},
        )
    if ticket.target_id != tournament.pk:
        raise Conflict(
            "ticket_other_event",
            _("This ticket is for %(name)s: transfer it first.") % {"name": ticket.target.name},
        )
    if ticket.value < tournament.entry_price:
        raise Conflict(
            "ticket_partial",
            _("This ticket is worth %(value)s, less than the entry (%(price)s).")
            % {"value": ticket.value, "price": tournament.entry_price},
        )
    return ticket


def ticket_use(ticket: Ticket, entry: Entry, actor, now) -> None:
    ticket.status, ticket.entry, ticket.changed_at = Ticket.Status.USED, entry, now
    ticket.changed_by = actor if actor is not None and actor.is_authenticated else None
    ticket.save(update_fields=["status", "entry", "changed_at", "changed_by"])


def ticket_given_back(entry: Entry, actor, now) -> Ticket | None:
    """The entry's ticket (if it paid with one) is the player's to use again: a refund."""
    ticket = Ticket.objects.select_for_update(no_key=True).filter(entry=entry).first()
    if ticket is not None:
        ticket.status, ticket.entry, ticket.changed_at = Ticket.Status.ACTIVE, None, now
        ticket.changed_by = actor if actor is not None and actor.is_authenticated else None
        ticket.save(update_fields=["status", "entry", "changed_at", "changed_by"])
    return ticket


def ticket_taken_again(entry: Entry, actor, now) -> None:
    """A refund of a ticket's entry undone: the player's ticket for this event pays again."""
    ticket = (
        Ticket.objects.select_for_update(no_key=True)
        .filter(player_id=entry.player_id, target_id=entry.tournament_id)
        .filter(status=Ticket.Status.ACTIVE)
        .order_by("-changed_at", "-pk")
        .first()
    )
    if ticket is None:
        raise Conflict(
            "ticket_not_active", _("The ticket this entry was paid with is no longer there.")
        )
    ticket_use(ticket, entry, actor, now)
