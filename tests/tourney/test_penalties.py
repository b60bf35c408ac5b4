"""Penalties through the API (docs/rules.md §10): the worked examples, the count from hand reports
with misdeals and a move between tables, the time estimate, disqualification and its undo,
refusals that change nothing, season bans at the desk and a player's history."""

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest
import time_machine

from tables.models import TournamentTable
from tests.conftest import numbered_players, seat_players
from tourney.models import (
    AuditEntry,
    Elimination,
    Entry,
    Penalty,
    PlayerBan,
    Season,
    Tournament,
    TournamentEvent,
)
from tourney.tournaments.usecases import tournament_create

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 21:00:00 +01:00"


def start(api, tournament, count):
    ids = seat_players(api, tournament, numbered_players(count))
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    return ids


def give(api, tournament, entry_id, kind="missed_hands", reason="Swearing", **extra):
    return api.post(
        f"/tournaments/{tournament.pk}/penalties",
        {"entry_id": entry_id, "kind": kind, "reason": reason, **extra},
    )


def hand(api, tournament, table, **extra):
    response = api.post(f"/tournaments/{tournament.pk}/tables/{table}/hands", extra)
    assert response.status_code == 200, response.json()
    return response


def serving(api, tournament):
    return api.get(f"/tournaments/{tournament.pk}/penalties?status=serving").json()


def state(tournament):
    """Everything a refused penalty must leave alone."""
    tournament.refresh_from_db()
    return (
        Penalty.objects.count(),
        AuditEntry.objects.count(),
        TournamentEvent.objects.count(),
        tournament.chips_removed,
        list(Entry.objects.order_by("pk").values_list("status", "place", "disqualified_at")),
    )


def test_example_1_nine_players_two_rounds_is_18_hands(api, tournament):
    ids = start(api, tournament, 9)
    response = give(api, tournament, ids["P3"], rounds=2)
    assert response.status_code == 201, response.json()
    row = response.json()["penalty"]
    assert (row["kind"], row["rounds"], row["players_at_table"], row["hands"]) == (
        "missed_rounds",
        2,
        9,
        18,
    )
    assert row["status"] == "serving" and row["hands_left"] == 18 and row["started"] is False
    same = give(api, tournament, ids["P4"], kind="missed_rounds", rounds=2).json()["penalty"]
    assert same["hands"] == 18


def test_example_2_six_players_one_round_is_6_hands_even_when_more_join(api, tournament):
    ids = start(api, tournament, 6)
    row = give(api, tournament, ids["P0"], rounds=1).json()["penalty"]
    assert row["hands"] == 6
    newcomer = api.post("/players", {"name": "Late Lajos"}).json()["id"]
    assert api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": newcomer}).json()[
        "table"
    ]
    assert Entry.objects.filter(tournament=tournament, status="active").count() == 7
    hand(api, tournament, 1)  # the hand in play when it was given
    hand(api, tournament, 1)
    assert serving(api, tournament)[0]["hands"] == 6
    assert serving(api, tournament)[0]["hands_left"] == 5


def test_example_3_a_misdeal_counts_once_and_the_last_hand_ends_the_penalty(api, tournament):
    ids = start(api, tournament, 6)
    penalty_id = give(api, tournament, ids["P2"], hands=3).json()["penalty"]["id"]
    table = TournamentTable.objects.get(tournament=tournament, number=1)
    button = table.button_seat
    hand(api, tournament, 1)  # the hand in play: the penalty starts after it
    assert serving(api, tournament)[0]["hands_left"] == 3
    assert serving(api, tournament)[0]["started"] is True
    hand(api, tournament, 1)
    assert serving(api, tournament)[0]["hands_left"] == 2
    misdeal = hand(api, tournament, 1, misdeal=True).json()
    table.refresh_from_db()
    assert misdeal["button_seat"] == table.button_seat  # the button stays on a misdeal
    assert serving(api, tournament)[0]["hands_left"] == 2
    hand(api, tournament, 1)  # the redeal: misdeal + redeal = one hand
    assert serving(api, tournament)[0]["hands_left"] == 1
    events_before = TournamentEvent.objects.filter(kind="penalty").count()
    hand(api, tournament, 1)
    assert serving(api, tournament) == []
    penalty = Penalty.objects.get(pk=penalty_id)
    assert penalty.served_at is not None
    served = TournamentEvent.objects.filter(kind="penalty").order_by("id")
    assert served.count() == events_before + 1
    assert served.last().payload["action"] == "served"
    assert served.last().payload["penalty"]["status"] == "served"
    assert button != table.button_seat or table.hands_played == 4


