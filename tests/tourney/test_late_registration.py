"""Late registration closes at the end of the level the tournament sets (docs/rules.md §2.2)."""

import pytest
import time_machine
from django.test import Client

from clocks.clock.usecases import clocks_advance_due
from clocks.domain.clock import ClockState
from clocks.domain.structures import TEMPLATES
from tests.conftest import make_staff
from tourney.domain.registration import deadline, level_end_passed, level_index
from tourney.models import AuditEntry, TournamentEvent

pytestmark = pytest.mark.django_db

RIMOC = TEMPLATES["rimoc-championship"].periods
T0 = "2026-11-29 19:00:00 +01:00"
T0_MS = 1_795_975_200_000  # 2026-11-29 18:00 UTC
MIN = 60_000


# --- pure ------------------------------------------------------------------------------------


def test_level_index_skips_breaks() -> None:
    assert [level_index(RIMOC, n) for n in (1, 4, 5, 16, 17)] == [0, 3, 5, 18, None]


def test_deadline_while_running_paused_and_after() -> None:
    running = ClockState("running", 1, T0_MS + 30 * MIN, None, 2)  # L2 ends 19:30
    ahead = deadline(running, RIMOC, T0_MS + 20 * MIN, 2)
    assert (ahead.passed, ahead.remaining_ms, ahead.at_ms) == (False, 10 * MIN, T0_MS + 30 * MIN)
    paused = ClockState("paused", 1, None, 4 * MIN, 3)
    assert deadline(paused, RIMOC, T0_MS + 99 * MIN, 3).remaining_ms == 19 * MIN
    # The timer has not stepped yet, but 19:30 is past: closed all the same.
    assert deadline(running, RIMOC, T0_MS + 30 * MIN, 2).passed
    assert not level_end_passed(ClockState(), RIMOC, 1)
    assert level_end_passed(ClockState("finished", len(RIMOC) - 1, None, None, 9), RIMOC, 16)


def test_the_break_after_level_n_is_already_closed() -> None:
    in_break = ClockState("running", 4, T0_MS + 70 * MIN, None, 5)
    assert level_end_passed(in_break, RIMOC, 4) and not level_end_passed(in_break, RIMOC, 5)


# --- through the API and the desk -----------------------------------------------------------


def new_tournament(api, structure, room, level):
    response = api.post(
        "/tournaments",
        {
            "name": "Late reg",
            "structure_id": structure.pk,
            "starting_stack": 40_000,
            "buy_in": 10_000,
            "room_id": room.pk,
            "house_rules": "rimoc",
            "late_registration_level": level,
        },
    )
    assert response.status_code == 201, response.json()
    return response.json()


def register(api, tid, name):
    pid = api.post("/players", {"name": name}).json()["id"]
    return api.post(f"/tournaments/{tid}/entries", {"player_id": pid})


@pytest.fixture
def late_reg(api, structure, room):
    """Late registration until the end of level 2 (19:30), started at 19:00."""
    tid = new_tournament(api, structure, room, 2)["id"]
    for i in range(4):
        register(api, tid, f"P{i}")
    api.post(f"/tournaments/{tid}/draw")
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tid}/clock/start")
        yield tid, traveller


def test_the_level_is_accepted_and_checked(api, structure, room):
    assert new_tournament(api, structure, room, 4)["late_registration_level"] == 4
    response = api.post(
        "/tournaments",
        {
            "name": "X",
            "structure_id": structure.pk,
            "starting_stack": 1,
            "buy_in": 1,
            "late_registration_level": 17,
        },
    )
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_late_registration_level"


def test_entries_are_refused_after_the_end_of_level_n(api, late_reg):
    tid, traveller = late_reg
    traveller.shift(29 * 60)
    assert register(api, tid, "Late").status_code == 201
    traveller.shift(60)  # 19:30: L2 is over, even before the timer steps
    response = register(api, tid, "Too late")
    assert response.status_code == 409 and response.json()["code"] == "registration_closed"
    assert "level 2" in response.json()["detail"]


def test_closing_is_recorded_once_when_several_periods_are_caught_up(api, late_reg):
    tid, traveller = late_reg
    traveller.shift(61 * 60)  # an outage: L1-L4 all over, in the first break
    assert clocks_advance_due() == 4
    assert clocks_advance_due() == 0
    events = list(TournamentEvent.objects.filter(tournament_id=tid, kind="registration"))
    assert len(events) == 1
    assert events[0].payload["status"] == "closed"
    assert events[0].payload["at_ms"] == T0_MS + 30 * MIN  # stamped when L2 really ended
    assert AuditEntry.objects.filter(tournament_id=tid, action="registration.closed").count() == 1


def test_going_back_reopens_and_says_so(api, late_reg):
    tid, traveller = late_reg
    traveller.shift(31 * 60)
    clocks_advance_due()
    assert register(api, tid, "Late").status_code == 409
    api.post(f"/tournaments/{tid}/clock/previous")  # a mistake corrected: back to L2
    assert register(api, tid, "Late").status_code == 201
    kinds = [
        e.payload["status"]
        for e in TournamentEvent.objects.filter(tournament_id=tid, kind="registration")
    ]
    assert kinds == ["closed", "open"]


def test_without_a_level_registration_stays_open(api, structure, room):
    tid = new_tournament(api, structure, room, None)["id"]
    for i in range(2):
        register(api, tid, f"P{i}")
    api.post(f"/tournaments/{tid}/draw")
    with time_machine.travel(T0, tick=False) as traveller:
        api.post(f"/tournaments/{tid}/clock/start")
        traveller.shift(3 * 3600)
        clocks_advance_due()
        assert register(api, tid, "Very late").status_code == 201


