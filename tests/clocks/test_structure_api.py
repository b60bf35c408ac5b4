"""Blind structures through the API and the services: create, update, in-use rule, export and
import, preview, duplicate; every refusal changes nothing and every write is audited."""

import pytest
import time_machine

from clocks.models import Clock, Structure
from clocks.structures.usecases import structure_duplicate
from tourney.models import AuditEntry, TournamentEvent
from tourney.tournaments.usecases import tournament_create

pytestmark = pytest.mark.django_db

T0 = "2026-11-29 19:00:00 +01:00"


def body(**overrides) -> dict:
    data = {
        "name": "Monday turbo",
        "chips": [{"value": 25, "color": "green"}, {"value": 100, "color": "black"}],
        "starting_stack": 10_000,
        "levels": [
            {
                "kind": "level",
                "small_blind": 25,
                "big_blind": 50,
                "ante": 0,
                "duration_seconds": 600,
            },
            {"kind": "level", "small_blind": 50, "big_blind": 100, "duration_seconds": 600},
            {"kind": "break", "duration_seconds": 300, "color_up": []},
            {"kind": "level", "small_blind": 100, "big_blind": 200, "duration_seconds": 600},
        ],
    }
    data.update(overrides)
    return data


def snapshot(structure_id: int) -> tuple:
    s = Structure.objects.get(pk=structure_id)
    rows = list(
        s.levels.values_list("kind", "small_blind", "big_blind", "ante", "duration_seconds")
    )
    return (s.name, s.chips, s.starting_stack, rows)


def test_the_template_is_listed_with_its_color_up_suggestion(api, structure):
    listed = api.get("/structures").json()
    rimoc = next(s for s in listed if s["template"] == "rimoc-championship")
    assert [(s["break_number"], s["color_up"]) for s in rimoc["color_up_suggestion"]] == [
        (1, []),
        (2, [100, 500]),
        (3, []),
        (4, [1_000]),
    ]
    assert rimoc["color_up_suggestion"][1]["position"] == 9


def test_update_replaces_the_structure_and_is_audited(api):
    created = api.post("/structures", body()).json()
    levels = body()["levels"] + [
        {"kind": "level", "small_blind": 200, "big_blind": 400, "duration_seconds": 600}
    ]
    response = api.put(f"/structures/{created['id']}", body(name="Monday turbo II", levels=levels))
    assert response.status_code == 200, response.json()
    out = response.json()
    assert out["name"] == "Monday turbo II" and len(out["levels"]) == 5
    assert out["levels"][4]["level"] == 4
    entry = AuditEntry.objects.get(action="structure.update")
    assert entry.before["name"] == "Monday turbo" and len(entry.before["levels"]) == 4
    assert entry.after["name"] == "Monday turbo II" and len(entry.after["levels"]) == 5
    assert entry.actor.username == "director"


@pytest.mark.parametrize(
    ("change", "code", "row"),
    [
        ({"small_blind": 300}, "invalid_blinds", 2),
        ({"small_blind": 0}, "invalid_blinds", 2),
        ({"duration_seconds": 0}, "invalid_duration", 2),
        ({"small_blind": 10, "big_blind": 20}, "blinds_decrease", 2),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(api, change, code, row):
    created = api.post("/structures", body()).json()
    before = snapshot(created["id"])
    levels = body()["levels"]
    levels[1] = {**levels[1], **change}
    response = api.put(f"/structures/{created['id']}", body(levels=levels))
    assert response.status_code == 422
    assert response.json()["code"] == code
    assert f"Row {row}" in response.json()["detail"]
    assert snapshot(created["id"]) == before
    assert not AuditEntry.objects.filter(action="structure.update").exists()


def test_color_up_of_an_unknown_chip_is_refused(api):
    levels = body()["levels"]
    levels[2] = {"kind": "break", "duration_seconds": 300, "color_up": [500]}
    response = api.post("/structures", body(levels=levels))
    assert response.status_code == 422 and response.json()["code"] == "invalid_color_up"
    assert "500" in response.json()["detail"]
    assert not Structure.objects.filter(name="Monday turbo").exists()


def test_templates_are_read_only_and_others_may_not_edit(api, api_as, structure):
    before = snapshot(structure.pk)
    response = api.put(f"/structures/{structure.pk}", body())
    assert response.status_code == 409 and response.json()["code"] == "structure_is_template"
    floor = api_as("floor")
    created = api.post("/structures", body()).json()
    assert floor.get(f"/structures/{created['id']}").status_code == 200
    assert floor.put(f"/structures/{created['id']}", body(name="x")).status_code == 403
    assert snapshot(structure.pk) == before


def test_unknown_structure_is_404(api):
    response = api.put("/structures/999999", body())
    assert response.status_code == 404 and response.json()["code"] == "structure_not_found"


def _running_tournament(api, director, room, structure_id: int):
    tournament = tournament_create(
        actor=director,
        name="Sunday main",
        structure_id=structure_id,
        starting_stack=10_000,
        buy_in=5_000,
        room_id=room.pk,
    )
    for i in range(4):
        pid = api.post("/players", {"name": f"P{i}"}).json()["id"]
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid})
    api.post(f"/tournaments/{tournament.pk}/draw")
    assert api.post(f"/tournaments/{tournament.pk}/clock/start").status_code == 200
    return tournament