def test_example_4_disqualification_removes_the_chips_and_the_entry(api, tournament):
    ids = start(api, tournament, 12)
    before = api.get(f"/tournaments/{tournament.pk}").json()
    response = give(
        api, tournament, ids["P5"], kind="disqualification", reason="Collusion", chips=23_400
    )
    assert response.status_code == 201, response.json()
    row = response.json()["penalty"]
    assert row["status"] == "given" and row["chips_removed"] == 23_400
    after = api.get(f"/tournaments/{tournament.pk}").json()
    assert before["total_chips"] - after["total_chips"] == 23_400
    assert after["players_remaining"] == before["players_remaining"] - 1
    entry = Entry.objects.get(pk=ids["P5"])
    assert entry.status == "eliminated" and entry.disqualified_at is not None
    assert entry.place == 12  # the next finishing place, like a bust
    elimination = Elimination.objects.get(entry=entry, undone_at=None)
    assert elimination.reason == "disqualified"
    # A re-entry into the same tournament is refused.
    again = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": entry.player_id}).json()
    assert again["code"] == "player_disqualified"
    # Not as a bust-out: that would leave the chips out and the player marked disqualified.
    as_bust = api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['P5']}/undo")
    assert as_bust.status_code == 409 and as_bust.json()["code"] == "disqualified"
    entry.refresh_from_db()
    assert entry.status == "eliminated" and entry.disqualified_at is not None
    # The undo puts the player back with the chips.
    undone = api.post(f"/tournaments/{tournament.pk}/penalties/{row['id']}/undo")
    assert undone.status_code == 200, undone.json()
    assert undone.json()["penalty"]["status"] == "undone"
    entry.refresh_from_db()
    assert entry.status == "active" and entry.disqualified_at is None and entry.place is None
    restored = api.get(f"/tournaments/{tournament.pk}").json()
    assert restored["total_chips"] == before["total_chips"]
    assert restored["players_remaining"] == before["players_remaining"]
    again = api.post(f"/tournaments/{tournament.pk}/penalties/{row['id']}/undo")
    assert again.status_code == 409 and again.json()["code"] == "already_undone"


def test_a_disqualification_with_a_ban_for_the_day_is_lifted_by_the_undo(api, tournament):
    ids = start(api, tournament, 6)
    with time_machine.travel("2026-11-29 22:30:00 +01:00", tick=False):
        row = give(
            api, tournament, ids["P1"], kind="disqualification", chips=40_000, ban="day"
        ).json()["penalty"]
        # The room's gaming day ends at 06:00 (its default), not at midnight.
        morning = datetime(2026, 11, 30, 6, 0, tzinfo=ZoneInfo("Europe/Budapest"))
        assert row["ban"]["ends_at_ms"] == morning.timestamp() * 1000
        ban = PlayerBan.objects.get(penalty_id=row["id"])
        assert ban.lifted_at is None
        api.post(f"/tournaments/{tournament.pk}/penalties/{row['id']}/undo")
        ban.refresh_from_db()
        assert ban.lifted_at is not None


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"rounds": 0}, 422, "bad_rounds"),
        ({"hands": 0}, 422, "bad_hands"),
        ({}, 422, "bad_hands"),  # no house fixed_hands in this profile
        ({"rounds": 2, "hands": 3}, 422, "invalid_input"),
        ({"rounds": 1, "reason": "   "}, 422, "invalid_reason"),
        ({"kind": "disqualification"}, 422, "chips_required"),
        ({"kind": "disqualification", "chips": 10**9}, 422, "too_many_chips"),
        ({"kind": "disqualification", "chips": 100, "ban": "season"}, 409, "no_season"),
        ({"kind": "warning", "ban": "day"}, 422, "invalid_ban"),
        ({"kind": "disqualification", "chips": 1, "ban": "days"}, 422, "invalid_ban_days"),
    ],
)
def test_refusals_change_nothing(api, tournament, body, status, code):
    ids = start(api, tournament, 6)
    before = state(tournament)
    response = give(api, tournament, ids["P0"], **{"kind": "missed_hands", **body})
    assert response.status_code == status, response.json()
    assert response.json()["code"] == code and response.json()["detail"]
    assert state(tournament) == before


