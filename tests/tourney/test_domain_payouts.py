"""Prize pool, payout structures and amounts by place (docs/rules.md §12): examples, refusals and
hypothesis invariants (no money created or lost, never rising by place)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.payouts import (
    PAYOUT_TEMPLATES,
    SHARE_SCALE,
    PayoutBracket,
    PayoutError,
    PayoutStructure,
    payouts_for,
    percent_text,
    prize_pool,
    shares_from_percents,
    tie_shares,
    validate_shares,
    validate_structure,
)

STANDARD = PAYOUT_TEMPLATES["standard"]


def structure(*brackets: tuple[int, int | None, tuple[str, ...]]) -> PayoutStructure:
    return PayoutStructure(
        "test", tuple(PayoutBracket(a, b, shares_from_percents(p)) for a, b, p in brackets)
    )


SIMPLE = structure((1, 4, ("100",)), (5, 10, ("60", "40")), (11, None, ("50", "30", "20")))


# --- Prize pool --------------------------------------------------------------------------------


def test_prize_pool_with_and_without_overlay():
    assert prize_pool(800_000, 1_000_000) == (1_000_000, 200_000)
    assert prize_pool(1_200_000, 1_000_000) == (1_200_000, 0)
    pool, overlay = prize_pool(500_000)
    assert (pool, overlay) == (500_000, 0)
    with pytest.raises(PayoutError) as error:
        prize_pool(-1)
    assert error.value.code == "negative"


# --- Amounts -----------------------------------------------------------------------------------


def test_payouts_round_to_the_unit_and_give_the_remainder_to_first():
    # 12 entries: 50/30/20 of 1,000,000 is exact.
    assert payouts_for(1_000_000, 12, SIMPLE, 1_000) == (500_000, 300_000, 200_000)
    # 1,234,567 in thousands: 617/370/246 thousands lose 0, 0.2 and 0.8 of a thousand;
    # the one leftover thousand goes to 3rd (lost most), the 567 below a thousand to 1st.
    assert payouts_for(1_234_567, 12, SIMPLE, 1_000) == (617_567, 370_000, 247_000)


def test_the_bracket_follows_the_entries():
    assert payouts_for(100, 4, SIMPLE) == (100,)
    assert payouts_for(100, 5, SIMPLE) == (60, 40)
    assert payouts_for(100, 10_000, SIMPLE) == (50, 30, 20)


def test_equal_shares_get_equal_amounts_or_the_better_place_more():
    flat = structure((1, 3, ("100",)), (4, None, ("25", "25", "25", "25")))
    assert payouts_for(10_002, 4, flat, 1) == (2_501, 2_501, 2_500, 2_500)
    assert payouts_for(1_000, 4, flat, 300) == (400, 300, 300, 0)


def test_a_pool_smaller_than_the_unit_goes_to_first():
    assert payouts_for(999, 12, SIMPLE, 1_000) == (999, 0, 0)


@pytest.mark.parametrize(
    ("args", "code"),
    [
        ((-5, 12, SIMPLE, 1), "negative"),
        ((100, 12, SIMPLE, 0), "bad_unit"),
        ((100, 0, SIMPLE, 1), "no_entries"),
        ((100, 20, structure((1, 10, ("100",))), 1), "no_bracket"),
    ],
)
def test_payout_refusals(args, code):
    with pytest.raises(PayoutError) as error:
        payouts_for(*args)
    assert error.value.code == code


@given(
    pool=st.integers(0, 10**12),
    entries=st.integers(1, 20_000),
    unit=st.sampled_from([1, 5, 100, 500, 1_000, 5_000, 10_000]),
    template=st.sampled_from(sorted(PAYOUT_TEMPLATES)),
)
def test_payouts_sum_to_the_pool_never_rise_and_use_the_unit(pool, entries, unit, template):
    structure_ = PAYOUT_TEMPLATES[template]
    amounts = payouts_for(pool, entries, structure_, unit)
    assert sum(amounts) == pool
    assert list(amounts) == sorted(amounts, reverse=True)
    assert all(a % unit == 0 for a in amounts[1:])
    assert amounts[0] % unit == pool % unit
    assert len(amounts) == structure_.bracket_for(entries).places_paid <= entries


@given(
    st.lists(st.integers(1, 10_000), min_size=1, max_size=30),
    st.integers(0, 10**10),
    st.integers(1, 10_000),
)
def test_any_valid_table_pays_the_pool_exactly(weights, pool, unit):
    weights.sort(reverse=True)
    total = sum(weights)
    shares = [w * SHARE_SCALE // total for w in weights]
    shares[0] += SHARE_SCALE - sum(shares)
    table = PayoutStructure("t", (PayoutBracket(len(shares), None, tuple(shares)),))
    amounts = payouts_for(pool, len(shares), table, unit)
    assert sum(amounts) == pool
    assert list(amounts) == sorted(amounts, reverse=True)
    # Each place is within one unit of its exact share (1st also takes the part below a unit).
    pool_units = pool // unit
    for place, (amount, share) in enumerate(zip(amounts, shares, strict=True)):
        exact = pool_units * unit * share / SHARE_SCALE
        slack = unit + (pool % unit if place == 0 else 0)
        assert abs(amount - exact) <= slack


# --- Validation --------------------------------------------------------------------------------


def test_templates_are_valid_and_sensible():
    for name, template in PAYOUT_TEMPLATES.items():
        validate_structure(template)
        assert template.brackets[-1].max_entries is None, name
    # The standard table pays about 12.5 % of big fields and 10-30 % to the winner.
    for entries in (100, 1_000, 10_000):
        bracket = STANDARD.bracket_for(entries)
        assert 0.1 <= bracket.places_paid / entries <= 0.15
        assert 0.10 * SHARE_SCALE <= bracket.shares[0] <= 0.30 * SHARE_SCALE
    assert STANDARD.bracket_for(10).shares == shares_from_percents(["50", "30", "20"])
    # The min-cash of a 10,000-entry field is about one and a half buy-ins.
    min_cash = STANDARD.bracket_for(10_000).shares[-1] * 10_000 / SHARE_SCALE
    assert 1.4 <= min_cash <= 2.0
    flat, heavy = PAYOUT_TEMPLATES["flat"], PAYOUT_TEMPLATES["winner-heavy"]
    for entries in (30, 300, 3_000):
        firsts = [t.bracket_for(entries).shares[0] for t in (flat, STANDARD, heavy)]
        assert firsts == sorted(firsts)


def test_a_table_not_summing_to_100_percent_is_refused():
    with pytest.raises(PayoutError) as error:
        validate_shares(shares_from_percents(["50", "30", "15"]))
    assert error.value.code == "percent_sum"
    assert error.value.message == "The percentages add up to 95 %, not 100 %."
    with pytest.raises(PayoutError) as error:
        validate_structure(structure((1, 2, ("100",)), (3, None, ("55", "30", "20"))))
    assert error.value.code == "percent_sum"
    assert error.value.bracket == 3
    assert "105 %" in error.value.message


@pytest.mark.parametrize(
    ("brackets", "code"),
    [
        (((1, None, ("30", "50", "20")),), "share_order"),
        (((1, None, ("100", "0")),), "share_positive"),
        (((1, 2, ("50", "30", "20")), (3, None, ("100",))), "too_many_places"),
        (((2, None, ("100",)),), "bracket_gap"),
        (((1, 5, ("100",)), (7, None, ("100",))), "bracket_gap"),
        (((1, 5, ("100",)), (5, None, ("100",))), "bracket_overlap"),
        (((1, None, ("100",)), (5, None, ("100",))), "bracket_overlap"),
        (((1, 5, ("100",)), (6, 4, ("100",))), "bracket_range"),
        (((1, None, ()),), "no_places"),
        ((), "no_brackets"),
    ],
)
def test_structure_refusals(brackets, code):
    with pytest.raises(PayoutError) as error:
        validate_structure(structure(*brackets))
    assert error.value.code == code


def test_percent_text_round_trip_and_refusals():
    assert shares_from_percents(["50", "12,5", "0.0150", 3]) == (500_000, 125_000, 150, 30_000)
    assert [percent_text(s) for s in (500_000, 125_000, 150, 1)] == [
        "50",
        "12.5",
        "0.015",
        "0.0001",
    ]
    with pytest.raises(PayoutError) as error:
        shares_from_percents(["12.00001"])
    assert error.value.code == "percent_precision"
    with pytest.raises(PayoutError) as error:
        shares_from_percents(["ten"])
    assert error.value.code == "bad_percent"


# --- Ties --------------------------------------------------------------------------------------


def test_example_2_tied_players_share_the_sum_of_their_places():
    payouts = (500, 300, 200, 150, 100)
    assert tie_shares(payouts, 4, 5) == (125, 125)
    assert tie_shares(payouts, 4, 5, unit=20) == (130, 120)


def test_example_3_ties_past_the_paid_places_share_what_is_paid():
    payouts = tuple(range(1_000, 0, -20))  # 50 places paid
    assert len(payouts) == 50
    assert tie_shares(payouts, 50, 52) == (7, 7, 6)
    assert tie_shares(payouts, 51, 52) == (0, 0)


@given(st.lists(st.integers(0, 10**6), min_size=1, max_size=20).map(sorted), st.data())
def test_tie_shares_sum_to_the_places_shared(amounts, data):
    payouts = tuple(reversed(amounts))
    place = data.draw(st.integers(1, len(payouts) + 2))
    place_to = data.draw(st.integers(place, place + 5))
    unit = data.draw(st.sampled_from([1, 10, 1_000]))
    shares = tie_shares(payouts, place, place_to, unit)
    assert len(shares) == place_to - place + 1
    assert sum(shares) == sum(payouts[place - 1 : place_to])
