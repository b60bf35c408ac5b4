"""A new event on a built-in template plays a copy of it (issue 32: it played the template
itself, whose editor is read-only and said "later rows can still change"): the copy has the
template's periods and chips, is named for the event and is no template; an event on a
structure of the room's own plays that structure; a refused event leaves no copy behind; a
sit-and-go series plays one copy of its own."""

import pytest
from django.utils import translation

from clocks.models import Structure
from clocks.structures.selectors import structure_data
from clocks.structures.usecases import structure_duplicate
from tests.conftest import friday_deepstack
from tourney.core.errors import TourneyError
from tourney.models import SitAndGoSeries
from tourney.sit_and_go.usecases import sng_series_create

pytestmark = pytest.mark.django_db


def test_a_template_is_copied_for_the_event(director, structure, room):
    with translation.override("en"):  # the copy is named in the director's language
        tournament = friday_deepstack(director, structure, room, name="Friday deepstack")
    own = tournament.structure
    assert own.pk != structure.pk and not own.template_key
    assert own.name == "Rimóc championship (15-minute levels) · Friday deepstack"
    copied, template = structure_data(own), structure_data(structure)
    assert copied.periods == template.periods and copied.chips == template.chips
    assert copied.starting_stack == template.starting_stack


def test_a_structure_of_the_rooms_own_is_played_as_it_is(director, structure, room):
    ours = structure_duplicate(actor=director, structure_id=structure.pk, name="Ours")
    tournament = friday_deepstack(director, ours, room)
    assert tournament.structure_id == ours.pk


def test_a_refused_event_leaves_no_copy(director, structure, room):
    before = Structure.objects.count()
    with pytest.raises(TourneyError):
        friday_deepstack(director, structure, room, starting_stack=0)
    assert Structure.objects.count() == before


def test_a_sit_and_go_series_plays_its_own_copy(director, structure, room):
    """One copy for the series (not one an event: a series makes dozens of events a day)."""
    with translation.override("en"):
        series = sng_series_create(
            actor=director,
            name="Legend SNG",
            room_id=room.pk,
            structure_id=structure.pk,
            starting_stack=5_000,
            buy_in=9_000,
            fee=1_000,
            seats=9,
        )
    own = SitAndGoSeries.objects.get(pk=series.pk).structure
    assert own.pk != structure.pk and not own.template_key
    assert own.name == "Rimóc championship (15-minute levels) · Legend SNG"
    assert structure_data(own).periods == structure_data(structure).periods
