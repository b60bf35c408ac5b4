"""Revoking a table's dealer link (a phone lost or taken away)."""

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tables.models import TournamentTable
from tourney.audit.log import audit_text
from tourney.core.errors import NotFound
from tourney.core.link_generations import link_generation_set
from tourney.core.locks import tournament_lock

REVOKED_EVENT = "dealer_link_revoked"


@transaction.atomic(durable=True)
def dealer_link_revoke(*, actor, tournament_id: int, number: int) -> TournamentTable:
    """The table's dealer link given out so far stops working at once (its next request is
    refused, its page says so); the console and the API then hand out the new link. Not
    undoable on purpose: a revoked link must stay dead."""
    tournament = tournament_lock(tournament_id)
    table = TournamentTable.objects.filter(tournament=tournament, number=number).first()
    if table is None:
        raise NotFound("not_found", _("There is no such table in this tournament."))
    link_generation_set(
        actor=actor,
        tournament=tournament,
        row=table,
        field="dealer_link_generation",
        generation=table.dealer_link_generation + 1,
        action="table.dealer_link_revoke",
        summary=audit_text(
            gettext_noop("Dealer link of table %(t)s revoked: the table needs the new link"),
            {"t": number},
        ),
        event=REVOKED_EVENT,
        payload={"table": number},
    )
    return table
