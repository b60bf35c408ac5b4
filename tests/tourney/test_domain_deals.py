"""Deal calculators (docs/rules.md §12.5): ICM and chip chop rounded to the unit, summing to what is
shared; the amount left to play for; amounts agreed by hand."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.deals import DealError, agreed_amounts_check, deal_prizes, deal_quote


def test_deal_shares_the_places_left_less_what_is_played_for():
    assert deal_prizes((500, 300, 200, 100), 3, 50) == (450, 300, 200)
    assert deal_prizes((500, 300), 4) == (500, 300, 0, 0)
    for players, left, code in (
        (1, 0, "deal_too_few"),
        (3, 501, "left_to_play_invalid"),
        (3, -1, "left_to_play_invalid"),
    ):
        with pytest.raises(DealError) as error:
            deal_prizes((500, 300, 200), players, left)
        assert error.value.code == code


def test_icm_favours_the_big_stack_and_chip_chop_pays_the_lowest_prize_first():
    icm = deal_quote("icm", [50_000, 30_000, 20_000], (5_000, 3_000, 2_000), unit=100)
    chop = deal_quote("chip_chop", [50_000, 30_000, 20_000], (5_000, 3_000, 2_000), unit=100)
    assert sum(icm.amounts) == sum(chop.amounts) == 10_000
    assert icm.amounts[0] > icm.amounts[1] > icm.amounts[2]
    # Chip chop: 2,000 each, then 4,000 by chips 5:3:2.
    assert chop.amounts == (4_000, 3_200, 2_800)
    assert icm.exact and icm.max_error == 0


def test_quote_refusals():
    with pytest.raises(DealError) as error:
        deal_quote("coin_flip", [1, 2], (10,))
    assert error.value.code == "deal_method"
    with pytest.raises(DealError) as error:
        deal_quote("icm", [100, -5], (10,))
    assert error.value.code == "bad_stack"


def test_agreed_amounts_must_add_up_and_not_be_negative():
    agreed_amounts_check([600, 400], 1_000)
    with pytest.raises(DealError) as error:
        agreed_amounts_check([600, 300], 1_000)
    assert error.value.code == "deal_sum"
    with pytest.raises(DealError) as error:
        agreed_amounts_check([1_100, -100], 1_000)
    assert error.value.code == "deal_amount_negative"


@given(
    st.lists(st.integers(1, 10_000_000), min_size=2, max_size=9),
    st.lists(st.integers(0, 5_000_000), min_size=1, max_size=9),
    st.sampled_from(["icm", "chip_chop"]),
    st.sampled_from([1, 100, 1_000]),
)
def test_deal_amounts_always_add_up_to_what_is_shared(stacks, payouts, method, unit):
    payouts = tuple(sorted(payouts, reverse=True))
    quote = deal_quote(method, stacks, payouts, unit=unit)
    assert sum(quote.amounts) == quote.pool == sum(payouts[: len(stacks)])
    assert abs(sum(quote.equities) - quote.pool) <= 1e-6 * max(1, quote.pool)
    assert all(a >= 0 for a in quote.amounts)
