"""Registration through the API: players, entries, money, waiting list and refusals."""

import pytest

from tests.conftest import make_staff
from tests.factories import PlayerFactory
from tourney.core.errors import Conflict
from tourney.models import AuditEntry, Entry, LedgerEntry
from tourney.registration.usecases import entries_register_bulk, entry_register

pytestmark = pytest.mark.django_db


def create_player(api, name: str) -> int:
    response = api.post("/players", {"name": name})
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_health_and_time_need_no_login(client):
    assert client.get("/api/v1/health").json()["database"] == "ok"
    assert client.get("/api/v1/time").json()["server_time_ms"] > 1_700_000_000_000


def test_unauthenticated_request_gets_code_and_detail(client):
    response = client.get("/api/v1/players")
    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"


def test_register_takes_buy_in_and_fee_into_ledger(api, tournament):
    player_id = create_player(api, "Kovács Ádám")
    response = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player_id})
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["player_id"] == player_id and body["table"] is None and body["seat"] is None
    ledger = {row.kind: row.amount for row in LedgerEntry.objects.filter(tournament=tournament)}
    assert ledger == {"buy_in": 10_000, "fee": 2_000}
    summary = api.get(f"/tournaments/{tournament.pk}").json()
    assert summary["entries"] == 1 and summary["prize_pool"] == 10_000
    assert summary["total_chips"] == 40_000 and summary["average_stack"] == 40_000
    assert AuditEntry.objects.filter(action="entry.register").count() == 1


def test_search_ignores_accents(api):
    create_player(api, "Kovács Ádám")
    create_player(api, "Nagy Béla")
    names = [p["name"] for p in api.get("/players?search=kovacs").json()]
    assert names == ["Kovács Ádám"]


def test_registering_twice_is_refused_and_changes_nothing(api, tournament):
    player_id = create_player(api, "Ann")
    api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player_id})
    before = LedgerEntry.objects.count()
    response = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player_id})
    assert response.status_code == 409
    assert response.json()["code"] == "already_registered"
    assert LedgerEntry.objects.count() == before


def test_unknown_ids_are_404(api, tournament):
    assert (
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": 999}).json()["code"]
        == "player_not_found"
    )
    response = api.post("/tournaments/999/entries", {"player_id": 1})
    assert response.status_code == 404


def test_negative_buy_in_is_refused(api, room, structure):
    response = api.post(
        "/tournaments",
        {"name": "X", "structure_id": structure.pk, "starting_stack": 1000, "buy_in": -5},
    )
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_input"
    assert "buy_in" in response.json()["detail"]


def test_banned_player_is_refused_with_reason(api, tournament):
    player_id = create_player(api, "Cheater")
    assert api.post(f"/players/{player_id}/bans", {"reason": "collusion"}).status_code == 201
    response = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player_id})
    assert response.status_code == 409
    assert response.json()["code"] == "player_banned"
    assert "collusion" in response.json()["detail"]
    assert not Entry.objects.exists()


def test_full_room_without_waiting_list_is_refused(api, room, structure):
    body = {
        "name": "Tiny",
        "structure_id": structure.pk,
        "starting_stack": 1000,
        "buy_in": 100,
        "table_numbers": [1],
        "seats_per_table": 2,
        "waiting_list": False,
    }
    tournament = api.post("/tournaments", body).json()
    for name in ("A", "B"):
        pid = create_player(api, name)
        assert (
            api.post(f"/tournaments/{tournament['id']}/entries", {"player_id": pid}).status_code
            == 201
        )
    pid = create_player(api, "C")
    response = api.post(f"/tournaments/{tournament['id']}/entries", {"player_id": pid})
    assert response.status_code == 409 and response.json()["code"] == "tournament_full"


def test_waiting_list_moves_up_when_a_player_unregisters(api, room, structure):
    body = {
        "name": "Tiny",
        "structure_id": structure.pk,
        "starting_stack": 1000,
        "buy_in": 100,
        "fee": 10,
        "table_numbers": [1],
        "seats_per_table": 2,
    }
    tid = api.post("/tournaments", body).json()["id"]
    ids = [create_player(api, n) for n in ("A", "B", "C")]
    entries = [api.post(f"/tournaments/{tid}/entries", {"player_id": p}).json() for p in ids]
    assert [e["status"] for e in entries] == ["active", "active", "waiting"]
    assert api.delete(f"/tournaments/{tid}/entries/{entries[0]['id']}").status_code == 204
    assert Entry.objects.get(pk=entries[2]["id"]).status == "active"
    refunds = LedgerEntry.objects.filter(entry_id=entries[0]["id"], amount__lt=0)
    assert sorted(r.amount for r in refunds) == [-100, -10]
    summary = api.get(f"/tournaments/{tid}").json()
    assert summary["prize_pool"] == 200 and summary["waiting"] == 0


