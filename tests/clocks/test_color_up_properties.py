"""Invariants of a chip race run through the service (docs/rules.md §8.3): it never
eliminates a player, nobody holding chips is left without one, nobody gets more than one
chip, and the chips in play change by the race rounding (less than one chip either way) plus
one chip per zero-stack chip beyond those raced; undo takes the change back."""
# ruff: noqa: F811 (the `game` fixture is imported from tests/clocks/color_up_game.py)

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clocks.color_ups.usecases import color_up_run, color_up_undo
from tests.clocks.color_up_game import BREAK_100, game, jump  # noqa: F401 (fixture)
from tourney.models import Entry, Tournament

pytestmark = pytest.mark.django_db

SEATS = (1, 4, 7, 9)
D, UNIT, K = 500, 100, 5

seat_counts = st.fixed_dictionaries(
    {seat: st.tuples(st.integers(0, K - 1), st.booleans()) for seat in SEATS}
)


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    counts=seat_counts,
    rounding=st.sampled_from(["half_up", "up", "down"]),
    zero_rule=st.sampled_from(["extra", "from_pool"]),
    seed=st.integers(0, 2**32),
)
def test_a_race_never_eliminates_and_changes_chips_by_the_rounding_only(
    api, director, game, counts, rounding, zero_rule, seed
):
    if Tournament.objects.get(pk=game.pk).clock.period_index != BREAK_100:
        jump(api, game, BREAK_100)
    Tournament.objects.filter(pk=game.pk).update(
        rules_overrides={"race_rounding": rounding, "zero_stack_chip": zero_rule}
    )
    seats = [
        {"seat": seat, "odd_chips": odd, "zero_stack": zero and odd > 0}
        for seat, (odd, zero) in counts.items()
    ]
    row = color_up_run(
        actor=director,
        tournament_id=game.pk,
        table_number=1,
        seats=seats,
        method="race",
        rng=random.Random(seed),
    )
    assert Entry.objects.filter(tournament=game, status=Entry.Status.ACTIVE).count() == 4
    by_seat = {s["seat"]: s for s in row["seats"]}
    for seat in seats:
        awarded = by_seat[seat["seat"]]["chips_awarded"]
        assert awarded in (0, 1)
        if seat["zero_stack"]:
            assert awarded == 1, "a player was raced out"
    total_odd = sum(s["odd_chips"] for s in seats)
    given_chips = sum(s["chips_awarded"] for s in row["seats"])
    assert row["total_odd"] == total_odd
    assert row["extra_chips"] == given_chips - row["race_chips"] >= 0
    rounding_value = row["race_chips"] * D - total_odd * UNIT
    assert abs(rounding_value) < D
    assert row["chips_change"] == rounding_value + row["extra_chips"] * D
    assert Tournament.objects.get(pk=game.pk).chips_color_up == row["chips_change"]
    color_up_undo(actor=director, tournament_id=game.pk, color_up_id=row["id"])
    assert Tournament.objects.get(pk=game.pk).chips_color_up == 0
