"""Prizes of the finished players (docs/rules.md §12.4): ties, hand-for-hand shares, a deal and
disqualification; hypothesis: the prizes and the forfeited money add up to the pool."""

import itertools

from hypothesis import given
from hypothesis import strategies as st

from tourney.domain.payouts import PAYOUT_TEMPLATES, payouts_for
from tourney.domain.places import Bust, places_for_busts
from tourney.domain.results import Deal, Finisher, awards_for, forfeited_total


def prizes(awards):
    return {entry: a.prize for entry, a in awards.items()}


def test_places_not_tied_get_their_own_prize():
    awards = awards_for((500, 300, 200), [Finisher(1, 1, 1), Finisher(2, 2, 2), Finisher(3, 3, 3)])
    assert prizes(awards) == {1: 500, 2: 300, 3: 200}
    assert all(not a.deal and a.forfeited == 0 for a in awards.values())


def test_rules_11_example_2_equal_stacks_split_14th_and_15th():
    payouts = tuple(range(20_000, 4_000, -1_000))  # 1st 20,000 ... 15th 6,000, 16th 5,000
    placings = places_for_busts(15, [Bust(10, 8_000, 1), Bust(11, 8_000, 2)])
    awards = awards_for(payouts, [Finisher(p.entry_id, p.place, p.place_to) for p in placings])
    assert payouts[13] + payouts[14] == 13_000
    assert prizes(awards) == {10: 6_500, 11: 6_500}


def test_rules_11_example_3_three_share_the_50th_prize():
    payouts = payouts_for(1_000_000, 400, PAYOUT_TEMPLATES["standard"])
    assert len(payouts) == 50
    placings = places_for_busts(
        52, [Bust(1, 900, 1), Bust(2, 5_000, 2), Bust(3, 100, 3)], hand_for_hand=True
    )
    awards = awards_for(payouts, [Finisher(p.entry_id, p.place, p.place_to) for p in placings])
    assert {(a.place, a.place_to) for a in awards.values()} == {(50, 52)}
    assert sum(a.prize for a in awards.values()) == payouts[49]
    assert max(prizes(awards).values()) - min(prizes(awards).values()) <= 1


def test_rules_11_example_4_wsop_two_tables_split_the_50th_prize():
    payouts = payouts_for(1_000_000, 400, PAYOUT_TEMPLATES["standard"], 100)
    placings = places_for_busts(
        51, [Bust(1, 900, 1), Bust(2, 5_000, 2)], hand_for_hand=True, h4h_mode="wsop"
    )
    awards = awards_for(
        payouts, [Finisher(p.entry_id, p.place, p.place_to) for p in placings], unit=100
    )
    assert {(a.place, a.place_to) for a in awards.values()} == {(50, 51)}
    assert sum(prizes(awards).values()) == payouts[49]
    assert all(a.prize % 100 == 0 for a in awards.values())


def test_a_deal_replaces_the_prizes_of_its_players_and_the_winner_takes_what_was_left():
    payouts = (500, 300, 200, 100)
    deal = Deal({1: 380, 2: 330, 3: 240})  # shares 1,000 less 50 left to play for
    finishers = [Finisher(4, 4, 4), Finisher(1, 3, 3), Finisher(3, 2, 2), Finisher(2, 1, 1)]
    awards = awards_for(payouts, finishers, deal=deal)
    assert prizes(awards) == {4: 100, 1: 380, 3: 240, 2: 380}
    assert awards[2].left_to_play == 50 and awards[2].deal and not awards[4].deal
    assert sum(prizes(awards).values()) == sum(payouts)


def test_a_disqualified_player_forfeits_and_nobody_else_gets_more():
    payouts = (500, 300, 200)
    finishers = [Finisher(1, 1, 1), Finisher(2, 2, 2), Finisher(3, 3, 3, disqualified=True)]
    awards = awards_for(payouts, finishers)
    assert prizes(awards) == {1: 500, 2: 300, 3: 0}
    assert awards[3].earned == 200 and forfeited_total(awards) == 200
    kept = awards_for(payouts, finishers, dq_forfeits_prize=False)
    assert prizes(kept)[3] == 200 and forfeited_total(kept) == 0


@st.composite
def fields(draw):
    """A whole field's places: groups (same hand) of tied players, best place first."""
    players = draw(st.integers(1, 60))
    placings, place, entry = [], 1, 0
    while place <= players:
        size = draw(st.integers(1, min(4, players - place + 1)))
        for _ in range(size):
            entry += 1
            dq = draw(st.booleans()) and draw(st.booleans())
            placings.append(Finisher(entry, place, place + size - 1, dq))
        place += size
    return players, placings


@given(
    fields(),
    st.integers(0, 10_000_000),
    st.sampled_from([1, 100, 1_000, 5_000]),
    st.sampled_from(sorted(PAYOUT_TEMPLATES)),
    st.booleans(),
    st.data(),
)
def test_prizes_and_forfeits_add_up_to_the_pool(field, pool, unit, name, with_deal, data):
    players, finishers = field
    payouts = payouts_for(pool, players, PAYOUT_TEMPLATES[name], unit)
    deal = None
    top = [f for f in finishers if f.place_to <= min(players, 9)]
    if with_deal and len(top) >= 2 and all(f.place_to <= len(top) for f in top):
        shared = sum(payouts[: len(top)])
        left = data.draw(st.integers(0, payouts[0] if payouts else 0))
        cuts = sorted(
            data.draw(
                st.lists(
                    st.integers(0, shared - left), min_size=len(top) - 1, max_size=len(top) - 1
                )
            )
        )
        parts = [b - a for a, b in zip([0, *cuts], [*cuts, shared - left], strict=True)]
        deal = Deal({f.entry_id: part for f, part in zip(top, parts, strict=True)})
    awards = awards_for(payouts, finishers, unit=unit, deal=deal)
    assert sum(a.prize for a in awards.values()) + forfeited_total(awards) == sum(payouts)
    assert all(a.prize >= 0 for a in awards.values())
    if deal is None:
        ordered = sorted(awards.values(), key=lambda a: a.place)
        earned = [a.earned for a in ordered]
        # Ties round down to a unit, the odd part to the first sharer: never worse by more.
        assert all(b <= a + unit for a, b in itertools.pairwise(earned))
