"""Past the structure's last level (issue 24, docs/rules.md §1.4, §1.9): the clock goes into
overtime and the tournament plays on; nothing says it is over. *Add levels* carries the
structure on (on a copy when it is a template), and a clock in overtime goes on into the first
level added."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.clock.usecases import clock_operate, clocks_advance_due
from clocks.domain.colorup import chips_in_play
from clocks.domain.continuation import levels_continued
from clocks.domain.structures import TEMPLATES, Period
from clocks.models import Clock, Structure
from tests.factories import structure_run_out
from tourney.models import AuditEntry, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db

RIMOC = TEMPLATES["rimoc-championship"]


def test_rimoc_carries_on_by_its_last_step_in_round_numbers():
    """Rimóc ends 10,000/20,000, 15,000/30,000 (a step of 1.5), then a break that colors up the
    1,000s: 2,500 is the smallest chip left. 45,000 rounds up to 50,000, 75,000 to 80,000."""
    chips = chips_in_play([c.value for c in RIMOC.chips], RIMOC.periods, len(RIMOC.periods))
    assert min(chips) == 2_500
    added = levels_continued(RIMOC.periods, 2_500, 3)
    assert [(p.small_blind, p.big_blind, p.ante) for p in added] == [
        (25_000, 50_000, 0),
        (40_000, 80_000, 0),
        (60_000, 120_000, 0),
    ]
    assert all(p.duration_seconds == 900 and p.kind == "level" for p in added)


def test_a_big_blind_ante_stays_one_and_a_steep_step_is_held_to_double():
    periods = [Period("level", 1200, 100, 200, 200), Period("level", 1200, 300, 600, 600)]
    added = levels_continued(periods, 100, 2)  # a step of 3 is held to 2
    assert [(p.small_blind, p.big_blind, p.ante) for p in added] == [
        (600, 1_200, 1_200),
        (1_200, 2_500, 2_500),
    ]


@given(
    st.lists(st.integers(1, 10**7), min_size=1, max_size=6),
    st.sampled_from([1, 5, 25, 100, 500, 1_000, 5_000]),
    st.integers(1, 20),
    st.sampled_from([0, 1, 2]),
)
def test_added_levels_grow_and_the_smallest_chip_pays_them(bigs, chip, count, ante_kind):
    levels = [
        Period("level", 600, max(chip, b // 2), b, (0, b // 8, b)[ante_kind]) for b in sorted(bigs)
    ]
    added = levels_continued(levels, chip, count)
    assert len(added) == count
    previous = levels[-1].big_blind
    for p in added:
        assert p.big_blind > previous
        assert p.big_blind <= max(previous, chip) * 3 + chip * 100  # never a wild jump
        assert p.big_blind % chip == p.small_blind % chip == p.ante % chip == 0
        assert chip <= p.small_blind <= p.big_blind
        previous = p.big_blind


def _overtime(director, tournament) -> None:
    """The tournament's clock past its structure's end."""
    clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
    structure_run_out(tournament)
    clock = Clock.objects.get(tournament=tournament)
    assert (clock.status, clock.period_index) == ("overtime", len(RIMOC.periods) - 1)


def test_the_structure_runs_out_and_the_tournament_plays_on(api, director, seated_tournament):
    _overtime(director, seated_tournament)
    clock = api.get(f"/tournaments/{seated_tournament.pk}/clock").json()
    assert clock["status"] == "overtime" and clock["remaining_ms"] == 0
    assert clock["period"]["big_blind"] == 30_000 and clock["period"]["level"] == 16
    assert clock["overtime_ms"] >= 0 and clock["after_last_level"] == "count_up"
    state = api.get(f"/tournaments/{seated_tournament.pk}").json()
    assert state["status"] == "running"  # only the last bust-out finishes it
    event = TournamentEvent.objects.filter(tournament=seated_tournament, kind="clock").last()
    assert event.payload["status"] == "overtime"
    assert clocks_advance_due() == 0  # no timer has anything more to do


def test_add_levels_copies_the_template_and_goes_on_from_overtime(
    api, director, seated_tournament, structure
):
    # an event playing a template itself (one made before events got their own copy, or a
    # sit-and-go's): adding levels copies it
    Tournament.objects.filter(pk=seated_tournament.pk).update(structure=structure)
    template = structure
    assert template.template_key
    _overtime(director, seated_tournament)
    r = api.post(f"/tournaments/{seated_tournament.pk}/clock/levels", {"count": 3})
    assert r.status_code == 200, r.json()
    clock = r.json()
    assert (clock["status"], clock["period_index"]) == ("running", len(RIMOC.periods))
    assert clock["period"]["big_blind"] == 50_000 and clock["period"]["level"] == 17
    assert clock["remaining_ms"] > 899_000
    tournament = Tournament.objects.get(pk=seated_tournament.pk)
    assert tournament.structure_id != template.pk
    assert Structure.objects.get(pk=template.pk).levels.count() == len(RIMOC.periods)
    assert tournament.structure.levels.count() == len(RIMOC.periods) + 3
    audit = AuditEntry.objects.get(action="structure.levels_add")
    assert audit.after["levels"][0] == [25_000, 50_000, 0]
    kinds = TournamentEvent.objects.filter(tournament=tournament).values_list("kind", flat=True)
    assert "structure" in kinds


def test_add_levels_on_the_last_level_keeps_the_clock_and_extends_in_place(
    api, director, seated_tournament
):
    from clocks.structures.usecases import structure_duplicate

    own = structure_duplicate(actor=director, structure_id=seated_tournament.structure_id)
    Tournament.objects.filter(pk=seated_tournament.pk).update(structure=own)
    clock_operate(actor=director, tournament_id=seated_tournament.pk, operation="start")
    last = len(RIMOC.periods) - 1
    api.post(f"/tournaments/{seated_tournament.pk}/clock/jump", {"period_index": last})
    r = api.post(f"/tournaments/{seated_tournament.pk}/clock/levels", {"count": 2})
    assert r.status_code == 200
    assert (r.json()["status"], r.json()["period_index"]) == ("running", last)
    assert r.json()["next_period"]["big_blind"] == 50_000
    assert Tournament.objects.get(pk=seated_tournament.pk).structure_id == own.pk
    assert own.levels.count() == len(RIMOC.periods) + 2


@pytest.mark.parametrize(("role", "count", "status"), [("floor", 3, 403), ("director", 0, 422)])
def test_add_levels_is_the_directors_and_bounded(api_as, seated_tournament, role, count, status):
    client = api_as(role)
    levels = Structure.objects.get(pk=seated_tournament.structure_id).levels.count()
    r = client.post(f"/tournaments/{seated_tournament.pk}/clock/levels", {"count": count})
    assert r.status_code == status
    assert Structure.objects.get(pk=seated_tournament.structure_id).levels.count() == levels
