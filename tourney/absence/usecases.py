"""Absent players (docs/rules.md §2.3): marking a seated entry absent or arrived, the deadline that
eliminates entries still absent where the house rules say so, and the elimination write.

Each absent player's wait runs from the level begun when he was marked absent (0 before the
start): he is out at the end of that level + `absent_eliminate_after_levels` (Rimóc's "one
blind level" at any time of the event, not only from the start). [INF] Entries eliminated
together share the place range: with n players left and m eliminated they finish n-m+1 .. n,
each stored with `place` = n-m+1 (the tie notation "T-(n-m+1)"), as docs/rules.md §11.4 ties
equal starting stacks in one hand. Their stacks (the starting stack each) are removed from
play. Manual clock changes (next, jump) do not eliminate anyone, because they can be undone;
the next automatic period change applies a deadline a manual change skipped over.
"""

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.absence.selectors import level_begun
from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import Conflict
from tourney.core.locks import tournament_lock
from tourney.events.log import event_append
from tourney.models import Entry, Tournament
from tourney.tournaments.selectors import entry_of, entry_snapshot


def _seated_entry(tournament: Tournament, entry_id: int) -> Entry:
    entry = entry_of(tournament, entry_id)
    if entry.status != Entry.Status.ACTIVE or entry.tournament_table_id is None:
        raise Conflict("entry_not_seated", _("Only a seated player can be marked absent."))
    return entry


def _absent_snapshot(entry: Entry) -> dict:
    return {
        **entry_snapshot(entry),
        "player_name": entry.player.name,
        "absent": entry.absent_since is not None,
        "absent_since_ms": (
            int(entry.absent_since.timestamp() * 1000) if entry.absent_since else None
        ),
    }


@transaction.atomic(durable=True)
def entry_mark_absent(*, actor, tournament_id: int, entry_id: int, absent: bool = True) -> Entry:
    """Mark a seated entry absent (`absent=True`) or arrived; each undoes the other."""
    tournament = tournament_lock(tournament_id)
    entry = _seated_entry(tournament, entry_id)
    if (entry.absent_since is not None) == absent:
        raise Conflict(
            "already_absent" if absent else "not_absent",
            _("%(name)s is already marked absent.") % {"name": entry.player.name}
            if absent
            else _("%(name)s is not marked absent.") % {"name": entry.player.name},
        )
    before = _absent_snapshot(entry)
    entry.absent_since = timezone.now() if absent else None
    entry.absent_level = level_begun(tournament) if absent else None
    entry.save(update_fields=["absent_since", "absent_level"])
    after = _absent_snapshot(entry)
    audit_record(
        actor=actor,
        action="entry.absent" if absent else "entry.arrived",
        summary=audit_text(
            gettext_noop("%(name)s marked absent") if absent else gettext_noop("%(name)s arrived"),
            {"name": entry.player.name},
        ),
        tournament=tournament,
        target=entry,
        before=before,
        after=after,
    )
    event_append(tournament, "entry", {"action": "absent" if absent else "arrived", **after})
    return entry
