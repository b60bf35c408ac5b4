"""Hand-for-hand (docs/rules.md §11.5, TDA RP-8): every table plays one hand and waits; the clock is
paused and each hand takes the house's seconds off the level; bust-outs in one hand-for-hand
hand share places across tables."""

import pytest
import time_machine

from tables.models import TournamentTable
from tests.conftest import numbered_players, seat_players
from tourney.models import Entry, Tournament

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 19:00:00 +01:00"


def h4h(api, tournament, active=True):
    return api.put(f"/tournaments/{tournament.pk}/hand-for-hand", {"active": active})


def hand(api, tournament, number):
    return api.post(f"/tournaments/{tournament.pk}/tables/{number}/hands")


def test_hand_for_hand_hands_take_time_off_the_paused_clock(api, tournament):
    seat_players(api, tournament, numbered_players(16))
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        traveller.shift(5 * 60)  # 10:00 left in level 1
        response = h4h(api, tournament)
        assert response.status_code == 200, response.json()
        assert response.json()["hand"] == 1 and response.json()["tables_playing"] == [1, 2]
        clock = api.get(f"/tournaments/{tournament.pk}/clock").json()
        assert clock["status"] == "paused" and clock["remaining_ms"] == 600_000
        assert hand(api, tournament, 1).status_code == 200
        waiting = hand(api, tournament, 1)  # table 1 must wait for table 2
        assert waiting.status_code == 409 and waiting.json()["code"] == "h4h_wait"
        state = api.get(f"/tournaments/{tournament.pk}/hand-for-hand").json()
        assert state["tables_done"] == [1] and state["tables_playing"] == [2]
        assert hand(api, tournament, 2).status_code == 200
        state = api.get(f"/tournaments/{tournament.pk}/hand-for-hand").json()
        assert state["hand"] == 2 and state["tables_done"] == []
        clock = api.get(f"/tournaments/{tournament.pk}/clock").json()
        assert clock["remaining_ms"] == 600_000 - 120_000  # Rimóc: TDA's 2 minutes a hand
        stop = h4h(api, tournament, False)
        assert stop.status_code == 200 and stop.json()["active"] is False
        assert api.get(f"/tournaments/{tournament.pk}/clock").json()["status"] == "running"


def test_hand_for_hand_is_refused_on_one_table_and_twice(api, tournament):
    seat_players(api, tournament, numbered_players(6))
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    one = h4h(api, tournament)
    assert one.status_code == 409 and one.json()["code"] == "single_table"
    assert h4h(api, tournament, False).json()["code"] == "h4h_not_on"


def test_rules_11_example_3_busts_of_one_hand_for_hand_hand_share_places(api, tournament):
    """TDA RP-8: everyone busting in the same hand-for-hand hand shares the places reached,
    whichever table and stack (here 3 of 16 left: places 14 to 16)."""
    ids = seat_players(api, tournament, numbered_players(16))
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    h4h(api, tournament)
    by_table: dict[int, list[int]] = {}
    for entry in Entry.objects.filter(tournament=tournament, status="active"):
        by_table.setdefault(entry.tournament_table.number, []).append(entry.pk)
    first = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": by_table[1][0], "hand_start_stack": 30_000}]},
    ).json()
    assert [(r["place"], r["place_to"]) for r in first["results"]] == [(16, 16)]
    second = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {
            "eliminations": [
                {"entry_id": by_table[2][0], "hand_start_stack": 50_000},
                {"entry_id": by_table[2][1], "hand_start_stack": 10_000},
            ]
        },
    ).json()
    assert sorted((r["place"], r["place_to"]) for r in second["results"]) == [(14, 16)] * 3
    assert sorted(
        Entry.objects.filter(tournament=tournament, status="eliminated").values_list(
            "place", flat=True
        )
    ) == [14, 14, 14]
    # The next hand-for-hand hand is a new group.
    hand(api, tournament, 1)
    hand(api, tournament, 2)
    third = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": by_table[1][1]}]},
    ).json()
    assert [(r["place"], r["place_to"]) for r in third["results"]] == [(13, 13)]
    assert ids  # every name was seated


def test_wsop_mode_orders_busts_at_one_table_by_stack(api, tournament):
    tournament.rules_overrides = {"h4h_mode": "wsop"}
    tournament.save(update_fields=["rules_overrides"])
    seat_players(api, tournament, numbered_players(16))
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    h4h(api, tournament)
    t1 = list(
        Entry.objects.filter(tournament=tournament, tournament_table__number=1).values_list(
            "pk", flat=True
        )
    )
    t2 = list(
        Entry.objects.filter(tournament=tournament, tournament_table__number=2).values_list(
            "pk", flat=True
        )
    )
    api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {
            "eliminations": [
                {"entry_id": t1[0], "hand_start_stack": 30_000},
                {"entry_id": t1[1], "hand_start_stack": 10_000},
            ]
        },
    )
    response = api.post(
        f"/tournaments/{tournament.pk}/eliminations",
        {"eliminations": [{"entry_id": t2[0], "hand_start_stack": 5_000}]},
    ).json()
    places = {r["entry_id"]: (r["place"], r["place_to"]) for r in response["results"]}
    # Best at each table tie for 14-15; the smaller stack at table 1 is 16th.
    assert places == {t1[0]: (14, 15), t2[0]: (14, 15), t1[1]: (16, 16)}


def test_hand_for_hand_ends_by_itself_at_the_final_table(api, tournament):
    """Rimóc: 11 players on two tables; hand-for-hand on; two bust-outs bring the field to
    the final table of 9, where hand-for-hand ends and the paused clock runs again."""
    ids = seat_players(api, tournament, numbered_players(11))
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    assert h4h(api, tournament).status_code == 200
    api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": ids["P0"]}]}
    )
    assert Tournament.objects.get(pk=tournament.pk).hand_for_hand is True
    response = api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": ids["P1"]}]}
    )
    assert [a["kind"] for a in response.json()["actions"]] == ["final_table_redraw"]
    assert TournamentTable.objects.filter(tournament=tournament, status="open").count() == 1
    assert Tournament.objects.get(pk=tournament.pk).hand_for_hand is False
    assert api.get(f"/tournaments/{tournament.pk}/clock").json()["status"] == "running"
