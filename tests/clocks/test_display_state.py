"""The lobby display's server side: the signed state endpoint, the pages and the selector."""

from datetime import datetime

import pytest
import time_machine
from django.db import transaction
from django.test import Client

from clocks.clock.usecases import clock_operate
from clocks.display.selectors import chips_in_play, display_chips, display_token, move_from_event
from clocks.domain.structures import Period
from tests.conftest import numbered_players, seat_players
from tourney.core.locks import tournament_lock
from tourney.events.log import event_append
from tourney.tournaments.usecases import tournament_create

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 19:00:00 +01:00"
T0_MS = int(datetime.fromisoformat("2026-11-29T19:00:00+01:00").timestamp() * 1000)


def state_url(token: str) -> str:
    return f"/display/{token}/state.json"


def test_a_forged_or_unknown_token_is_404(tournament):
    client = Client()
    assert client.get(state_url("not-a-token")).status_code == 404
    assert client.get(state_url(display_token(tournament.pk) + "x")).status_code == 404
    assert client.get(state_url(display_token(987_654))).status_code == 404
    assert client.get("/display/rotate/?t=forged").status_code == 404
    assert client.get("/display/rotate/").status_code == 404


def test_the_state_of_a_pending_tournament(tournament):
    data = Client().get(state_url(display_token(tournament.pk))).json()
    assert set(data) >= {
        "tournament", "clock", "periods", "chips", "chips_in_play", "stats", "payouts",
        "message", "recent_moves", "last_event_id", "server_time_ms",
    }  # fmt: skip
    assert data["tournament"] == {
        "id": tournament.pk,
        "name": "Friday deepstack",
        "status": "registering",
        "currency": tournament.currency,
        "buy_in": 10_000,
        "fee": 2_000,
        "starting_stack": 40_000,
        "seats_drawn": False,
        "has_rebuys": False,
        "has_addons": False,
        "addon": None,
        "hand_for_hand": False,
        "flight": False,
        "cancel_reason": None,
        "final_table": False,
    }
    assert data["clock"]["status"] == "pending" and data["clock"]["period_index"] == 0
    # the Rimóc structure: 16 levels and 4 breaks; levels numbered without the breaks
    assert len(data["periods"]) == 20
    assert [p["level"] for p in data["periods"][:6]] == [1, 2, 3, 4, None, 5]
    assert data["periods"][0] == {
        "kind": "level", "level": 1, "small_blind": 100, "big_blind": 200, "ante": 0,
        "big_blind_ante": False, "duration_seconds": 900, "color_up": [],
    }  # fmt: skip
    assert [c["value"] for c in data["chips_in_play"]] == [100, 500, 1_000, 2_500, 10_000]
    assert data["stats"] == {
        "entries": 0, "players_remaining": 0, "rebuys": 0, "addons": 0,
        "prize_pool": 0, "total_chips": 0, "average_stack": 0,
    }  # fmt: skip
    assert data["payouts"] == [] and data["message"] == ""


def test_the_state_while_running_follows_the_clock(api, tournament):
    seat_players(api, tournament, numbered_players(4))
    token = display_token(tournament.pk)
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        traveller.shift(4 * 15 * 60 + 5 * 60)  # five minutes into Break 1
        data = Client().get(state_url(token)).json()
    clock = data["clock"]
    assert clock["status"] == "running" and clock["period_index"] == 4
    assert clock["period"]["kind"] == "break" and clock["remaining_ms"] == 5 * 60 * 1000
    assert data["server_time_ms"] == T0_MS + (4 * 15 + 5) * 60 * 1000
    assert data["stats"]["players_remaining"] == 4 and data["stats"]["entries"] == 4
    assert data["stats"]["prize_pool"] == 40_000 and data["stats"]["average_stack"] == 40_000
    assert data["tournament"]["seats_drawn"] is True
    assert data["last_event_id"] is not None
    # four players were seated by the draw: no individual moves, but late seats are listed
    assert data["recent_moves"] == []


def test_the_display_page_renders_the_running_clock_before_any_script(api, tournament):
    seat_players(api, tournament, numbered_players(4))
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        traveller.shift(14 * 60 + 1)
        html = Client().get(f"/display/{display_token(tournament.pk)}/").content.decode()
    assert "is-running" in html and "is-last-minute" in html
    assert 'data-field="countdown"' in html and ">0:59<" in html
    assert ">100 / 200<" in html  # the blinds
    assert f"/api/v1/tournaments/{tournament.pk}/events?display=" in html
    assert 'id="display-state-1"' in html and 'id="display-config"' in html


