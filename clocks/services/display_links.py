"""Revoking a tournament's display links (a lost or leaked link: a TV taken away)."""

from django.db import transaction
from django.utils.translation import gettext_noop

from clocks.display_links import REVOKED_EVENT
from tourney.models import Tournament
from tourney.services.audit import audit_record, audit_text
from tourney.services.events import event_append
from tourney.services.locks import tournament_lock


@transaction.atomic
def display_links_revoke(*, actor, tournament_id: int) -> Tournament:
    """Every display link of the tournament given out so far stops working; open screens'
    streams close. Not undoable on purpose: a revoked link must stay dead. The console and
    the API then hand out the new link."""
    tournament = tournament_lock(tournament_id)
    before = tournament.display_link_generation
    tournament.display_link_generation = before + 1
    tournament.save(update_fields=["display_link_generation"])
    audit_record(
        actor=actor,
        action="tournament.display_links_revoke",
        summary=audit_text(gettext_noop("Display links revoked: screens need the new link"), {}),
        tournament=tournament,
        target=tournament,
        before={"display_link_generation": before},
        after={"display_link_generation": before + 1},
    )
    event_append(tournament, REVOKED_EVENT, {"generation": before + 1})
    return tournament
