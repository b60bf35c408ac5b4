"""Reads of tickets (docs/rules.md §17.4): a player's, and those the desk of an event can take."""

from infra.text.collation import sorted_by_name
from tourney.models import LedgerEntry, Ticket, Tournament

CASH_METHODS = [c for c in LedgerEntry.Method.choices if c[0] != LedgerEntry.Method.TICKET]


def desk_methods(tournament_id: int) -> list[tuple[str, str]]:
    """How the desk of this event takes an entry: cash, card, other, and a ticket when a
    satellite has issued tickets for it."""
    has_tickets = Ticket.objects.filter(target_id=tournament_id).exists()
    return list(LedgerEntry.Method.choices) if has_tickets else CASH_METHODS


def ticket_to_use(tournament_id: int, player_id: int) -> int | None:
    """The player's ticket the desk registers him on (his oldest active one for this event)."""
    return (
        Ticket.objects.filter(
            target_id=tournament_id, player_id=player_id, status=Ticket.Status.ACTIVE
        )
        .order_by("created_at", "pk")
        .values_list("pk", flat=True)
        .first()
    )


def ticket_out(ticket: Ticket) -> dict:
    return {
        "id": ticket.pk,
        "target_id": ticket.target_id,
        "target_name": ticket.target.name,
        "value": ticket.value,
        "status": ticket.status,
        "status_label": str(ticket.get_status_display()),
        "source_id": ticket.source_id,
        "source_name": ticket.source.name,
        "entry_id": ticket.entry_id,
        "partial": ticket.value < ticket.target.entry_price,
    }


def ticket_targets() -> list[dict]:
    """The events a ticket can be transferred to: open for registration, by name in the
    page's language, each with its entry price ({id, name, price})."""
    open_events = Tournament.objects.filter(
        status__in=(Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
    ).only("name", "buy_in", "fee")
    named = sorted_by_name(open_events, key=lambda t: t.name)[:200]
    return [{"id": t.pk, "name": t.name, "price": t.entry_price} for t in named]


def tickets_of_player(player_id: int) -> list[dict]:
    """The player's tickets, newest first (void ones left out)."""
    rows = (
        Ticket.objects.filter(player_id=player_id)
        .exclude(status=Ticket.Status.VOID)
        .select_related("target", "source")
    )
    return [ticket_out(t) for t in rows]


def tickets_for_event(tournament_id: int, player_ids) -> dict[int, list[dict]]:
    """The usable tickets of these players for this event, by player (the desk's "pay with
    ticket")."""
    rows = Ticket.objects.filter(
        target_id=tournament_id, player_id__in=list(player_ids), status=Ticket.Status.ACTIVE
    ).select_related("target", "source")
    out: dict[int, list[dict]] = {}
    for t in rows:
        out.setdefault(t.player_id, []).append(ticket_out(t))
    return out
