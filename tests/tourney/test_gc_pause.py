"""The cyclic collector paused for bulk work (the 25,000-entry draw), and running again after."""

import gc

import pytest

from infra.gc_pause import collector_paused
from tables.seating.usecases import seats_draw
from tests.factories import bulk_entries, make_players


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_paused_inside_and_running_after_nested_blocks(collector_on):
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the outer block still runs
    assert gc.isenabled()


def test_running_again_after_an_error(collector_on):
    with pytest.raises(ValueError), collector_paused():
        raise ValueError
    assert gc.isenabled()


def test_a_collector_paused_before_stays_paused(collector_on):
    gc.disable()
    with collector_paused():
        pass
    assert not gc.isenabled()


def test_the_draw_leaves_the_collector_running(collector_on, director, tournament):
    bulk_entries(director, tournament, make_players(12))
    seats_draw(actor=director, tournament_id=tournament.pk)
    assert gc.isenabled()
