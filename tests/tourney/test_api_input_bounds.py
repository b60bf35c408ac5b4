"""Issue 12, bounded input: money and chips of any real amount are kept exactly (64-bit
columns; on PostgreSQL with server-side binding 4294977296 came back as 10000), every integer
the API takes is bounded by its column and its meaning, a body that is not a JSON object is
refused everywhere, booleans are not numbers, text holding NUL or control characters is
refused (422, never 500), and a ban's end is refused alike for every bad instant."""

import json

import pytest
from pydantic import BaseModel

from clocks.models import Clock
from tourney.models import AuditEntry, Player, PlayerBan, Season, Tournament, TournamentEvent
from tourney.system.api import api as ninja_api

INT64_MAX = 2**63 - 1

pytestmark = pytest.mark.django_db

BIG = 4_294_977_296  # 2^32 + 10,000: PostgreSQL's binding kept the low 32 bits


def tournament_body(structure, room, **fields) -> dict:
    body = {
        "name": "High roller",
        "structure_id": structure.pk,
        "room_id": room.pk,
        "starting_stack": 40_000,
        "buy_in": 10_000,
        "fee": 0,
    }
    return {**body, **fields}


def writes() -> tuple[int, int, int]:
    return (Tournament.objects.count(), AuditEntry.objects.count(), TournamentEvent.objects.count())


MONEY_AND_CHIPS = {
    "buy_in": BIG,
    "fee": BIG + 1,
    "guarantee": 25_000 * 1_000_000,
    "starting_stack": BIG + 2,
    "rebuy_until_level": 4,
    "rebuy_buy_in": BIG + 3,
    "rebuy_fee": BIG + 4,
    "rebuy_chips": BIG + 5,
    "addon_level": 4,
    "addon_buy_in": BIG + 6,
    "addon_fee": BIG + 7,
    "addon_chips": BIG + 8,
}


def test_money_and_chips_beyond_32_bits_are_kept_exactly(api, structure, room):
    created = api.post("/tournaments", tournament_body(structure, room, **MONEY_AND_CHIPS))
    assert created.status_code == 201, created.json()
    tournament_id = created.json()["id"]
    got = api.get(f"/tournaments/{tournament_id}").json()
    for field, value in MONEY_AND_CHIPS.items():
        assert got[field] == value, field
    player = api.post("/players", {"name": "Whale"}).json()
    entry = api.post(f"/tournaments/{tournament_id}/entries", {"player_id": player["id"]})
    assert entry.status_code == 201, entry.json()
    got = api.get(f"/tournaments/{tournament_id}").json()
    assert got["prize_money"] == BIG
    assert got["prize_pool"] == 25_000 * 1_000_000  # the guarantee
    assert got["total_chips"] == BIG + 2


def test_blinds_and_chip_values_beyond_32_bits_are_kept_exactly(api):
    body = {
        "name": "Billions",
        "chips": [{"value": 5_000_000_000, "color": "gold"}],
        "levels": [
            {
                "kind": "level",
                "small_blind": 5_000_000_000,
                "big_blind": 10_000_000_000,
                "ante": 10_000_000_000,
                "duration_seconds": 1200,
            }
        ],
        "starting_stack": 500_000_000_000,
    }
    created = api.post("/structures", body)
    assert created.status_code == 201, created.json()
    got = api.get(f"/structures/{created.json()['id']}").json()
    level = got["levels"][0]
    assert (level["small_blind"], level["big_blind"], level["ante"]) == (
        5_000_000_000,
        10_000_000_000,
        10_000_000_000,
    )
    assert got["chips"][0]["value"] == 5_000_000_000
    assert got["starting_stack"] == 500_000_000_000


@pytest.mark.parametrize(
    "fields",
    [
        {"buy_in": 2**63},
        {"buy_in": 10**13},  # above any price (infra.web.schema_types.MONEY_MAX)
        {"fee": -1},
        {"starting_stack": 2**64},
        {"guarantee": 10**16},
        {"max_entries": 2**31},
        {"table_numbers": [1, 2**31]},
        {"late_registration_level": 2**40},
        {"rebuy_max": 2**31},
        {"seats_per_table": 13},
        {"buy_in": 1.5},
        {"buy_in": True},
        {"structure_id": 2**63},
    ],
)
def test_out_of_range_integers_are_refused_and_nothing_changes(api, structure, room, fields):
    before = writes()
    response = api.post("/tournaments", tournament_body(structure, room, **fields))
    assert response.status_code == 422, response.content
    assert response.json()["code"] == "invalid_input"
    assert writes() == before


@pytest.mark.parametrize("path", ["/tournaments/{big}", "/players/{big}", "/structures/{big}"])
def test_ids_beyond_64_bits_are_refused_not_500(api, path):
    response = api.get(path.format(big=2**64))
    assert response.status_code == 422
    assert set(response.json()) == {"code", "detail"}


