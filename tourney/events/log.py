"""Tournament events: appended in the writer's transaction, published after commit."""

from typing import Any

from django.db import transaction
from django.utils import timezone

from infra import bus
from tourney.models import Tournament, TournamentEvent


def event_append(tournament: Tournament, kind: str, payload: dict[str, Any]) -> TournamentEvent:
    """Store the event with the tournament's next version (the database moves the tournament's
    version to it) and publish the event once the write commits.

    The caller holds the tournament row lock and passes that locked instance, so its `version`
    is current and can be bumped without re-reading it.
    """
    event = event_new(tournament, kind, payload)
    event.save(force_insert=True)
    return event


def event_new(tournament: Tournament, kind: str, payload: dict[str, Any]) -> TournamentEvent:
    """`event_append`'s event, not saved yet (for a `WriteBatch`); it is published after the
    commit, by then with its id."""
    tournament.version += 1
    # The insert sets the tournament's version in the database (tourney/core/db_triggers.py).
    event = TournamentEvent(
        tournament=tournament,
        kind=kind,
        version=tournament.version,
        payload=payload,
        at=timezone.now(),
    )

    def publish() -> None:
        message = {"id": event.pk, "event": kind, "version": event.version, "data": payload}
        bus.publish(tournament.pk, message)

    transaction.on_commit(publish)
    return event
