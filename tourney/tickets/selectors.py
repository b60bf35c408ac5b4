"""Reads of tickets (docs/rules.md §17.4): a player's, and those the desk of an event can take."""

from tourney.models import Ticket


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
