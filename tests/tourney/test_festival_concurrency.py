"""Two staff at once on a festival night (issue 26), on PostgreSQL where writers run in
parallel: a count corrected while the director draws Day 2, and a count sent while the
director ends the day. Either order is kept whole: nothing is lost or half applied.

Skipped on SQLite (its IMMEDIATE transactions serialize every writer anyway); CI's PostgreSQL
run executes it."""

import pytest
from django.db import connection

from tests.factories import run_at_once
from tests.tourney.festival_steps import (
    bag_flight,
    festival_hall,
    flight,
    main_event,
    play_flight,
    players,
)
from tourney.chip_counts.usecases import chip_counts_set
from tourney.core.errors import Conflict
from tourney.flights.usecases import day2_draw, flight_day_end
from tourney.models import Entry

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def postgresql():
    if connection.vendor != "postgresql":
        pytest.skip(f"concurrent writers run on PostgreSQL (this run uses {connection.vendor})")


@pytest.mark.parametrize("attempt", range(3))
def test_a_bag_corrected_while_day_2_is_drawn(postgresql, api, director, structure, attempt):
    main = main_event(director, structure, festival_hall(director))
    day1a = flight(api, main, "Day 1A", [1])
    left = play_flight(api, day1a, list(players(api, [f"B{i}" for i in range(6)]).values()), 1)
    bag_flight(api, day1a, left)
    corrected = left[0]
    errors = run_at_once(
        [
            lambda: day2_draw(actor=director, main_id=main.pk),
            lambda: chip_counts_set(
                actor=director, tournament_id=day1a.pk, counts=[(corrected, 123_456)]
            ),
        ]
    )
    day2 = Entry.objects.get(tournament=main, day1_entry_id=corrected)
    bag = Entry.objects.get(pk=corrected)
    if errors:  # the draw went first: the correction is refused whole
        assert [getattr(e, "code", e) for e in errors] == ["day2_drawn"]
        assert bag.chips != 123_456 and day2.chips == bag.chips
    else:  # the correction went first: Day 2 plays it
        assert bag.chips == day2.chips == 123_456
    main.refresh_from_db()
    assert main.chips_carried == sum(
        Entry.objects.filter(tournament=main).values_list("chips", flat=True)
    )


@pytest.mark.parametrize("attempt", range(3))
def test_a_count_sent_while_the_day_ends(postgresql, api, director, structure, attempt):
    main = main_event(director, structure, festival_hall(director))
    day1a = flight(api, main, "Day 1A", [1])
    left = play_flight(api, day1a, list(players(api, [f"C{i}" for i in range(6)]).values()), 1)
    chip_counts_set(actor=director, tournament_id=day1a.pk, counts=[(e, 48_000) for e in left])
    errors = run_at_once(
        [
            lambda: flight_day_end(actor=director, tournament_id=day1a.pk),
            lambda: chip_counts_set(
                actor=director, tournament_id=day1a.pk, counts=[(left[0], 60_000)]
            ),
        ]
    )
    assert errors == [] or all(isinstance(e, Conflict) for e in errors)
    # whichever went first, the bag holds the last count: before the end, or as a correction
    assert Entry.objects.get(pk=left[0]).chips == 60_000
    assert Entry.objects.filter(tournament=day1a, status="bagged").count() == len(left)
