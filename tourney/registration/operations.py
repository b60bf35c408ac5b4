"""Finishing places while the field still grows (docs/rules.md §11.6)."""

from django.db.models import F

from tourney.models import Elimination, Entry, Tournament


def places_shift(tournament: Tournament, entries: int = 1) -> int:
    """`entries` more entries joined the field: every standing bust-out finishes that many
    places lower. Inside the caller's transaction, the tournament row locked; returns how many
    bust-outs moved. Two statements at most, whatever the size of the field."""
    if tournament.status == Tournament.Status.REGISTERING:
        return 0  # nobody is out before the start
    moved = Elimination.objects.filter(tournament=tournament, undone_at__isnull=True).update(
        place=F("place") + entries, place_to=F("place_to") + entries
    )
    if moved:
        Entry.objects.filter(
            tournament=tournament, status=Entry.Status.ELIMINATED, place__isnull=False
        ).update(place=F("place") + entries)
    return moved