def test_draw_seats_everyone_and_cannot_run_twice(api, tournament):
    for i in range(23):
        pid = create_player(api, f"Player {i}")
        api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid})
    response = api.post(f"/tournaments/{tournament.pk}/draw")
    assert response.status_code == 200, response.content
    tables = response.json()["tables"]
    assert sorted(len(t["players"]) for t in tables) == [7, 8, 8]
    for table in tables:
        assert table["button_seat"] in {p["seat"] for p in table["players"]}
        assert len(table["button_draw"]) == len(table["players"])
    again = api.post(f"/tournaments/{tournament.pk}/draw")
    assert again.status_code == 409 and again.json()["code"] == "draw_already_done"


def test_late_registrant_gets_a_seat_at_a_smallest_table(api, tournament):
    for i in range(17):
        api.post(
            f"/tournaments/{tournament.pk}/entries",
            {"player_id": create_player(api, f"P{i}")},
        )
    api.post(f"/tournaments/{tournament.pk}/draw")
    tables = {
        t["number"]: len(t["players"])
        for t in api.get(f"/tournaments/{tournament.pk}/tables").json()
    }
    smallest = min(tables.values())
    late = api.post(
        f"/tournaments/{tournament.pk}/entries", {"player_id": create_player(api, "Late")}
    ).json()
    assert late["table"] is not None and tables[late["table"]] == smallest


def test_unregister_after_start_is_refused(api, tournament):
    entries = [
        api.post(
            f"/tournaments/{tournament.pk}/entries", {"player_id": create_player(api, n)}
        ).json()
        for n in ("A", "B")
    ]
    api.post(f"/tournaments/{tournament.pk}/draw")
    assert api.post(f"/tournaments/{tournament.pk}/start").status_code == 200
    response = api.delete(f"/tournaments/{tournament.pk}/entries/{entries[0]['id']}")
    assert response.status_code == 409 and response.json()["code"] == "tournament_started"


def test_registering_in_a_finished_tournament_is_refused(api, tournament):
    tournament.status = "finished"
    tournament.save()
    response = api.post(
        f"/tournaments/{tournament.pk}/entries", {"player_id": create_player(api, "A")}
    )
    assert response.status_code == 409 and response.json()["code"] == "registration_closed"


def test_display_role_cannot_register(api, api_as, tournament):
    pid = create_player(api, "A")
    response = api_as("display").post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid})
    assert response.status_code == 403 and response.json()["code"] == "forbidden"


def test_hand_report_moves_the_button(api, tournament):
    for i in range(6):
        api.post(
            f"/tournaments/{tournament.pk}/entries", {"player_id": create_player(api, f"P{i}")}
        )
    table = api.post(f"/tournaments/{tournament.pk}/draw").json()["tables"][0]
    seats = sorted(p["seat"] for p in table["players"])
    after = api.post(f"/tournaments/{tournament.pk}/tables/{table['number']}/hands").json()
    assert after["button_seat"] == table["small_blind_seat"]
    assert after["small_blind_seat"] == table["big_blind_seat"]
    assert after["big_blind_seat"] in seats and after["hands_played"] == 1
    set_button = api.post(
        f"/tournaments/{tournament.pk}/tables/{table['number']}/hands", {"button_seat": seats[0]}
    ).json()
    assert set_button["button_seat"] == seats[0] and set_button["small_blind_seat"] == seats[1]


def test_structures_list_includes_the_seed_template(api, structure):
    structures = api.get("/structures").json()
    rimoc = next(s for s in structures if s["template"] == "rimoc-championship")
    levels = [p for p in rimoc["levels"] if p["kind"] == "level"]
    assert len(levels) == 16 and levels[5]["small_blind"] == 700 and levels[5]["big_blind"] == 1500
    assert [c["value"] for c in rimoc["chips"]] == [100, 500, 1000, 2500, 10000]
    assert rimoc["starting_stack"] == 40_000
    assert sum(1 for p in rimoc["levels"] if p["kind"] == "break") == 4


