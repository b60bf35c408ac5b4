"""House rules whose effect no other test plays with a non-default value (the index in
tests/tourney/test_every_house_rule.py points here): the rebuy's declaration before the next
hand, the clock call's time and what an expired clock means without a bet, hand-for-hand's
time per hand."""

import pytest
import time_machine

from tests.conftest import numbered_players, seat_players
from tourney.models import Entry, Tournament

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("rebuy_declare_before_next_hand", "later"), [(True, 409), (False, 201)])
def test_a_rebuy_after_the_next_hand(api, structure, room, rebuy_declare_before_next_hand, later):
    """docs/rules.md §2.5: where the house lets a busted player rebuy later, two hands on
    he still may."""
    created = api.post(
        "/tournaments",
        {
            "name": "Rebuy", "structure_id": structure.pk, "starting_stack": 40_000,
            "buy_in": 10_000, "room_id": room.pk, "rebuy_until_level": 3,
            "rebuy_buy_in": 10_000, "rebuy_chips": 40_000, "rebuy_condition": "busted",
            "rules": {"rebuy_declare_before_next_hand": rebuy_declare_before_next_hand},
        },
    )  # fmt: skip
    assert created.status_code == 201, created.json()
    t = Tournament.objects.get(pk=created.json()["id"])
    ids = seat_players(api, t, numbered_players(4))
    api.post(f"/tournaments/{t.pk}/clock/start")
    entry = Entry.objects.get(pk=ids["P0"])
    hands = f"/tournaments/{t.pk}/tables/{entry.tournament_table.number}/hands"
    api.post(f"/tournaments/{t.pk}/eliminations", {"eliminations": [{"entry_id": entry.pk}]})
    assert api.post(hands).status_code == 200
    assert api.post(hands).status_code == 200
    assert api.post(f"/tournaments/{t.pk}/entries/{entry.pk}/rebuy", {}).status_code == later


@pytest.mark.parametrize(("clock_seconds", "expiry_no_bet"), [(25, "check"), (40, "fold")])
def test_the_clock_calls_time_and_expiry(api, tournament, clock_seconds, expiry_no_bet):
    """docs/rules.md §9.2, §9.3: the house's time to act away from the final table and what
    zero means when he faces no bet."""
    tournament.house_rules = "tda2024"
    tournament.rules_overrides = {"clock_seconds": clock_seconds, "expiry_no_bet": expiry_no_bet}
    tournament.save(update_fields=["house_rules", "rules_overrides"])
    seat_players(api, tournament, numbered_players(12))
    entry = Entry.objects.filter(tournament=tournament, tournament_table__number=1).first()
    call = api.post(f"/tournaments/{tournament.pk}/tables/1/clock-calls", {"seat": entry.seat})
    assert call.status_code == 201, call.json()
    assert call.json()["seconds"] == clock_seconds and call.json()["final_table"] is False
    assert call.json()["at_expiry"]["no_bet"] == expiry_no_bet


@pytest.mark.parametrize("h4h_seconds_per_hand", [120, 45])
def test_each_hand_for_hand_hand_takes_the_houses_time_off(api, tournament, h4h_seconds_per_hand):
    """docs/rules.md §11.5 (TDA RP-8): the paused clock loses the house's time per hand."""
    tournament.rules_overrides = {"h4h_seconds_per_hand": h4h_seconds_per_hand}
    tournament.save(update_fields=["rules_overrides"])
    seat_players(api, tournament, numbered_players(16))
    with time_machine.travel("2026-11-29 19:00:00 +01:00", tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        traveller.shift(5 * 60)
        on = api.put(f"/tournaments/{tournament.pk}/hand-for-hand", {"active": True})
        assert on.status_code == 200, on.json()
        for table in (1, 2):
            assert api.post(f"/tournaments/{tournament.pk}/tables/{table}/hands").status_code == 200
        clock = api.get(f"/tournaments/{tournament.pk}/clock").json()
    assert clock["remaining_ms"] == 600_000 - h4h_seconds_per_hand * 1000
