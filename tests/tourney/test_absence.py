"""Absent players (docs/rules.md §2.3): marking, arrival, and the deadline where the profile
eliminates them (Rimóc: one level); time moved by time-machine, never slept."""

import pytest
import time_machine
from django.urls import reverse

from clocks.clock.usecases import clocks_advance_due
from tests.conftest import seat_players
from tourney.models import AuditEntry, Entry, Tournament, TournamentEvent

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 19:00:00 +01:00"
T0_MS = 1_795_975_200_000


def absent(api, tournament, entry_id, what="absent"):
    return api.post(f"/tournaments/{tournament.pk}/entries/{entry_id}/{what}")


def test_mark_absent_and_arrived_through_the_api(api, api_as, tournament):
    ids = seat_players(api, tournament, ["A", "X"])
    floor = api_as("floor")
    response = absent(floor, tournament, ids["X"])
    assert response.status_code == 200 and response.json()["absent"] is True
    again = absent(floor, tournament, ids["X"])
    assert again.status_code == 409 and again.json()["code"] == "already_absent"
    back = absent(floor, tournament, ids["X"], "arrived")
    assert back.status_code == 200 and back.json()["absent"] is False
    actions = list(
        AuditEntry.objects.filter(tournament=tournament, action__startswith="entry.a")
        .order_by("id")
        .values_list("action", flat=True)
    )
    assert actions == ["entry.absent", "entry.arrived"]
    events = TournamentEvent.objects.filter(tournament=tournament, kind="entry").order_by("-id")
    assert [e.payload["action"] for e in events[:2]] == ["arrived", "absent"]
    assert absent(api_as("desk"), tournament, ids["A"]).status_code == 403


def test_only_a_seated_player_can_be_marked_absent(api, tournament):
    pid = api.post("/players", {"name": "Early"}).json()["id"]
    entry = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid}).json()
    response = absent(api, tournament, entry["id"])  # before the draw: no seat yet
    assert response.status_code == 409 and response.json()["code"] == "entry_not_seated"


def test_rules_2_example_1_absent_at_the_end_of_level_1_is_eliminated(api, tournament):
    """`eliminate_after_levels:1`: X is still absent at 19:15, the end of L1. X is eliminated
    at the next finishing place and the stack is removed."""
    ids = seat_players(api, tournament, ["A", "B", "C", "X"])
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        absent(api, tournament, ids["X"])
        traveller.shift(15 * 60 - 1)
        clocks_advance_due()
        assert Entry.objects.get(pk=ids["X"]).status == "active"  # 19:14:59, still waiting
        traveller.shift(1)
        assert clocks_advance_due() == 1
        clocks_advance_due()
    x = Entry.objects.get(pk=ids["X"])
    assert (x.status, x.place) == ("eliminated", 4)
    tournament.refresh_from_db()
    assert tournament.chips_removed == 40_000
    summary = api.get(f"/tournaments/{tournament.pk}").json()
    assert summary["players_remaining"] == 3
    assert summary["total_chips"] == 3 * 40_000  # X's stack left play
    assert summary["average_stack"] == 40_000
    events = list(TournamentEvent.objects.filter(tournament=tournament, kind="eliminations"))
    assert len(events) == 1
    payload = events[0].payload
    assert payload["reason"] == "absent" and (payload["place_from"], payload["place_to"]) == (4, 4)
    assert [
        (r["entry_id"], r["player_name"], r["place"], r["place_to"]) for r in payload["results"]
    ] == [(ids["X"], "X", 4, 4)]
    assert AuditEntry.objects.filter(tournament=tournament, action="entry.eliminate").count() == 1


def test_two_absent_players_share_the_place_range_once_after_an_outage(api, tournament):
    ids = seat_players(api, tournament, ["A", "B", "C", "X", "Y"])
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        absent(api, tournament, ids["X"])
        absent(api, tournament, ids["Y"])
        traveller.shift(46 * 60)  # the timer was down: L1-L3 over at once
        assert clocks_advance_due() == 3
        traveller.shift(15 * 60)
        clocks_advance_due()
    places = {e.player.name: e.place for e in Entry.objects.filter(status="eliminated")}
    assert places == {"X": 4, "Y": 4}  # they share 4th-5th
    events = TournamentEvent.objects.filter(tournament=tournament, kind="eliminations")
    assert events.count() == 1
    assert (events[0].payload["place_from"], events[0].payload["place_to"]) == (4, 5)
    tournament.refresh_from_db()
    assert tournament.chips_removed == 80_000


def test_a_player_who_arrives_in_time_plays_on(api, tournament):
    ids = seat_players(api, tournament, ["A", "X"])
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        absent(api, tournament, ids["X"])
        traveller.shift(10 * 60)
        absent(api, tournament, ids["X"], "arrived")
        traveller.shift(6 * 60)
        clocks_advance_due()
    assert Entry.objects.get(pk=ids["X"]).status == "active"


def test_a_manual_skip_does_not_eliminate_until_the_clock_moves_on_its_own(api, tournament):
    ids = seat_players(api, tournament, ["A", "B", "X"])
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        absent(api, tournament, ids["X"])
        traveller.shift(60)
        api.post(f"/tournaments/{tournament.pk}/clock/next")  # by mistake: undoable
        assert Entry.objects.get(pk=ids["X"]).status == "active"
        traveller.shift(15 * 60)  # L2 ends on its own
        clocks_advance_due()
    assert Entry.objects.get(pk=ids["X"]).status == "eliminated"