def test_the_paused_class(api, director, tournament):
    seat_players(api, tournament, numbered_players(2))
    token = display_token(tournament.pk)
    with time_machine.travel(T0, tick=False):
        api.post(f"/tournaments/{tournament.pk}/clock/start")
        api.post(f"/tournaments/{tournament.pk}/clock/pause")
        assert "is-paused" in Client().get(f"/display/{token}/").content.decode()


def test_rotation_renders_each_tournament_once_with_its_own_state(api, director, tournament):
    other = tournament_create(
        actor=director,
        name="Sunday main",
        structure_id=tournament.structure_id,
        starting_stack=30_000,
        buy_in=5_000,
        fee=500,
        room_id=tournament.room_id,
    )
    a, b = display_token(tournament.pk), display_token(other.pk)
    response = Client().get(f"/display/rotate/?t={a}&t={b}&t={a}&every=1")
    html = response.content.decode()
    assert response.status_code == 200
    assert html.count("data-display-screen") == 2  # the repeated token counts once
    assert "Friday deepstack" in html and "Sunday main" in html
    assert '"rotate_seconds": 5' in html  # clamped to the minimum


def test_the_director_message_when_the_model_has_one(tournament):
    if not hasattr(tournament, "display_message"):
        pytest.skip("Tournament.display_message is not there yet")
    tournament.display_message = "Dinner break at level 8"
    tournament.save(update_fields=["display_message"])
    data = Client().get(state_url(display_token(tournament.pk))).json()
    assert data["message"] == "Dinner break at level 8"


def test_recent_moves_come_from_seating_and_entry_events(api, tournament):
    seat_players(api, tournament, numbered_players(2))
    entry = tournament.entries.first()
    with transaction.atomic():
        locked = tournament_lock(tournament.pk)
        payload = {"reason": "assign", "entry_id": entry.pk, "table": 3, "seat": 7}
        event_append(locked, "seating", payload)
    data = Client().get(state_url(display_token(tournament.pk))).json()
    assert data["recent_moves"][0] | {"at_ms": 0} == {
        "id": data["recent_moves"][0]["id"], "kind": "seating", "entry_id": entry.pk,
        "player_name": entry.player.name, "table": 3, "seat": 7, "at_ms": 0,
    }  # fmt: skip


def test_a_seat_given_back_leaves_the_recent_moves(api, tournament):
    """The third evening production run: an alternate seated at T1 S9 went back to the waiting
    list when the busted player there rebought (promote_undo), then was seated at T1 S3; the
    lobby TV listed her at both seats for the next quarter of an hour. A player's newest seat
    event counts: an older seat of his, or one he gave back, is not listed."""
    seat_players(api, tournament, numbered_players(2))
    first, second = tournament.entries.order_by("pk")
    with transaction.atomic():
        locked = tournament_lock(tournament.pk)
        promote = {"action": "promote", "status": "active", "player_name": "Hajdú Kornélia"}
        event_append(locked, "entry", promote | {"id": first.pk, "table": 1, "seat": 9})
        back = {"action": "promote_undo", "status": "waiting", "table": None, "seat": None}
        event_append(locked, "entry", promote | back | {"id": first.pk})
        event_append(locked, "entry", promote | {"id": second.pk, "table": 2, "seat": 4})
        event_append(locked, "entry", promote | {"id": first.pk, "table": 1, "seat": 3})
        event_append(locked, "entry", promote | {"id": second.pk, "table": 2, "seat": 7})
    data = Client().get(state_url(display_token(tournament.pk))).json()
    seats = [(m["entry_id"], m["table"], m["seat"]) for m in data["recent_moves"]]
    assert seats[:2] == [(second.pk, 2, 7), (first.pk, 1, 3)]
    assert (first.pk, 1, 9) not in seats and (second.pk, 2, 4) not in seats


def test_a_player_moved_twice_is_listed_at_his_newest_seat(api, tournament):
    """The third evening production run: a player moved A1 S4 -> A4 S2 and then A4 S2 ->
    A2 S9 by the floor was listed twice on the lobby TV, the first line sending him to a seat
    he had left. A player's newest move or seat counts."""
    from datetime import timedelta

    from django.utils import timezone

    from tables.models import FloorAction

    seat_players(api, tournament, numbered_players(2))
    first, second = tournament.entries.order_by("pk")
    done = FloorAction.Status.DONE
    moves = ((first, (1, 4, 4, 2)), (second, (1, 5, 3, 3)), (first, (4, 2, 2, 9)))
    for minute, (entry, way) in enumerate(moves):
        FloorAction.objects.create(
            tournament=tournament, kind=FloorAction.Kind.MOVE, status=done, entry=entry,
            from_table=way[0], from_seat=way[1], to_table=way[2], to_seat=way[3],
            created_at=timezone.now() - timedelta(minutes=5 - minute),
        )  # fmt: skip
    data = Client().get(state_url(display_token(tournament.pk))).json()
    seats = [(m["entry_id"], m["table"], m["seat"]) for m in data["recent_moves"]]
    assert seats == [(first.pk, 2, 9), (second.pk, 3, 3)]


