"""Chip counts reported from a table or the console, at any time and at the end of a flight's
day (docs/rules.md §15.3, §15.4)."""

from collections.abc import Sequence

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from tourney.audit.log import audit_record, audit_text
from tourney.chip_counts.selectors import counted_entries
from tourney.core.errors import Conflict, InvalidInput
from tourney.core.locks import tournament_lock
from tourney.domain.festival import counts_refusal
from tourney.events.log import event_append
from tourney.flights.operations import bags_opened, day2_entries_kept
from tourney.models import Entry, Tournament

MAX_CHIPS = 10**15  # infra.web.schema_types CHIPS_MAX


def _locked(tournament_id: int) -> tuple[Tournament, Tournament | None]:
    """The tournament whose counts change, locked; a finished flight's are its bags: then
    its main event too, whose Day-2 entries carry them."""
    tournament = tournament_lock(tournament_id)
    if tournament.main_event_id is not None and tournament.status == Tournament.Status.FINISHED:
        return tournament, bags_opened(tournament)
    return tournament, None


def chip_counts_set(*, actor, tournament_id: int, counts: Sequence[tuple[int, int]]) -> int:
    """Store the counts (entry id, chips) of players left (or a finished flight's bags):
    each replaces the player's last count. Refused whole when one entry is not counted here,
    repeats, or has no chips; returns how many were stored."""
    if not counts:
        raise InvalidInput("invalid_counts", _("Send at least one count."))
    if any(not 1 <= chips <= MAX_CHIPS for _entry, chips in counts):
        raise InvalidInput(
            "invalid_chips", _("A count is a number of chips from 1; bust a player out instead.")
        )
    with transaction.atomic(durable=True):
        tournament, main = _locked(tournament_id)
        if tournament.is_main_event and tournament.seats_drawn_at is None:
            raise Conflict(
                "count_in_the_flight", _("Before Day 2, counts are entered in each flight.")
            )
        entries = {
            e.pk: e
            for e in Entry.objects.filter(
                counted_entries(tournament), pk__in=[e for e, _c in counts]
            ).select_related("player")
        }
        code = counts_refusal(counts, entries)
        if code == "duplicate_entry":
            raise InvalidInput(code, _("Each player may be counted once a report."))
        if code is not None:
            raise Conflict(code, _("Only the players left in this tournament can be counted."))
        now = timezone.now()
        before = {str(pk): e.chips for pk, e in entries.items()}
        for entry_id, chips in counts:
            entries[entry_id].chips, entries[entry_id].chips_at = chips, now
        Entry.objects.bulk_update(list(entries.values()), ["chips", "chips_at"])
        if main is not None:  # a bag corrected: its Day-2 entry (or a player's other bag's)
            day2_entries_kept(main, actor, now)
        audit_record(
            actor=actor,
            action="chips.count",
            summary=audit_text(
                gettext_noop("Chip counts of %(n)s players entered"), {"n": len(counts)}
            ),
            tournament=tournament,
            target=tournament,
            before=before,
            after={str(e): c for e, c in counts},
        )
        event_append(tournament, "chip_counts", {"entries": [e for e, _c in counts]})
    return len(counts)
