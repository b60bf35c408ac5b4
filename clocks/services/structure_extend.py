"""*Add levels*: the console's answer to a structure that is running out while players are still
playing (docs/rules.md §1.4, §1.9).

The levels carry on the structure's progression (`clocks.domain.continuation`). A built-in
template, or a structure another tournament still plays on, is not changed: the tournament
gets a copy of its own with the levels added (the periods played are the same rows, so the
clock stays where it is). A clock already past the structure's end goes on into the first
added level at once.
"""

from django.db import transaction
from django.utils.translation import gettext as _

from clocks.domain.colorup import chips_in_play
from clocks.domain.continuation import levels_continued
from clocks.domain.structures import StructureData, period_rows
from clocks.models import Clock, Structure, StructureLevel
from clocks.services.clock_changes import clock_change
from clocks.services.clock_state import clock_view, structure_periods
from clocks.services.structures import structure_copy
from tourney.errors import InvalidInput
from tourney.models import Tournament
from tourney.selectors import tournament_not_over
from tourney.services.audit import audit_record, audit_text
from tourney.services.events import event_append
from tourney.services.locks import tournament_lock

LEVELS_ADDED_MAX = 20
OVER = (Tournament.Status.FINISHED, Tournament.Status.CANCELLED)


def _shared(tournament: Tournament, structure: Structure) -> bool:
    """A template, or a structure another tournament still plays on: not to be changed."""
    others = Tournament.objects.filter(structure=structure).exclude(pk=tournament.pk)
    return bool(structure.template_key) or others.exclude(status__in=OVER).exists()


def structure_levels_add(*, actor, tournament_id: int, count: int = 3) -> dict:
    """Append `count` levels to the tournament's structure; returns the clock as the API shows
    it and the number of periods now."""
    if not 1 <= count <= LEVELS_ADDED_MAX:
        raise InvalidInput(
            "invalid_input",
            _("Add from 1 to %(most)s levels at a time.") % {"most": LEVELS_ADDED_MAX},
        )
    with transaction.atomic(durable=True):
        tournament = tournament_lock(tournament_id)
        tournament_not_over(tournament)
        before = Structure.objects.select_for_update().get(pk=tournament.structure_id)
        periods = structure_periods(before.pk)
        chips = chips_in_play([c["value"] for c in before.chips], periods, len(periods))
        added = levels_continued(periods, min(chips, default=1), count)
        if _shared(tournament, before):
            # the same rows up to the end, so the clock stays where it is
            structure = structure_copy(before, f"{before.name} · {tournament.name}", added)
            Tournament.objects.filter(pk=tournament.pk).update(structure=structure)
            tournament.structure_id = structure.pk
        else:
            structure = before
            rows = period_rows(StructureData(before.name, (), (*periods, *added)))
            StructureLevel.objects.bulk_create(
                StructureLevel(structure=structure, **row) for row in rows[len(periods) :]
            )
        blinds = [[p.small_blind, p.big_blind, p.ante] for p in added]
        audit_record(
            actor=actor,
            action="structure.levels_add",
            summary=audit_text(
                "%(count)s levels added to the structure, up to %(sb)s / %(bb)s",
                {"count": count, "sb": added[-1].small_blind, "bb": added[-1].big_blind},
            ),
            tournament=tournament,
            target=structure,
            before={"structure_id": before.pk, "periods": len(periods)},
            after={"structure_id": structure.pk, "periods": len(periods) + count, "levels": blinds},
        )
        # Screens hold the structure to flip periods on their own: tell them to refetch.
        event_append(
            tournament,
            "structure",
            {"structure_id": structure.pk, "reason": "levels_added", "name": structure.name},
        )
        if Clock.objects.filter(tournament=tournament, status="overtime").exists():
            clock_change(actor, tournament, "next")  # on into the first level added, now
    return {**clock_view(tournament), "periods_count": len(periods) + count}
