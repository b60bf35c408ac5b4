"""Editing a tournament after creating it (issue 13 item 11): the API and the service."""

from datetime import UTC, datetime

import pytest

from tables.models import TournamentTable
from tests.conftest import seat_players
from tourney.domain.house_rules_profiles import PROFILES
from tourney.models import AuditEntry, Entry, Tournament, TournamentEvent


def patch(api, tournament, body):
    return api._call("patch", f"/tournaments/{tournament.pk}", body)


def snapshot(tournament):
    t = Tournament.objects.get(pk=tournament.pk)
    return {
        "row": {f.attname: getattr(t, f.attname) for f in Tournament._meta.concrete_fields},
        "tables": list(TournamentTable.objects.filter(tournament=t).values_list("number", "seats")),
        "audit": AuditEntry.objects.count(),
        "events": TournamentEvent.objects.count(),
    }


def test_every_setting_changes_before_anything_is_sold_and_is_audited(api, tournament):
    token = api.get(f"/tournaments/{tournament.pk}").json()["settings_token"]
    start = datetime(2031, 5, 2, 18, 30, tzinfo=UTC)
    r = patch(
        api,
        tournament,
        {
            "settings_token": token,
            "name": "Friday Deepstack #12",
            "scheduled_start_ms": int(start.timestamp() * 1000),
            "max_entries": 45,
            "buy_in": 15_000,
            "fee": 3_000,
            "table_numbers": [3, 1, 2],
            "rules": {
                "seats_per_table": 8,
                "table_thresholds": None,
                "final_table_size": 8,
                "balance_threshold": 3,
            },
            "late_registration_level": 4,
        },
    )
    assert r.status_code == 200, r.json()
    body = r.json()
    assert body["name"] == "Friday Deepstack #12"
    assert body["scheduled_start_ms"] == int(start.timestamp() * 1000)
    assert body["max_entries"] == 45 and body["capacity"] == 24
    assert body["rules"]["seats_per_table"] == 8 and body["rules"]["balance_threshold"] == 3
    assert body["table_numbers"] == [3, 1, 2]
    assert body["settings_token"] != token
    assert list(
        TournamentTable.objects.filter(tournament=tournament)
        .order_by("open_order")
        .values_list("number", "seats")
    ) == [(3, 8), (1, 8), (2, 8)]
    audit = AuditEntry.objects.filter(action="tournament.update").get()
    assert audit.before["buy_in"] == 10_000 and audit.after["buy_in"] == 15_000
    assert "rules.seats_per_table" in audit.summary
    assert TournamentEvent.objects.filter(kind="tournament", payload__action="update").exists()


def test_a_rule_left_out_follows_the_profile_again(api, tournament):
    patch(api, tournament, {"rules": {"clock_seconds": 40}})
    assert api.get(f"/tournaments/{tournament.pk}").json()["rules"]["clock_seconds"] == 40
    r = patch(api, tournament, {"rules": {}})
    assert r.json()["rules_overrides"] == {}
    assert r.json()["rules"]["clock_seconds"] == PROFILES["rimoc"].rules.clock_seconds


@pytest.mark.parametrize(
    ("body", "code", "status"),
    [
        ({"rules": {"seats_per_table": 1}}, "invalid_house_rule", 422),
        ({"rules": {"no_such_rule": 1}}, "invalid_house_rule", 422),
        ({"rules": {"final_table_size": "nine"}}, "invalid_house_rule", 422),
        ({"table_numbers": [1, 1]}, "duplicate_table_number", 422),
        ({"table_numbers": [99]}, "unknown_table", 422),
        ({"late_registration_level": 999}, "invalid_late_registration_level", 422),
        ({"structure_id": 999_999}, "structure_not_found", 404),
        ({"payout_structure_id": 999_999}, "payout_structure_not_found", 404),
        ({"rebuy_until_level": 2, "rebuy_chips": 0}, "invalid_rebuy_chips", 422),
        ({"scheduled_start_ms": 10**20}, "invalid_input", 422),
        ({"max_entries": True}, "invalid_input", 422),
        ({"name": "   "}, "invalid_name", 422),
        ({"settings_token": "stale", "name": "X"}, "edited_meanwhile", 409),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(api, tournament, body, code, status):
    before = snapshot(tournament)
    r = patch(api, tournament, body)
    assert r.status_code == status, r.json()
    assert r.json()["code"] == code and r.json()["detail"]
    assert snapshot(tournament) == before


def test_money_and_tables_stay_once_sold_and_drawn(api, tournament):
    seat_players(api, tournament, ["Kovács Ádám", "Varga Ferenc"])
    before = snapshot(tournament)
    assert patch(api, tournament, {"buy_in": 1}).json()["code"] == "money_taken"
    assert patch(api, tournament, {"table_numbers": [1, 2]}).json()["code"] == "seats_drawn"
    r = patch(api, tournament, {"rules": {"seats_per_table": 10}})
    assert r.json()["code"] == "seats_drawn"
    assert snapshot(tournament) == before
    # What may still change: the name, the cap, a floor rule.
    r = patch(api, tournament, {"name": "Renamed", "rules": {"balance_threshold": 3}})
    assert r.status_code == 200 and r.json()["rules"]["balance_threshold"] == 3


def test_the_structure_and_stack_stay_once_started(api, seated_tournament):
    t = seated_tournament
    api.post(f"/tournaments/{t.pk}/start")
    assert patch(api, t, {"starting_stack": 50_000}).json()["code"] == "tournament_started"
    assert patch(api, t, {"structure_id": t.structure_id + 0}).status_code == 200  # unchanged


def test_a_larger_cap_seats_the_waiting_list(api, tournament):
    patch(api, tournament, {"max_entries": 2})
    for name in ("A", "B", "C"):
        pid = api.post("/players", {"name": name}).json()["id"]
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid})
    assert Entry.objects.filter(tournament=tournament, status="waiting").count() == 1
    assert patch(api, tournament, {"max_entries": 3}).status_code == 200
    assert Entry.objects.filter(tournament=tournament, status="waiting").count() == 0
    assert patch(api, tournament, {"max_entries": 0}).json()["max_entries"] is None


def test_the_cap_refuses_without_a_waiting_list(api, tournament):
    patch(api, tournament, {"max_entries": 1, "waiting_list": False})
    ids = [api.post("/players", {"name": n}).json()["id"] for n in ("A", "B")]
    assert (
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": ids[0]}).status_code == 201
    )
    r = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": ids[1]})
    assert r.status_code == 409 and r.json()["code"] == "tournament_full"


def test_only_a_director_edits(api_as, tournament):
    r = patch(api_as("desk"), tournament, {"name": "Mine"})
    assert r.status_code == 403
    assert Tournament.objects.get(pk=tournament.pk).name == "Friday deepstack"


def test_create_takes_a_start_and_a_cap(api, structure, room):
    start_ms = int(datetime(2031, 1, 3, 19, 0, tzinfo=UTC).timestamp() * 1000)
    r = api.post(
        "/tournaments",
        {
            "name": "Capped",
            "structure_id": structure.pk,
            "starting_stack": 40_000,
            "buy_in": 10_000,
            "scheduled_start_ms": start_ms,
            "max_entries": 45,
        },
    )
    assert r.status_code == 201
    assert r.json()["scheduled_start_ms"] == start_ms and r.json()["max_entries"] == 45
