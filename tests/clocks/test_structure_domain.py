"""Structure validation, the export format and the "unchanged through" rule (pure)."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.domain.structures import (
    TEMPLATES,
    Chip,
    Period,
    StructureData,
    StructureError,
    structure_payload,
    total_seconds,
    unchanged_through,
    validate_structure,
)

RIMOC = TEMPLATES["rimoc-championship"]


def with_periods(*periods: Period, chips=RIMOC.chips) -> StructureData:
    return StructureData(name="Test", chips=chips, periods=tuple(periods))


def refused(data: StructureData) -> StructureError:
    with pytest.raises(StructureError) as info:
        validate_structure(data)
    return info.value


def test_the_rimoc_template_is_exactly_rimocs_sheet():
    levels = [p for p in RIMOC.periods if p.kind == "level"]
    assert len(levels) == 16 and all(p.duration_seconds == 15 * 60 for p in levels)
    assert [(p.small_blind, p.big_blind) for p in levels][4:7] == [
        (500, 1_000),
        (700, 1_500),
        (1_000, 2_000),
    ]
    assert [i for i, p in enumerate(RIMOC.periods) if p.kind == "break"] == [4, 9, 14, 19]
    assert [(c.value, c.color) for c in RIMOC.chips] == [
        (100, "grey"),
        (500, "red"),
        (1_000, "blue"),
        (2_500, "green"),
        (10_000, "black"),
    ]
    assert RIMOC.starting_stack == 40_000
    # docs/rules.md §1.8 example 2: start 19:00, L4 ends 20:00.
    assert total_seconds(RIMOC.periods[:4]) == 3_600
    validate_structure(RIMOC)


@pytest.mark.parametrize(
    ("periods", "code", "row"),
    [
        ((Period("level", 0, 100, 200),), "invalid_duration", 0),
        ((Period("level", 600, 200, 100),), "invalid_blinds", 0),
        ((Period("level", 600, 0, 100),), "invalid_blinds", 0),
        ((Period("level", 600, 100, 200, 300),), "invalid_ante", 0),
        ((Period("level", 600, 100, 200), Period("level", 600, 100, 150)), "blinds_decrease", 1),
        ((Period("level", 600, 100, 200), Period("level", 600, 50, 200)), "blinds_decrease", 1),
        (
            (Period("level", 600, 100, 200), Period("break", 600, color_up=(25,))),
            "invalid_color_up",
            1,
        ),
        (
            (
                Period("level", 600, 100, 200),
                Period("break", 600, color_up=(100,)),
                Period("level", 600, 500, 1_000),
                Period("break", 600, color_up=(100,)),
            ),
            "invalid_color_up",
            3,
        ),
        ((Period("break", 600),), "invalid_levels", None),
        ((Period("level", 7 * 3600, 100, 200),), "invalid_duration", 0),
    ],
)
def test_bad_structures_are_refused_with_the_row(periods, code, row):
    error = refused(with_periods(*periods))
    assert (error.code, error.row) == (code, row)
    if row is not None:
        assert error.params["row"] == row + 1 and f"Row {row + 1}" in str(error)


def test_a_break_may_not_remove_every_chip():
    chips = (Chip(100, "grey"), Chip(500, "red"))
    periods = (Period("level", 600, 100, 200), Period("break", 600, color_up=(100, 500)))
    assert refused(with_periods(*periods, chips=chips)).code == "invalid_color_up"


def test_name_chips_and_stack():
    assert refused(dataclasses.replace(RIMOC, name="  ")).code == "invalid_name"
    dup = (Chip(100, "grey"), Chip(100, "red"))
    assert refused(dataclasses.replace(RIMOC, chips=dup)).code == "invalid_chips"
    assert refused(dataclasses.replace(RIMOC, starting_stack=0)).code == "invalid_starting_stack"


def test_equal_blinds_may_repeat_and_antes_may_appear():
    validate_structure(
        with_periods(Period("level", 600, 100, 200), Period("level", 600, 100, 200, 200))
    )


def test_payload_is_the_post_format():
    payload = structure_payload(RIMOC)
    assert set(payload) == {"name", "chips", "levels", "starting_stack", "description"}
    assert payload["levels"][0] == {
        "kind": "level",
        "small_blind": 100,
        "big_blind": 200,
        "ante": 0,
        "duration_seconds": 900,
    }
    assert payload["levels"][9] == {
        "kind": "break",
        "duration_seconds": 600,
        "color_up": [100, 500],
    }


def test_unchanged_through():
    old = RIMOC.periods
    longer = (*old, Period("level", 900, 20000, 40000))
    assert unchanged_through(old, longer, 5)
    assert unchanged_through(old, longer, len(old) - 1)
    changed = (*old[:6], dataclasses.replace(old[6], duration_seconds=1200), *old[7:])
    assert unchanged_through(old, changed, 5) and not unchanged_through(old, changed, 6)
    assert not unchanged_through(old, old[:3], 5)


@given(st.integers(0, 25), st.integers(0, 25))
def test_unchanged_through_a_prefix_implies_every_shorter_prefix(index, change_at):
    old = RIMOC.periods
    new = list(old)
    if change_at < len(new):
        new[change_at] = dataclasses.replace(new[change_at], duration_seconds=1)
    new = tuple(new)
    if unchanged_through(old, new, index):
        assert all(unchanged_through(old, new, i) for i in range(index + 1))
        assert change_at > index or change_at >= len(old)