def test_a_running_tournament_keeps_its_current_and_past_periods(api, director, room):
    created = api.post("/structures", body()).json()
    with time_machine.travel(T0, tick=False) as traveller:
        tournament = _running_tournament(api, director, room, created["id"])
        traveller.shift(10 * 60 + 1)  # level 2 is playing (its change not yet stored)
        before = snapshot(created["id"])
        for row in (0, 1):
            levels = body()["levels"]
            levels[row] = {**levels[row], "duration_seconds": 1_200}
            response = api.put(f"/structures/{created['id']}", body(levels=levels))
            assert response.status_code == 409, response.json()
            assert response.json()["code"] == "structure_in_use"
            assert "Sunday main" in response.json()["detail"]
        assert snapshot(created["id"]) == before
        events = TournamentEvent.objects.filter(tournament=tournament).count()
        levels = body()["levels"]
        levels[3] = {**levels[3], "duration_seconds": 1_200}
        levels.append(
            {"kind": "level", "small_blind": 200, "big_blind": 400, "duration_seconds": 600}
        )
        response = api.put(f"/structures/{created['id']}", body(levels=levels))
        assert response.status_code == 200, response.json()
        event = TournamentEvent.objects.filter(tournament=tournament).last()
        assert TournamentEvent.objects.filter(tournament=tournament).count() == events + 1
        assert event.kind == "structure" and event.payload["structure_id"] == created["id"]
        clock = api.get(f"/tournaments/{tournament.pk}/clock").json()
        assert clock["period_index"] == 1 and clock["remaining_ms"] == 10 * 60 * 1000 - 1000


def test_a_finished_clock_freezes_the_structure(api, director, room):
    created = api.post("/structures", body()).json()
    tournament = _running_tournament(api, director, room, created["id"])
    Clock.objects.filter(tournament=tournament).update(
        status="finished", period_index=3, period_ends_at_ms=None
    )
    levels = body()["levels"] + [
        {"kind": "level", "small_blind": 200, "big_blind": 400, "duration_seconds": 600}
    ]
    response = api.put(f"/structures/{created['id']}", body(levels=levels))
    assert response.status_code == 409 and response.json()["code"] == "structure_in_use"
    # The name and the chips are not periods: they may still change.
    assert api.put(f"/structures/{created['id']}", body(name="Renamed")).status_code == 200


def test_a_clock_past_its_structure_takes_levels_added_after_it(api, director, room):
    """docs/rules.md §1.4: the structure ran out (overtime): the played rows stay as they are,
    levels added after them are accepted and reached with Next."""
    created = api.post("/structures", body()).json()
    tournament = _running_tournament(api, director, room, created["id"])
    Clock.objects.filter(tournament=tournament).update(
        status="overtime", period_index=3, period_ends_at_ms=1_700_000_000_000
    )
    levels = body()["levels"] + [
        {"kind": "level", "small_blind": 200, "big_blind": 400, "duration_seconds": 600}
    ]
    assert api.put(f"/structures/{created['id']}", body(levels=levels)).status_code == 200
    changed = [dict(level) for level in levels]
    changed[3] = {**changed[3], "duration_seconds": 1_200}
    refused = api.put(f"/structures/{created['id']}", body(levels=changed))
    assert refused.status_code == 409 and refused.json()["code"] == "structure_in_use"
    clock = api.post(f"/tournaments/{tournament.pk}/clock/next").json()
    assert (clock["status"], clock["period_index"]) == ("running", 4)
    assert clock["period"]["big_blind"] == 400


def test_export_downloads_the_post_format_and_imports_back(api, structure):
    response = api.get(f"/structures/{structure.pk}/export")
    assert response.status_code == 200
    assert (
        response["Content-Disposition"]
        == 'attachment; filename="rimoc-championship-15-minute-levels.json"'
    )
    exported = response.json()
    assert set(exported) == {"name", "chips", "levels", "starting_stack", "description"}
    assert exported["levels"][9] == {
        "kind": "break",
        "duration_seconds": 600,
        "color_up": [100, 500],
    }
    imported = api.post("/structures", exported)
    assert imported.status_code == 201
    again = api.get(f"/structures/{imported.json()['id']}/export").json()
    assert again == exported
    assert imported.json()["template"] is None


def test_malformed_import_is_refused(api):
    response = api.post("/structures", {"name": "x", "levels": [{"kind": "level"}]})
    assert response.status_code == 422 and response.json()["code"] == "invalid_input"
    assert not Structure.objects.filter(name="x").exists()


def test_preview_reports_the_first_error_warnings_and_suggestion(api):
    levels = body()["levels"]
    levels[3] = {**levels[3], "small_blind": 10}
    out = api.post("/structures/preview", body(levels=levels)).json()
    assert out["valid"] is False and out["error"]["code"] == "blinds_decrease"
    assert out["error"]["row"] == 3
    out = api.post("/structures/preview", body(starting_stack=10_010)).json()
    assert out["valid"] is True and out["error"] is None
    assert [w["code"] for w in out["warnings"]] == ["stack_not_payable"]
    assert "10,010" in out["warnings"][0]["detail"]
    assert out["total_seconds"] == 3 * 600 + 300 and out["level_count"] == 3
    assert out["color_up_suggestion"] == [{"position": 2, "break_number": 1, "color_up": [25]}]
    assert not Structure.objects.filter(name="Monday turbo").exists()


def test_duplicate_copies_a_template_into_an_editable_structure(director, structure):
    copy = structure_duplicate(actor=director, structure_id=structure.pk)
    assert copy.name == f"Copy of {structure.name}" and copy.template_key == ""
    assert copy.levels.count() == structure.levels.count()
    entry = AuditEntry.objects.get(action="structure.duplicate")
    assert entry.before == {"source_id": structure.pk} and entry.target_id == copy.pk