def test_a_busted_players_move_leaves_the_recent_moves(api, tournament):
    """The Czech evening's final table: the 1920x1080 TV listed 'Fülöp-Szentgyörgyi Gedeon
    S3 · M9 -> S1 · M1' (a balancing move) beside 'Jaroslava Řeháková S1 · M5 -> S1 · M1' (the
    redraw): he had busted since, so two players were sent to one seat. A player out of play has
    no seat to find: his moves and seats are not listed."""
    from django.utils import timezone

    from tables.models import FloorAction

    seat_players(api, tournament, numbered_players(3))
    api.post(f"/tournaments/{tournament.pk}/clock/start")
    first, second, _third = tournament.entries.order_by("pk")
    for entry, way in ((first, (1, 4, 2, 1)), (second, (1, 5, 2, 2))):
        FloorAction.objects.create(
            tournament=tournament, kind=FloorAction.Kind.MOVE, status=FloorAction.Status.DONE,
            entry=entry, from_table=way[0], from_seat=way[1], to_table=way[2], to_seat=way[3],
            created_at=timezone.now(),
        )  # fmt: skip
    with transaction.atomic():
        locked = tournament_lock(tournament.pk)
        late = {"action": "register", "status": "active", "player_name": first.player.name}
        event_append(locked, "entry", late | {"id": first.pk, "table": 2, "seat": 1})
    body = {"eliminations": [{"entry_id": first.pk}]}
    assert api.post(f"/tournaments/{tournament.pk}/eliminations", body).status_code == 200
    data = Client().get(state_url(display_token(tournament.pk))).json()
    assert [m["entry_id"] for m in data["recent_moves"]] == [second.pk]


# --- pure helpers -----------------------------------------------------------------------------


def test_chips_in_play_drop_the_chips_colored_up_at_breaks_already_passed():
    chips = display_chips([{"value": 500, "color": "red"}, {"value": 100, "color": "grey"},
                           {"value": 1000, "color": "blue"}])  # fmt: skip
    periods = [
        Period("level", 60, 100, 200),
        Period("break", 60, color_up=(100,)),
        Period("level", 60, 500, 1000),
        Period("break", 60, color_up=(500,)),
        Period("level", 60, 1000, 2000),
    ]
    values = [[c["value"] for c in chips_in_play(chips, periods, i)] for i in range(5)]
    assert values == [
        [100, 500, 1000],
        [100, 500, 1000],  # during the break its own color-up is still going on
        [500, 1000],
        [500, 1000],
        [1000],
    ]


def test_chip_colours_are_safe_for_a_style_attribute():
    chips = display_chips(
        [{"value": 1, "color": "red; background: url(x)"}, {"value": 2, "color": "#fff"}]
    )
    assert [c["css_color"] for c in chips] == ["gray", "#fff"]
    assert chips[0]["color"] == "red; background: url(x)"  # shown escaped as text, never as CSS


def test_move_rows_need_a_table_and_a_seat():
    assert move_from_event(1, "seating", {"reason": "draw", "table_counts": {}}, 0) is None
    assert (
        move_from_event(2, "entry", {"id": 5, "status": "waiting", "table": None, "seat": None}, 0)
        is None
    )
    row = move_from_event(
        3, "move", {"entry_id": 9, "player_name": "Ann", "to_table": 2, "to_seat": 4}, 7
    )
    assert row == {
        "id": 3,
        "kind": "move",
        "entry_id": 9,
        "player_name": "Ann",
        "table": 2,
        "seat": 4,
        "at_ms": 7,
    }


def test_clock_operations_still_work_with_the_display_open(api, director, tournament):
    seat_players(api, tournament, numbered_players(2))
    with time_machine.travel(T0, tick=False):
        clock_operate(actor=director, tournament_id=tournament.pk, operation="start")
        data = Client().get(state_url(display_token(tournament.pk))).json()
    assert data["clock"]["ends_at_ms"] == T0_MS + 15 * 60 * 1000