def test_the_desk_shows_the_time_left_and_closed(api, late_reg, director):
    tid, traveller = late_reg
    desk = make_staff("desk1", "desk")
    client = Client()
    client.force_login(desk)
    traveller.shift(20 * 60)
    page = client.get(f"/tournaments/{tid}/desk/").content.decode()
    assert 'id="late-registration"' in page and "10:00" in page
    traveller.shift(11 * 60)
    page = client.get(f"/tournaments/{tid}/desk/").content.decode()
    assert "Late registration closed" in page


# --- the director's message for the lobby screens (same tournament settings page) ------------


def test_director_message_is_set_audited_and_evented(api, api_as, tournament):
    url = f"/tournaments/{tournament.pk}/message"
    response = api.put(url, {"message": "  Dinner  break at 21:00 "})
    assert response.status_code == 200 and response.json() == {"message": "Dinner break at 21:00"}
    assert api.get(f"/tournaments/{tournament.pk}").json()["display_message"] == (
        "Dinner break at 21:00"
    )
    event = TournamentEvent.objects.filter(tournament=tournament, kind="message").get()
    assert event.payload == {"message": "Dinner break at 21:00"}
    assert AuditEntry.objects.filter(tournament=tournament, action="tournament.message").exists()
    assert api_as("floor").put(url, {"message": "x"}).status_code == 403
    assert api.put(url, {"message": "x" * 501}).status_code == 422
    assert api.put(url, {"message": ""}).json() == {"message": ""}


# --- no late registration: registration closes at the start (issue 31, item 2) ---------------


def test_level_zero_is_the_start():
    pending = ClockState()
    running = ClockState("running", 0, T0_MS + 15 * MIN, None, 1)
    assert not level_end_passed(pending, RIMOC, 0)
    assert level_end_passed(running, RIMOC, 0)
    assert deadline(pending, RIMOC, T0_MS, 0).passed is False
    assert deadline(running, RIMOC, T0_MS, 0).passed is True


@pytest.mark.parametrize(
    ("house_rules", "overrides", "late_open"),
    [
        ("veszprem", {}, False),  # 002:234: no later joining
        ("tda2024", {"late_registration": False}, False),  # a sit-and-go, a room without it
        ("veszprem", {"late_registration": True}, True),  # the director's override
    ],
)
def test_without_late_registration_entries_close_when_the_clock_starts(
    api, structure, room, director, house_rules, overrides, late_open
):
    body = {
        "name": "Veszprémi csütörtök",
        "structure_id": structure.pk,
        "starting_stack": 20_000,
        "buy_in": 5_000,
        "room_id": room.pk,
        "house_rules": house_rules,
        "rules": overrides,
        "late_registration_level": 2,
    }
    tid = api.post("/tournaments", body).json()["id"]
    for i in range(4):
        assert register(api, tid, f"P{i}").status_code == 201
    api.post(f"/tournaments/{tid}/draw")
    with time_machine.travel(T0, tick=False):
        api.post(f"/tournaments/{tid}/clock/start")
        late = register(api, tid, "Late")
        client = Client()
        client.force_login(director)
        desk = client.get(f"/tournaments/{tid}/desk/").content.decode()
    if late_open:
        assert late.status_code == 201
        assert "until the end of level 2" in desk
        return
    assert late.status_code == 409 and late.json()["code"] == "registration_closed"
    assert "no late registration" in late.json()["detail"]
    assert "Registration closed when the clock started" in desk
    closed = AuditEntry.objects.get(tournament_id=tid, action="registration.closed")
    assert closed.after["level"] == 0
    event = TournamentEvent.objects.get(tournament_id=tid, kind="registration")
    assert event.payload == {"status": "closed", "level": 0, "at_ms": T0_MS}


def test_before_the_start_the_desk_says_registration_closes_at_the_start(
    api, structure, room, director
):
    body = {
        "name": "Sit-and-go #1",
        "structure_id": structure.pk,
        "starting_stack": 10_000,
        "buy_in": 5_000,
        "room_id": room.pk,
        "rules": {"late_registration": False},
    }
    tid = api.post("/tournaments", body).json()["id"]
    client = Client()
    client.force_login(director)
    desk = client.get(f"/tournaments/{tid}/desk/").content.decode()
    assert "registration closes when the clock starts" in desk


def test_late_registration_level_zero_closes_at_the_start_and_patch_clears_it(api, structure, room):
    """docs/api.md: `late_registration_level: 0` closes registration at the start; a PATCH
    sets it the same way and `clear_late_registration` removes the deadline."""
    tid = new_tournament(api, structure, room, 0)["id"]
    assert api.get(f"/tournaments/{tid}").json()["late_registration_level"] == 0
    for i in range(3):
        register(api, tid, f"P{i}")
    api.post(f"/tournaments/{tid}/draw")
    with time_machine.travel(T0, tick=False):
        api.post(f"/tournaments/{tid}/clock/start")
        refused = register(api, tid, "Late")
        assert refused.status_code == 409 and refused.json()["code"] == "registration_closed"
        cleared = api.patch(f"/tournaments/{tid}", {"clear_late_registration": True})
        assert cleared.status_code == 200 and cleared.json()["late_registration_level"] is None
        assert register(api, tid, "Late").status_code == 201
        assert api.patch(f"/tournaments/{tid}", {"late_registration_level": 0}).status_code == 200
        assert register(api, tid, "Later").status_code == 409
