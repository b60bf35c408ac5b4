"""Issue 13 through the API: short-handed final tables (docs/rules.md §7.1)."""

import pytest

from tables.models import TournamentTable
from tests.conftest import numbered_players
from tourney.models import Entry

pytestmark = pytest.mark.django_db


def create(api, room, structure, **fields) -> int:
    body = {
        "name": "Short-handed",
        "structure_id": structure.pk,
        "starting_stack": 40_000,
        "buy_in": 10_000,
        "fee": 2_000,
        "room_id": room.pk,
        **fields,
    }
    response = api.post("/tournaments", body)
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def register(api, tid: int, names) -> dict[str, int]:
    ids = {}
    for name in names:
        player_id = api.post("/players", {"name": name}).json()["id"]
        entry = api.post(f"/tournaments/{tid}/entries", {"player_id": player_id})
        assert entry.status_code == 201, entry.json()
        ids[name] = entry.json()["id"]
    return ids


def start(api, tid: int, names) -> dict[str, int]:
    ids = register(api, tid, names)
    assert api.post(f"/tournaments/{tid}/draw").status_code == 200
    assert api.post(f"/tournaments/{tid}/clock/start").status_code == 200
    return ids


def bust(api, tid: int, *entry_ids: int):
    body = {"eliminations": [{"entry_id": e} for e in entry_ids]}
    response = api.post(f"/tournaments/{tid}/eliminations", body)
    assert response.status_code == 200, response.json()
    return response.json()


def open_counts(tid: int) -> list[int]:
    return sorted(
        Entry.objects.filter(
            tournament_id=tid, status="active", tournament_table__status="open"
        ).values_list("tournament_table__number", flat=True)
    )


def playing(tid: int) -> list[int]:
    return list(
        Entry.objects.filter(tournament_id=tid, status="active")
        .order_by("pk")
        .values_list("pk", flat=True)
    )


# --- item 12: short-handed final tables ----------------------------------------------------


@pytest.mark.parametrize("profile", ["doyle", "tda2024", "mirage", "veszprem", "rimoc", "atlas"])
def test_six_max_final_table_forms_seven_handed_in_every_profile(api, room, structure, profile):
    """6-max: Doyle #8 (7 at six-handed tables) and TDA RP-9 (7- and 6-handed events go to a
    7-handed final table); no profile forms a 9- or 10-handed final table at six-max."""
    # Rimóc's thresholds are for 9 seats a table (18 = 2 x 9): a 6-max event clears them.
    rules = {"table_thresholds": None} if profile == "rimoc" else {}
    tid = create(api, room, structure, house_rules=profile, seats_per_table=6, rules=rules)
    start(api, tid, numbered_players(13))
    assert len(set(open_counts(tid))) >= 2
    while len(playing(tid)) > 8:
        bust(api, tid, playing(tid)[0])
        assert TournamentTable.objects.filter(tournament_id=tid, status="open").count() >= 2
    result = bust(api, tid, playing(tid)[0])
    kinds = [a["kind"] for a in result["actions"]]
    assert kinds == ["final_table_redraw"], kinds
    assert len(result["actions"][0]["moves"]) == 7
    host = TournamentTable.objects.get(tournament_id=tid, status="open")
    assert host.seats == 7


def test_nine_max_doyle_keeps_its_ten_handed_final_table(api, room, structure):
    tid = create(api, room, structure, house_rules="doyle")
    start(api, tid, numbered_players(12))
    while len(playing(tid)) > 11:
        bust(api, tid, playing(tid)[0])
    assert TournamentTable.objects.filter(tournament_id=tid, status="open").count() == 2
    result = bust(api, tid, playing(tid)[0])
    assert [a["kind"] for a in result["actions"]] == ["final_table_redraw"]
    assert len(result["actions"][0]["moves"]) == 10


def test_short_handed_final_table_size_is_a_house_rule_the_tournament_overrides(
    api, room, structure
):
    tid = create(
        api,
        room,
        structure,
        house_rules="tda2024",
        seats_per_table=6,
        rules={"short_handed_final_table_size": 6},
    )
    start(api, tid, numbered_players(13))
    while len(playing(tid)) > 7:
        bust(api, tid, playing(tid)[0])
        assert TournamentTable.objects.filter(tournament_id=tid, status="open").count() >= 2
    result = bust(api, tid, playing(tid)[0])
    assert [a["kind"] for a in result["actions"]] == ["final_table_redraw"]
    assert len(result["actions"][0]["moves"]) == 6