def test_busted_player_rounds_above_the_house_maximum_and_a_second_sit_out_are_refused(
    api, api_as, tournament
):
    tournament.house_rules = "mirage"  # at most 1 round, fixed 3 hands
    tournament.save(update_fields=["house_rules"])
    ids = start(api, tournament, 6)
    api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": ids["P0"]}]}
    )
    desk, floor = api_as("desk"), api_as("floor")
    before = state(tournament)
    busted = give(api, tournament, ids["P0"], rounds=1)
    assert busted.status_code == 409 and busted.json()["code"] == "entry_not_playing"
    too_many = give(api, tournament, ids["P1"], rounds=2)
    assert too_many.status_code == 422 and too_many.json()["code"] == "too_many_rounds"
    assert "At most 1 rounds" in too_many.json()["detail"]
    assert give(desk, tournament, ids["P1"], rounds=1).status_code == 403
    assert state(tournament) == before
    fixed = give(floor, tournament, ids["P1"]).json()["penalty"]
    assert fixed["hands"] == 3  # Mirage: "sitting out 3 hands"
    second = give(api, tournament, ids["P1"], rounds=1)
    assert second.status_code == 409 and second.json()["code"] == "penalty_running"


def test_the_count_follows_the_player_to_another_table(api, tournament):
    ids = start(api, tournament, 16)  # two tables of 8
    entry = Entry.objects.get(pk=ids["P0"])
    home = entry.tournament_table.number
    other = 2 if home == 1 else 1
    row = give(api, tournament, entry.pk, rounds=1).json()["penalty"]
    assert row["hands"] == 8 and row["table"] == home
    for _ in range(4):  # the hand in play, then 3 hands served
        hand(api, tournament, home)
    assert serving(api, tournament)[0]["hands_left"] == 5
    taken = set(
        Entry.objects.filter(tournament_table__number=other, status="active").values_list(
            "seat", flat=True
        )
    )
    free = next(s for s in range(1, 11) if s not in taken)
    moved = api.post(
        f"/tournaments/{tournament.pk}/entries/{entry.pk}/seat", {"table": other, "seat": free}
    )
    assert moved.status_code == 200, moved.json()
    hand(api, tournament, home)  # the old table no longer counts for him
    now = serving(api, tournament)[0]
    assert (now["table"], now["seat"], now["hands_left"]) == (other, free, 5)
    hand(api, tournament, other)
    assert serving(api, tournament)[0]["hands_left"] == 4
    assert Penalty.objects.get(pk=row["id"]).hands_served_before == 3


def test_the_time_estimate_at_a_table_that_does_not_report(api, tournament):
    ids = start(api, tournament, 9)
    with time_machine.travel(T0, tick=False) as traveller:
        row = give(api, tournament, ids["P0"], rounds=2).json()["penalty"]
        assert row["table_reports"] is False and row["seconds_per_hand"] == 120
        given = row["given_at_ms"]
        # 18 hands after the hand in play, at the house's 2 minutes a hand.
        assert row["ends_at_ms"] == given + 19 * 120_000
        traveller.shift(25 * 60)  # 12 whole hands: the hand in play and 11 of the penalty
        now = serving(api, tournament)[0]
        assert now["hands_left"] == 7 and now["ends_at_ms"] == given + 19 * 120_000
        ended = api.post(f"/tournaments/{tournament.pk}/penalties/{row['id']}/end")
        assert ended.status_code == 200 and ended.json()["penalty"]["status"] == "served"


