"""Revocable signed links, one mechanism for all of them: the display screens' links
(clocks/display/selectors.py), a table's dealer link (tables/dealer_links/selectors.py) and the
players' page links (tourney/player_page/selectors.py).

A link signs the generation of the row it belongs to (the tournament, a table, an entry). To
revoke, the row gets a new generation: every link signed with the old one stops working, its
pages say so and its event stream is refused; the write is audited and appended as an event,
on which the open streams of those links close (tourney/streams/selectors.py, `closes_on`).
"""

import secrets
from typing import Any

from django.db import models

from tourney.audit.log import AuditText, audit_record
from tourney.events.log import event_append
from tourney.models import AuditEntry, Tournament


def link_generation_fresh(*taken: int) -> int:
    """A generation never handed out before, for links whose revocation can be undone: the
    undo puts the old generation back, so a later revocation must not step onto a generation
    that was already given out (and revive the links signed with it)."""
    while True:
        generation = 1 + secrets.randbelow(2**31 - 2)
        if generation not in taken:
            return generation


def link_generation_set(
    *,
    actor,
    tournament: Tournament,
    row: models.Model,
    field: str,
    generation: int,
    action: str,
    summary: AuditText,
    event: str,
    payload: dict[str, Any],
) -> AuditEntry:
    """Give `row` (locked by the caller's use case) the links' `generation` in `field`, with
    its audit entry and its event; the audit entry keeps both generations (for an undo)."""
    before = getattr(row, field)
    setattr(row, field, generation)
    row.save(update_fields=[field])
    entry = audit_record(
        actor=actor,
        action=action,
        summary=summary,
        tournament=tournament,
        target=row,
        before={field: before},
        after={field: generation},
    )
    event_append(tournament, event, {**payload, "generation": generation})
    return entry
