"""The color-up suggestion (docs/rules.md §1.6, [INF]): worked results and hypothesis invariants."""

from hypothesis import given
from hypothesis import strategies as st

from clocks.domain.colorup import (
    chip_warnings,
    chips_in_play,
    color_up_suggestion,
    later_amounts,
    representable,
)
from clocks.domain.structures import TEMPLATES, Period

RIMOC = TEMPLATES["rimoc-championship"]
RIMOC_CHIPS = [c.value for c in RIMOC.chips]


def level(sb: int, bb: int, ante: int = 0) -> Period:
    return Period("level", 900, sb, bb, ante)


BREAK = Period("break", 600)


def test_rimoc_worked_result_100s_and_500s_at_break_2_and_1000s_at_break_4():
    suggestion = color_up_suggestion(RIMOC_CHIPS, RIMOC.periods)
    breaks = [suggestion[i] for i, p in enumerate(RIMOC.periods) if p.kind == "break"]
    assert breaks == [(), (100, 500), (), (1_000,)]


def test_rimoc_reasons_of_rules_1():
    # 100s are needed through L6 (700); 500s not from L9 on (7,500 = 3 x 2,500);
    # 1,000s are needed through L13 (12,000 / 6,000).
    assert not representable(700, [500, 1_000, 2_500, 10_000])
    assert representable(7_500, [1_000, 2_500, 10_000])
    assert representable(7_500, [2_500, 10_000])
    assert not representable(6_000, [2_500, 10_000])
    assert representable(15_000, [2_500, 10_000])
    assert not representable(15_000, [10_000])


def test_the_template_lists_the_suggestion():
    suggestion = color_up_suggestion(RIMOC_CHIPS, RIMOC.periods)
    assert {i: p.color_up for i, p in enumerate(RIMOC.periods) if p.kind == "break"} == suggestion


def test_a_break_after_the_last_level_looks_at_the_last_level():
    periods = (level(100, 200), BREAK)
    assert later_amounts(periods, 1) == {100, 200}
    # 25s go (100/200 from 100s), the 100s stay: the last chip never goes.
    assert color_up_suggestion([25, 100], (level(25, 50), BREAK, level(100, 200), BREAK)) == {
        1: (25,),
        3: (),
    }


def test_antes_count_and_smallest_first_stops_at_the_first_needed_chip():
    # The 25 ante keeps the 25s; the 100s could go but never before the 25s.
    periods = (level(100, 200), BREAK, level(500, 1_000, 25))
    assert color_up_suggestion([25, 100, 500], periods) == {1: ()}
    periods = (level(100, 200), BREAK, level(500, 1_000, 500))
    assert color_up_suggestion([25, 100, 500], periods) == {1: (25, 100)}


def test_representable_edges():
    assert representable(0, [])
    assert not representable(50, [100])
    assert representable(1_000_000_000, [100, 500])
    assert not representable(1_000_000_050, [100, 500])
    assert representable(7, [3, 5]) is False and representable(8, [3, 5])


def test_chips_in_play_and_warnings_follow_the_listed_color_ups():
    periods = (level(100, 200), Period("break", 600, color_up=(100,)), level(300, 600))
    assert chips_in_play([100, 500], periods, 2) == (500,)
    warnings = chip_warnings([100, 500], periods, starting_stack=10_050)
    assert [(w.code, w.row) for w in warnings] == [
        ("stack_not_payable", None),
        ("blind_not_payable", 2),
    ]
    assert warnings[1].params["amounts"] == [300, 600]
    assert chip_warnings(RIMOC_CHIPS, RIMOC.periods, RIMOC.starting_stack) == []


def _brute(amount: int, values: list[int]) -> bool:
    reach = [True] + [False] * amount
    for n in range(1, amount + 1):
        reach[n] = any(v <= n and reach[n - v] for v in values)
    return reach[amount]


@given(st.integers(0, 400), st.lists(st.integers(1, 60), min_size=1, max_size=4))
def test_representable_agrees_with_brute_force(amount, values):
    assert representable(amount, values) == _brute(amount, values)


CHIP_VALUES = st.lists(
    st.sampled_from([5, 25, 100, 500, 1_000, 2_500, 5_000, 10_000, 25_000]),
    min_size=1,
    max_size=6,
    unique=True,
)


@st.composite
def structures(draw):
    chips = draw(CHIP_VALUES)
    count = draw(st.integers(1, 14))
    bb = draw(st.sampled_from([50, 100, 200, 400]))
    periods = []
    for _ in range(count):
        if periods and draw(st.booleans()) and periods[-1].kind == "level":
            periods.append(BREAK)
            continue
        bb = bb + draw(st.sampled_from([0, 25, 100, 200, 500, 1_000, 5_000]))
        sb = draw(st.sampled_from([bb // 2, bb // 2 + bb // 4, bb]))
        ante = draw(st.sampled_from([0, bb, bb // 4]))
        periods.append(level(max(sb, 1), bb, ante))
    if draw(st.booleans()):
        periods.append(BREAK)
    return chips, tuple(periods)


@given(structures())
def test_every_later_amount_stays_payable_and_removal_is_monotone(case):
    chips, periods = case
    suggestion = color_up_suggestion(chips, periods)
    in_play = sorted(chips)
    last_removed = 0
    for index, period in enumerate(periods):
        if period.kind != "break":
            continue
        removed = suggestion[index]
        assert list(removed) == sorted(removed)
        assert all(v > last_removed for v in removed)  # a chip never goes before a smaller one
        assert list(removed) == in_play[: len(removed)]  # the smallest chips go first
        after = [v for v in in_play if v not in removed]
        assert after  # the last chip stays
        for amount in later_amounts(periods, index):
            if representable(amount, in_play):
                assert representable(amount, after)
        if removed:
            last_removed = removed[-1]
        in_play = after


@given(structures())
def test_applying_the_suggestion_never_warns_about_a_payable_blind(case):
    chips, periods = case
    suggestion = color_up_suggestion(chips, periods)
    applied = tuple(
        Period("break", p.duration_seconds, color_up=suggestion[i]) if p.kind == "break" else p
        for i, p in enumerate(periods)
    )
    before = {w.row for w in chip_warnings(chips, periods)}
    after = {w.row for w in chip_warnings(chips, applied)}
    assert after <= before
