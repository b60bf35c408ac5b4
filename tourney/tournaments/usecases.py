"""Creating tournaments and the director's message on the screens."""

from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clocks.models import Structure
from clocks.structures.operations import structure_copy
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import InvalidInput
from tourney.core.locks import tournament_lock
from tourney.events.log import event_append
from tourney.models import Tournament
from tourney.tournaments.operations import tournament_record

MESSAGE_MAX_LENGTH = 500


@transaction.atomic(durable=True)
def tournament_create(*, actor, **settings: Any) -> Tournament:
    """Create a tournament (`tournament_record`'s settings), audited. A built-in template is
    copied for it (issue 32: the event played the template itself, whose editor is read-only):
    its levels can then change for this event alone."""
    return tournament_record(actor=actor, **_own_structure(settings))


def _own_structure(settings: dict[str, Any]) -> dict[str, Any]:
    template = Structure.objects.filter(
        pk=settings.get("structure_id"), template_key__gt=""
    ).first()
    if template is None:
        return settings
    name = " ".join(str(settings.get("name") or "").split())
    copy = structure_copy(template, f"{template.display_name} · {name}" if name else template.name)
    return {**settings, "structure_id": copy.pk}


@transaction.atomic(durable=True)
def tournament_message_set(*, actor, tournament_id: int, message: str) -> Tournament:
    """Set (or clear, with "") the director's message scrolled on the lobby screens."""
    message = " ".join((message or "").split())
    if len(message) > MESSAGE_MAX_LENGTH:
        raise InvalidInput(
            "invalid_message",
            _("The message can be at most %(n)s characters.") % {"n": MESSAGE_MAX_LENGTH},
        )
    tournament = tournament_lock(tournament_id)
    before = tournament.display_message
    tournament.display_message = message
    tournament.save(update_fields=["display_message"])
    audit_record(
        actor=actor,
        action="tournament.message",
        summary=audit_text(
            gettext_noop("Screen message set: %(message)s")
            if message
            else gettext_noop("Screen message cleared"),
            {"message": message[:200]},
        ),
        tournament=tournament,
        target=tournament,
        before={"message": before},
        after={"message": message},
    )
    event_append(tournament, "message", {"message": message})
    return tournament