def test_the_time_estimate_follows_the_pace_of_a_reporting_table(api, tournament):
    ids = start(api, tournament, 9)
    with time_machine.travel(T0, tick=False) as traveller:
        for _ in range(4):
            hand(api, tournament, 1)
            traveller.shift(90)
        row = give(api, tournament, ids["P0"], hands=5).json()["penalty"]
        assert row["table_reports"] is True and row["seconds_per_hand"] == 90
        last_report = row["given_at_ms"] - 90_000
        # The hand in play, then 5 hands, at 90 s each from the last report.
        assert row["ends_at_ms"] == last_report + 6 * 90_000
        hand(api, tournament, 1)
        hand(api, tournament, 1)
        now = serving(api, tournament)[0]
        assert now["hands_left"] == 4 and now["ends_at_ms"] == row["given_at_ms"] + 4 * 90_000


def test_a_season_ban_is_refused_at_that_seasons_desk_only(api, director, room, structure):
    season = Season.objects.create(name="Rimóc 2026")
    in_season, elsewhere = (
        tournament_create(
            actor=director,
            name=name,
            structure_id=structure.pk,
            starting_stack=40_000,
            buy_in=10_000,
            fee=2_000,
            room_id=room.pk,
        )
        for name in ("Round 3", "Friday open")
    )
    Tournament.objects.filter(pk=in_season.pk).update(season=season)
    player = api.post("/players", {"name": "Kovács Béla"}).json()["id"]
    ban = api.post(
        f"/players/{player}/bans", {"reason": "Disqualified in round 2", "season_id": season.pk}
    )
    assert ban.status_code == 201, ban.json()
    refused = api.post(f"/tournaments/{in_season.pk}/entries", {"player_id": player})
    assert refused.status_code == 409 and refused.json()["code"] == "player_banned"
    assert "Rimóc 2026" in refused.json()["detail"]
    assert "Disqualified in round 2" in refused.json()["detail"]
    accepted = api.post(f"/tournaments/{elsewhere.pk}/entries", {"player_id": player})
    assert accepted.status_code == 201, accepted.json()
    bans = api.get(f"/players/{player}/bans").json()
    assert [b["season_name"] for b in bans] == ["Rimóc 2026"]
    lifted = api.post(f"/players/{player}/bans/{bans[0]['id']}/lift")
    assert lifted.status_code == 200 and lifted.json()["lifted_at_ms"]
    assert (
        api.post(f"/tournaments/{in_season.pk}/entries", {"player_id": player}).status_code == 201
    )


def test_a_players_history_spans_tournaments(api, director, tournament, room, structure):
    ids = start(api, tournament, 6)
    player_id = Entry.objects.get(pk=ids["P0"]).player_id
    give(api, tournament, ids["P0"], kind="warning", reason="Slow play")
    give(api, tournament, ids["P0"], rounds=1, reason="Abuse of the dealer")
    history = api.get(f"/players/{player_id}/penalties").json()
    assert [(p["kind"], p["reason"]) for p in history] == [
        ("missed_rounds", "Abuse of the dealer"),
        ("warning", "Slow play"),
    ]
    assert history[0]["tournament_name"] == tournament.name
    assert history[0]["given_by"] == "director"


def test_a_house_whose_penalty_does_not_follow_moves_ends_it_at_the_move(api, tournament):
    tournament.rules_overrides = {"penalty_follows_moves": False}
    tournament.save(update_fields=["rules_overrides"])
    ids = start(api, tournament, 16)
    entry = Entry.objects.get(pk=ids["P0"])
    home = entry.tournament_table.number
    other = 2 if home == 1 else 1
    row = give(api, tournament, entry.pk, rounds=1).json()["penalty"]
    taken = set(
        Entry.objects.filter(tournament_table__number=other, status="active").values_list(
            "seat", flat=True
        )
    )
    free = next(s for s in range(1, 11) if s not in taken)
    api.post(
        f"/tournaments/{tournament.pk}/entries/{entry.pk}/seat", {"table": other, "seat": free}
    )
    assert serving(api, tournament) == []  # read: ended by the move
    hand(api, tournament, other)
    assert Penalty.objects.get(pk=row["id"]).served_at is not None