def test_blind_off_eliminates_nobody(api, structure, room):
    tid = api.post(
        "/tournaments",
        {
            "name": "TDA",
            "structure_id": structure.pk,
            "starting_stack": 40_000,
            "buy_in": 100,
            "room_id": room.pk,
            "house_rules": "tda2024",
        },
    ).json()["id"]
    tournament = Tournament.objects.get(pk=tid)
    ids = seat_players(api, tournament, ["A", "X"])
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tid}/clock/start")
        absent(api, tournament, ids["X"])
        traveller.shift(2 * 3600)
        clocks_advance_due()
    assert Entry.objects.get(pk=ids["X"]).status == "active"
    assert not TournamentEvent.objects.filter(tournament_id=tid, kind="eliminations").exists()


def test_a_player_marked_away_during_play_waits_his_own_level(api, tournament):
    """Rimóc's one level at any time (docs/rules.md §2.3, example 1): X goes missing 5 minutes
    into level 2; the end of level 2 is not enough, the end of level 3 puts him out."""
    ids = seat_players(api, tournament, ["A", "B", "C", "X"])
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        traveller.shift(20 * 60)
        clocks_advance_due()
        absent(api, tournament, ids["X"])
        assert Entry.objects.get(pk=ids["X"]).absent_level == 2
        traveller.shift(10 * 60)  # 19:30, the end of level 2
        clocks_advance_due()
        assert Entry.objects.get(pk=ids["X"]).status == "active"
        traveller.shift(15 * 60)  # 19:45, the end of level 3
        clocks_advance_due()
    x = Entry.objects.get(pk=ids["X"])
    assert (x.status, x.place) == ("eliminated", 4)
    undo = api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['X']}/undo")
    assert undo.status_code == 200, undo.json()
    x.refresh_from_db()
    assert (x.status, x.absent_since) == ("active", None)  # he was there after all


def test_doyle_a_player_away_when_the_money_is_reached_wins_nothing(
    api, director_client, tournament, payout_templates
):
    """Doyle #5 (`absent_itm_forfeit`): on the bubble the console asks who is away; X is away
    when the bubble bursts, so X's place pays him nothing; the undo of that bust-out takes it
    back."""
    tournament.house_rules = "doyle"
    tournament.rules_overrides = {"membership_required": False}  # members' cards aside
    tournament.save(update_fields=["house_rules", "rules_overrides"])
    names = [f"P{i}" for i in range(15)]
    ids = seat_players(api, tournament, names)
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    paid = len(api.get(f"/tournaments/{tournament.pk}/payouts").json())
    assert 1 < paid < 14
    order = [ids[n] for n in names if n != "P0"]
    console = reverse("tourney:console", args=[tournament.pk])
    while Entry.objects.filter(tournament=tournament, status="active").count() > paid + 1:
        api.post(
            f"/tournaments/{tournament.pk}/eliminations",
            {"eliminations": [{"entry_id": order.pop()}]},
        )
    assert 'id="absent-bubble"' in director_client.get(console).content.decode()
    assert absent(api, tournament, ids["P0"]).status_code == 200
    burst = order.pop()
    api.post(f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": burst}]})
    assert Entry.objects.get(pk=ids["P0"]).absent_at_money is not None
    assert 'id="absent-bubble"' not in director_client.get(console).content.decode()
    undo = api.post(f"/tournaments/{tournament.pk}/eliminations/{burst}/undo")
    assert undo.status_code == 200, undo.json()
    assert Entry.objects.get(pk=ids["P0"]).absent_at_money is None
    api.post(f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": burst}]})
    api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": ids["P0"]}]}
    )
    results = api.get(f"/tournaments/{tournament.pk}/results").json()
    rows = results if isinstance(results, list) else results["rows"]
    p0 = next(r for r in rows if r["entry_id"] == ids["P0"])
    assert p0["place"] == paid and p0["earned"] > 0 and p0["prize"] == 0 and p0["forfeited"]


@pytest.mark.parametrize(("absent_policy", "wait", "out_at_minute"), [
    ("eliminate", 1, 15), ("eliminate", 2, 30), ("blind_off", 1, None),
])  # fmt: skip
def test_the_policy_and_the_wait_decide_when_he_is_out(
    api, tournament, absent_policy, wait, out_at_minute
):
    """absent_policy and absent_eliminate_after_levels (docs/rules.md §2.3): a no-show marked
    at the start is out after one level, after two with a wait of two, never when the house
    blinds him off."""
    tournament.rules_overrides = {
        "absent_policy": absent_policy, "absent_eliminate_after_levels": wait,
    }  # fmt: skip
    tournament.save(update_fields=["rules_overrides"])
    ids = seat_players(api, tournament, ["A", "B", "X"])
    out = []
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        absent(api, tournament, ids["X"])
        for minute in (15, 30, 45):
            traveller.move_to(f"2026-11-29 19:{minute:02d}:00 +01:00")
            clocks_advance_due()
            if Entry.objects.get(pk=ids["X"]).status == "eliminated" and not out:
                out.append(minute)
    assert (out[0] if out else None) == out_at_minute
