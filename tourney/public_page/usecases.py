"""Revoking the public page's link."""

from django.db import transaction
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.core.locks import tournament_lock
from tourney.models import Tournament


def public_link_revoke(*, actor, tournament_id: int) -> Tournament:
    """The public link stops working: a new generation signs the next one."""
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        before = tournament.public_link_generation
        tournament.public_link_generation = before + 1
        tournament.save(update_fields=["public_link_generation"])
        audit_record(
            actor=actor,
            action="public_link.revoke",
            summary=audit_text(gettext_noop("Public page link revoked"), {}),
            tournament=tournament,
            target=tournament,
            before={"generation": before},
            after={"generation": before + 1},
        )
    return tournament