def _integers(schema: dict, components: dict, where: str):
    """(where, schema) of every integer inside a JSON schema, following $refs."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        yield from _integers(components[name], components, f"{where}<{name}>")
        return
    if schema.get("type") == "integer":
        yield where, schema
    for key in ("anyOf", "oneOf", "allOf"):
        for i, sub in enumerate(schema.get(key, [])):
            yield from _integers(sub, components, f"{where}|{i}")
    for name, sub in schema.get("properties", {}).items():
        yield from _integers(sub, components, f"{where}.{name}")
    if isinstance(schema.get("items"), dict):
        yield from _integers(schema["items"], components, f"{where}[]")
    if isinstance(schema.get("additionalProperties"), dict):
        yield from _integers(schema["additionalProperties"], components, f"{where}{{}}")


def test_every_integer_the_api_takes_is_bounded_by_its_column(client):
    document = client.get("/api/v1/openapi.json").json()
    components = document["components"]["schemas"]
    unbounded = []
    for path, operations in document["paths"].items():
        for method, operation in operations.items():
            schemas = [
                (f"{method} {path} {p['in']}:{p['name']}", p["schema"])
                for p in operation.get("parameters", [])
            ]
            body = operation.get("requestBody", {}).get("content", {})
            schemas += [(f"{method} {path} body", c["schema"]) for c in body.values()]
            for where, schema in schemas:
                for spot, integer in _integers(schema, components, where):
                    low = integer.get("minimum", integer.get("exclusiveMinimum"))
                    high = integer.get("maximum", integer.get("exclusiveMaximum"))
                    if low is None or high is None or low < -(2**63) or high > INT64_MAX:
                        unbounded.append(spot)
    assert not unbounded, unbounded


def _body_models() -> list[type[BaseModel]]:
    models = set()
    for router_prefix, router in ninja_api._routers:  # noqa: B007
        for path_view in router.path_operations.values():
            for operation in path_view.operations:
                for model in operation.models:
                    for field in model.model_fields.values():
                        annotation = field.annotation
                        for candidate in (annotation, *getattr(annotation, "__args__", ())):
                            if isinstance(candidate, type) and issubclass(candidate, BaseModel):
                                models.add(candidate)
    return sorted(models, key=lambda m: m.__name__)


def test_booleans_are_not_integers_in_any_body_schema():
    accepted = []
    for model in _body_models():
        properties = model.model_json_schema()["properties"]
        for name, prop in properties.items():
            kinds = [prop, *prop.get("anyOf", [])]
            if any(k.get("type") == "integer" for k in kinds):
                value = True
            elif any(
                k.get("type") == "array" and k["items"].get("type") == "integer" for k in kinds
            ):
                value = [True]
            else:
                continue
            try:
                model.model_validate({name: value})
            except ValueError as exc:
                if any(e["loc"][:1] == (name,) for e in exc.errors()):
                    continue
            accepted.append(f"{model.__name__}.{name}")
    assert not accepted, accepted


@pytest.fixture
def running(api, seated_tournament):
    api.post(f"/tournaments/{seated_tournament.pk}/clock/start")
    api.post(f"/tournaments/{seated_tournament.pk}/clock/pause")
    return seated_tournament


def raw(api, method: str, path: str, body: bytes | str):
    return getattr(api.client, method)(
        f"/api/v1{path}", data=body, content_type="application/json", headers=api.headers
    )


@pytest.mark.parametrize("body", ['"garbage"', "[null, null]", "null", "42", "{", "[", "NaN"])
def test_a_body_that_is_not_an_object_undoes_nothing(api, running, body):
    clock = Clock.objects.get(tournament=running)
    before = (clock.version, clock.paused_remaining_ms, writes())
    response = raw(api, "post", f"/tournaments/{running.pk}/clock/undo", body)
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_json"
    clock.refresh_from_db()
    assert (clock.version, clock.paused_remaining_ms, writes()) == before


def test_a_list_body_changes_neither_season_nor_payout_structure(api, tournament):
    season = api.post("/seasons", {"name": "Spring"}).json()
    api.put(f"/tournaments/{tournament.pk}/season", {"season_id": season["id"]})
    structure = api.post(
        "/payout-structures",
        {"name": "House", "brackets": [{"min_entries": 1, "percents": [100]}]},
    ).json()
    api.put(
        f"/tournaments/{tournament.pk}/payout-structure", {"payout_structure_id": structure["id"]}
    )
    before = writes()
    for path in ("season", "payout-structure"):
        response = raw(api, "put", f"/tournaments/{tournament.pk}/{path}", "[null,null]")
        assert response.status_code == 422, path
        assert set(response.json()) == {"code", "detail"}
    tournament.refresh_from_db()
    assert tournament.season_id == season["id"]
    assert tournament.payout_structure_id == structure["id"]
    assert writes() == before


def test_false_is_no_period_and_true_is_no_player(api, running):
    api.post(f"/tournaments/{running.pk}/clock/jump", {"period_index": 2})
    clock = Clock.objects.get(tournament=running)
    before = (clock.version, clock.period_index, writes())
    response = api.post(f"/tournaments/{running.pk}/clock/jump", {"period_index": False})
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_input"
    response = api.post(f"/tournaments/{running.pk}/entries", {"player_id": True})
    assert response.status_code == 422
    clock.refresh_from_db()
    assert (clock.version, clock.period_index) == before[:2]


def test_malformed_json_is_422_with_code_and_detail(api):
    response = raw(api, "post", "/players", '{"name": "Ann"')
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_json"
    assert not Player.objects.filter(name="Ann").exists()


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/players", {"name": "Ann\x00"}),
        ("/players", {"name": "Ann", "nickname": "\x00"}),
        ("/players", {"name": "Ann\x07Bell"}),
        ("/players", {"name": "Ann\nBell"}),  # a name is one line
        ("/players", {"name": "Ann", "phone": "\u0085"}),
        ("/players", {"name": "Ann", "x\x00": 1}),
        ("/seasons", {"name": "\x1bSpring"}),
        ("/structures", {"name": "A\x00", "levels": []}),
    ],
)
def test_nul_and_control_characters_are_refused_not_500(api, path, body):
    before = (Player.objects.count(), Season.objects.count(), writes())
    response = api.post(path, body)
    assert response.status_code == 422, response.content
    assert set(response.json()) == {"code", "detail"}
    assert (Player.objects.count(), Season.objects.count(), writes()) == before


def test_a_nul_in_the_search_is_refused(api):
    response = api.get("/players?search=Ann%00")
    assert response.status_code == 422
    assert response.json()["code"] == "invalid_text"


def test_multi_line_text_keeps_its_line_breaks(api, tournament):
    response = api.put(f"/tournaments/{tournament.pk}/message", {"message": "Dinner\n\tat 8"})
    assert response.status_code == 200, response.content
    response = api.put(f"/tournaments/{tournament.pk}/message", {"message": "Dinner\x00"})
    assert response.status_code == 422


def test_a_nul_in_a_page_form_is_refused_not_500(client, director, tournament):
    client.force_login(director)
    response = client.get(f"/tournaments/{tournament.pk}/desk/search/?q=Ann%00")
    assert response.status_code == 422
    before = Player.objects.count()
    response = client.post(
        f"/tournaments/{tournament.pk}/desk/new-player/", {"name": "Ann\x00", "nickname": ""}
    )
    assert response.status_code == 422
    assert "cannot be stored" in response.content.decode()
    assert Player.objects.count() == before


@pytest.mark.parametrize("ends_at_ms", [10**15, 2**63, 2**64, 0, False, True, -1, 1000, "soon"])
def test_a_ban_end_that_is_no_future_instant_is_refused_alike(api, ends_at_ms):
    player = api.post("/players", {"name": "Ann"}).json()
    before = (PlayerBan.objects.count(), AuditEntry.objects.count())
    response = api.post(
        f"/players/{player['id']}/bans", {"reason": "Angle shooting", "ends_at_ms": ends_at_ms}
    )
    assert response.status_code == 422, response.content
    assert set(response.json()) == {"code", "detail"}
    assert (PlayerBan.objects.count(), AuditEntry.objects.count()) == before


def test_a_ban_without_an_end_is_indefinite_and_answers_the_full_ban(api):
    player = api.post("/players", {"name": "Ann"}).json()
    response = api.post(f"/players/{player['id']}/bans", {"reason": "Angle shooting"})
    assert response.status_code == 201
    ban = response.json()
    assert ban["ends_at_ms"] is None
    listed = api.get(f"/players/{player['id']}/bans").json()
    assert listed == [ban]  # one schema for a ban, whichever route answers it


def test_raw_helper_sends_bytes_untouched(api):
    assert json.loads(raw(api, "get", "/time", "").content)["server_time_ms"] > 0


def test_a_house_rule_past_32_bits_is_refused(api, structure, room):
    """A rule with no maximum of its own (level_minutes, reentry_max ...) still fits 32 bits,
    on the API as on the settings page (issue 24)."""
    body = tournament_body(structure, room, rules={"reentry_max": 2**31})
    count = Tournament.objects.count()
    r = api.post("/tournaments", body)
    assert r.status_code == 422 and r.json()["code"] == "invalid_house_rule"
    assert Tournament.objects.count() == count
