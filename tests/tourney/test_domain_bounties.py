"""Bounties (docs/rules.md §16): worked examples and the money's conservation over random
knockout sequences with split pots."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.domain.bounties import (
    Bounty,
    BountyError,
    Knockout,
    Rebought,
    awards_for,
    bounty_book,
    bounty_data,
    bounty_from,
    envelopes_from_template,
    in_mystery_phase,
    mystery_book,
    odd_chip_order,
    split_pot,
)


def test_worked_example_a_split_pot_shares_the_odd_units_left_of_the_button():
    # §16.2: 10,001 between three winners: 3,334, 3,334, 3,333 (first seats left of the button).
    assert split_pot(10_001, [7, 3, 5]) == [3_334, 3_334, 3_333]
    assert split_pot(5_000, [4]) == [5_000]


def test_worked_example_the_winners_in_the_odd_chips_order():
    # §16.2: button on seat 7 of 10; winners in seats 3, 8 and 7: seat 8 first, then 3, then 7.
    assert odd_chip_order([30, 80, 70], {30: 3, 80: 8, 70: 7}, button=7, seats=10) == [80, 30, 70]


def test_worked_example_a_progressive_knockout():
    # §16.3: 5,000 bounties, half in cash. A busts B: 2,500 cash, A's head 7,500. C busts A:
    # 3,750 cash, C's head 8,750. C wins and takes his own 8,750: 12,500 won.
    pko = Bounty("progressive", 5_000)
    book = bounty_book(pko, {1: 1, 2: 1, 3: 1}, [Knockout(2, (1,)), Knockout(1, (3,))], champion=3)
    assert book.won == {1: 2_500, 2: 0, 3: 3_750 + 8_750}
    assert book.on_head == {3: 0}
    assert sum(book.won.values()) == 15_000


def test_worked_example_a_knockout_split_between_two_winners():
    ko = Bounty("knockout", 3_001)
    awards = awards_for(ko, 3_001, busted=9, winners=[4, 6])
    assert [(a.winner, a.cash, a.to_head) for a in awards] == [(4, 1_501, 0), (6, 1_500, 0)]


def test_an_unnamed_winner_leaves_the_bounty_unclaimed_and_the_rest_goes_on():
    book = bounty_book(Bounty("knockout", 100), {1: 1, 2: 1, 3: 1}, [Knockout(2)])
    assert book.unclaimed == {2: 100} and book.on_head == {1: 100, 3: 100}


@pytest.mark.parametrize(
    "knockouts",
    [
        [Knockout(1, (1,))],  # himself
        [Knockout(1, (2, 2))],  # twice
        [Knockout(1, (2,)), Knockout(3, (1,))],  # out already
        [Knockout(1, (2,)), Knockout(1, (3,))],  # busted twice
    ],
)
def test_impossible_knockouts_are_refused(knockouts):
    with pytest.raises(BountyError):
        bounty_book(Bounty("progressive", 100), {1: 1, 2: 1, 3: 1}, knockouts)


def test_a_bounty_is_stored_and_read_back():
    for bounty in (Bounty("knockout", 500), Bounty("progressive", 500, 40), None):
        assert bounty_from(bounty_data(bounty)) == bounty
    with pytest.raises(BountyError):
        Bounty("mystery-box", 5)


@st.composite
def evenings(draw):
    """A field of 2-30 players, bust-outs in a random order down to one, each pot won by one
    to three players still in (or by nobody named), the kind and cash share at random."""
    n = draw(st.integers(2, 30))
    bounty = Bounty(
        draw(st.sampled_from(["knockout", "progressive"])),
        draw(st.integers(1, 100_000)),
        draw(st.integers(0, 100)),
    )
    left = list(range(1, n + 1))
    knockouts = []
    while len(left) > 1:
        busted = left.pop(draw(st.integers(0, len(left) - 1)))
        k = draw(st.integers(0, min(3, len(left))))
        winners = draw(st.permutations(left))[:k]
        knockouts.append(Knockout(busted, tuple(winners)))
    return bounty, n, knockouts, left[0]


@given(evenings())
def test_every_bounty_lands_exactly_once_and_the_pool_is_kept(evening):
    bounty, n, knockouts, champion = evening
    book = bounty_book(bounty, dict.fromkeys(range(1, n + 1), 1), knockouts, champion)
    pool = bounty.amount * n
    assert (
        sum(book.won.values()) + sum(book.on_head.values()) + sum(book.unclaimed.values()) == pool
    )
    assert book.on_head == {champion: 0}
    for ko in knockouts:
        paid = [a for a in book.awards if a.busted == ko.busted]
        assert [a.winner for a in paid] == list(ko.winners)
        assert all(a.cash >= 0 and a.to_head >= 0 for a in paid)
        if bounty.kind == "knockout":
            assert all(a.to_head == 0 for a in paid)


# --- mystery bounties (docs/rules.md §16.5) ----------------------------------------------------


def test_worked_example_the_template_of_20_envelopes():
    values = envelopes_from_template(150_000, 20)
    # weights 8, 4, 4, 2 x 4, 1 x 13: 37 parts of 150,000
    assert values[:8] == [32_433, 16_217, 16_216, 8_108, 8_108, 8_108, 8_108, 4_054]
    assert sum(values) == 150_000 and values == sorted(values, reverse=True)
    assert envelopes_from_template(10, 3) == [6, 2, 2]  # weights 8, 4, 4 of 10: 5, 2, 2 + 1


def test_worked_example_a_split_pot_shares_its_envelope_and_the_winner_takes_the_rest():
    book = mystery_book(
        [9, 5, 1],
        [Knockout(1), Knockout(2, (3, 4), envelope=0, in_phase=True)],  # 1: before the phase
        champion=3,
    )
    assert book.won == {1: 0, 2: 0, 3: 5 + 6, 4: 4}  # 9 split 5/4; 3 takes the 5 and the 1
    assert sum(book.won.values()) == 15


def test_the_phase_by_players_or_level_whichever_first():
    b = Bounty("mystery", 100, phase_level=5, phase_players=20)
    assert not in_mystery_phase(b, 21, 4)
    assert in_mystery_phase(b, 20, 1) and in_mystery_phase(b, 99, 5)
    assert in_mystery_phase(Bounty("mystery", 100), 500, 1)
    assert not in_mystery_phase(Bounty("knockout", 100), 2, 99)
    with pytest.raises(BountyError):
        Bounty("knockout", 100, phase_players=20)


@settings(deadline=None, max_examples=60)  # an evening of up to 300 knockouts an example
@given(
    st.integers(0, 10**9),
    st.integers(1, 300),
    st.randoms(use_true_random=False),
)
def test_envelopes_sum_to_the_pool_and_each_is_drawn_exactly_once(pool, count, rng):
    envelopes = envelopes_from_template(pool, count)
    assert sum(envelopes) == pool and envelopes == sorted(envelopes, reverse=True)
    players = list(range(count + 1))
    knockouts, left = [], list(range(count))
    while len(players) > 1 and left:
        busted = rng.choice(players)
        players.remove(busted)
        winners = tuple(rng.sample(players, k=min(len(players), rng.choice([1, 1, 2, 3]))))
        envelope = left.pop(rng.randrange(len(left)))
        knockouts.append(Knockout(busted, winners, envelope, in_phase=True))
    book = mystery_book(envelopes, knockouts, champion=players[0])
    assert sum(book.won.values()) == pool  # every envelope once: drawn, or the champion's
    drawn = [k.envelope for k in knockouts]
    assert len(drawn) == len(set(drawn))
    with pytest.raises(BountyError):
        mystery_book(
            envelopes, [*knockouts, knockouts[0]] if knockouts else [Knockout(0, (1,), 99, True)]
        )


def test_worked_example_a_rebuy_buys_a_new_bounty():
    """A knockout of 5,000: A busts B, B rebuys (a new head), C busts B again: A and C each
    won 5,000, the two bounties B bought."""
    b = Bounty("knockout", 5_000)
    events = [Knockout(2, (1,)), Rebought(2), Knockout(2, (3,)), Rebought(3)]
    book = bounty_book(b, {1: 1, 2: 1, 3: 1}, events)
    assert book.won == {1: 5_000, 2: 0, 3: 5_000}
    assert book.on_head == {1: 5_000, 3: 10_000}  # C topped up: two bounties on his head
    assert sum(book.won.values()) + sum(book.on_head.values()) == 5 * 5_000