def test_openapi_lists_the_contract_paths(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    for path in (
        "/api/v1/health",
        "/api/v1/time",
        "/api/v1/players",
        "/api/v1/rooms",
        "/api/v1/structures",
        "/api/v1/tournaments",
        "/api/v1/tournaments/{tournament_id}",
        "/api/v1/tournaments/{tournament_id}/entries",
        "/api/v1/tournaments/{tournament_id}/entries/{entry_id}",
        "/api/v1/tournaments/{tournament_id}/draw",
        "/api/v1/tournaments/{tournament_id}/tables",
        "/api/v1/tournaments/{tournament_id}/tables/{number}/hands",
    ):
        assert path in paths, path


def test_unknown_endpoint_and_malformed_json_get_code_and_detail(api):
    missing = api.get("/no-such-thing")
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
    response = api.client.post(
        "/api/v1/players", data="{not json", content_type="application/json", headers=api.headers
    )
    assert 400 <= response.status_code < 500
    assert set(response.json()) == {"code", "detail"}


def test_bulk_registration_writes_the_rows_one_registration_writes(api, tournament, director):
    pid = api.post("/players", {"name": "Első Egon"}).json()["id"]
    assert api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": pid}).status_code == 201
    assert entries_register_bulk(actor=director, tournament_id=tournament.pk, names=["B", "C"]) == 2

    def rows(number):
        return list(
            LedgerEntry.objects.filter(entry__number=number, entry__tournament=tournament)
            .order_by("id")
            .values_list("kind", "purpose", "amount", "method", "receipt_number")
        )

    first, second = rows(1), rows(2)
    assert [r[:4] for r in second] == [r[:4] for r in first]
    assert {r[4] for r in second} == {f"{tournament.pk}-0002"}
    assert [e.number for e in Entry.objects.filter(tournament=tournament).order_by("number")] == [
        1,
        2,
        3,
    ]
    assert api.post(f"/tournaments/{tournament.pk}/draw").status_code == 200
    with pytest.raises(Conflict):
        entries_register_bulk(actor=director, tournament_id=tournament.pk, names=["D"])
    assert Entry.objects.filter(tournament=tournament).count() == 3


@pytest.mark.parametrize(
    ("language", "line"),
    [
        ("en", "Unregistered and refunded Kovács Ádám"),
        ("hu", "Kovács Ádám nevezése visszavonva, összeg visszatérítve"),
        ("cs", "Odhlášení a vrácení peněz: Kovács Ádám"),
    ],
)
def test_the_activity_log_says_an_unregistration_in_the_readers_language(
    api, tournament, director_client, language, line
):
    """The unregistration's log line stayed English in hu and cs: its summary was passed to
    the audit as a plain string, which makemessages does not see, so its translations had
    gone obsolete in both catalogues (not compiled)."""
    entry = api.post(
        f"/tournaments/{tournament.pk}/entries", {"player_id": create_player(api, "Kovács Ádám")}
    ).json()
    assert api.delete(f"/tournaments/{tournament.pk}/entries/{entry['id']}").status_code == 204
    director_client.cookies["django_language"] = language
    page = director_client.get(f"/tournaments/{tournament.pk}/").content.decode()
    assert f'<span class="activity-what">{line}</span>' in page


def test_a_deleted_cashier_leaves_the_money_and_the_record_without_a_name(tournament):
    """Who registered, took the money and did it are kept without a database constraint
    (tourney migration 0019: a check locked the user's row in every registration); deleting
    the user still empties them, as the foreign keys' SET_NULL says."""
    cashier = make_staff("Kasszás Kata", "desk")
    player = PlayerFactory(name="Szentmiklóssy-Gyöngyösi Bernadett")
    entry = entry_register(actor=cashier, tournament_id=tournament.pk, player_id=player.pk)
    audit = AuditEntry.objects.get(action="entry.register", target_id=entry.pk)
    assert (entry.created_by_id, audit.actor_id) == (cashier.pk, cashier.pk)
    cashier.delete()
    entry.refresh_from_db()
    audit.refresh_from_db()
    assert entry.created_by_id is None and audit.actor_id is None
    assert audit.actor_name  # the name stays on the record
    money = LedgerEntry.objects.filter(entry=entry)
    assert money.count() == 2 and not money.exclude(cashier=None).exists()
