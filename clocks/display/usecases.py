"""Revoking a tournament's display links (a lost or leaked link: a TV taken away)."""

from django.db import transaction
from django.utils.translation import gettext_noop

from clocks.display.selectors import REVOKED_EVENT
from tourney.audit.log import audit_text
from tourney.core.link_generations import link_generation_set
from tourney.core.locks import tournament_lock
from tourney.models import Tournament


@transaction.atomic(durable=True)
def display_links_revoke(*, actor, tournament_id: int) -> Tournament:
    """Every display link of the tournament given out so far stops working; open screens'
    streams close. Not undoable on purpose: a revoked link must stay dead. The console and
    the API then hand out the new link."""
    tournament = tournament_lock(tournament_id)
    link_generation_set(
        actor=actor,
        tournament=tournament,
        row=tournament,
        field="display_link_generation",
        generation=tournament.display_link_generation + 1,
        action="tournament.display_links_revoke",
        summary=audit_text(gettext_noop("Display links revoked: screens need the new link"), {}),
        event=REVOKED_EVENT,
        payload={},
    )
    return tournament