def test_disqualifying_the_second_last_player_ends_the_tournament_and_the_undo_reopens_it(
    api, tournament
):
    ids = start(api, tournament, 2)
    response = give(api, tournament, ids["P0"], kind="disqualification", chips=40_000)
    assert response.status_code == 201, response.json()
    tournament.refresh_from_db()
    assert tournament.status == "finished"
    assert Entry.objects.get(pk=ids["P1"]).place == 1
    last = give(api, tournament, ids["P1"], kind="disqualification", chips=1)
    assert last.status_code == 409
    undone = api.post(
        f"/tournaments/{tournament.pk}/penalties/{response.json()['penalty']['id']}/undo"
    )
    assert undone.status_code == 200, undone.json()
    tournament.refresh_from_db()
    assert tournament.status == "running" and tournament.chips_removed == 0


def test_a_busted_players_penalty_is_not_sitting_out(api, tournament):
    ids = start(api, tournament, 6)
    give(api, tournament, ids["P0"], rounds=1)
    api.post(
        f"/tournaments/{tournament.pk}/eliminations", {"eliminations": [{"entry_id": ids["P0"]}]}
    )
    assert serving(api, tournament) == []
    api.post(f"/tournaments/{tournament.pk}/eliminations/{ids['P0']}/undo")
    assert [p["entry_id"] for p in serving(api, tournament)] == [ids["P0"]]


def test_the_winner_is_not_shown_as_still_playing_on_his_page(api, client, director, tournament):
    ids = start(api, tournament, 2)
    give(api, tournament, ids["P0"], kind="disqualification", chips=40_000)
    winner = Entry.objects.get(pk=ids["P1"])
    assert winner.place == 1
    client.force_login(director)
    row = client.get(f"/players/{winner.player_id}/").content.decode()
    row = row[row.index(f'href="/tournaments/{tournament.pk}/"') :]
    status = row[: row.index("</tr>")]
    assert "Finished" in status and "Playing" not in status and "T1 · S" not in status


@pytest.mark.parametrize(
    ("at", "day_starts", "ends"),
    [
        ("2026-11-30 02:10:00 +01:00", "06:00", datetime(2026, 11, 30, 6, 0)),  # same gaming day
        ("2026-11-29 23:50:00 +01:00", "06:00", datetime(2026, 11, 30, 6, 0)),
        ("2026-11-30 02:10:00 +01:00", "00:00", datetime(2026, 12, 1, 0, 0)),  # a midnight room
    ],
)
def test_a_ban_for_the_day_ends_at_the_rooms_gaming_day_boundary(
    api, director, tournament, at, day_starts, ends
):
    """Mirage 000:551 "kizárás a játéknapról" (issue 31 item 7): the room's day, not midnight;
    the ban refuses him at every desk of the room."""
    assert (
        api.patch(f"/rooms/{tournament.room_id}", {"gaming_day_starts": day_starts}).json()[
            "gaming_day_starts"
        ]
        == day_starts
    )
    ids = start(api, tournament, 6)
    with time_machine.travel(at, tick=False):
        row = give(
            api, tournament, ids["P1"], kind="disqualification", chips=40_000, ban="day"
        ).json()["penalty"]
        expected = ends.replace(tzinfo=ZoneInfo("Europe/Budapest"))
        assert row["ban"]["ends_at_ms"] == expected.timestamp() * 1000
        side = tournament_create(
            actor=director,
            name="Side event",
            structure_id=tournament.structure_id,
            starting_stack=10_000,
            buy_in=1_000,
            room_id=tournament.room_id,
        )
        player_id = Entry.objects.get(pk=ids["P1"]).player_id
        refused = api.post(f"/tournaments/{side.pk}/entries", {"player_id": player_id})
        assert refused.status_code in (403, 409)
        assert refused.json()["code"] == "player_banned"
