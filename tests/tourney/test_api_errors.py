"""Issue 12, the error contract everywhere under /api/: 401 for writes without valid
credentials (not a CSRF 403), 403 for the wrong role, 404 for an unknown id or route, 405 for a
wrong method, 413 for a body too large, 422 for malformed JSON, always `{code, detail}` JSON,
and the OpenAPI document names each schema once."""

import pytest
from django.test import Client

from tourney.models import AuditEntry, Player

pytestmark = pytest.mark.django_db


def assert_contract(response, status: int, code: str | None = None) -> dict:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"code", "detail"}, body
    assert body["detail"]
    if code is not None:
        assert body["code"] == code
    return body


@pytest.mark.parametrize(
    "headers", [{}, {"Authorization": "Bearer not-a-token"}, {"Authorization": "Basic eDp5"}]
)
def test_writes_without_valid_credentials_are_401_not_csrf_403(headers):
    client = Client(enforce_csrf_checks=True)
    response = client.post(
        "/api/v1/players", {"name": "Ann"}, content_type="application/json", headers=headers
    )
    assert_contract(response, 401, "not_authenticated")
    assert not Player.objects.exists()


def test_a_logged_in_page_without_its_csrf_token_is_403_csrf_failed(director):
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)
    response = client.post("/api/v1/players", {"name": "Ann"}, content_type="application/json")
    assert_contract(response, 403, "csrf_failed")
    assert not Player.objects.exists()


def test_wrong_role_is_403(api_as):
    response = api_as("display").post("/players", {"name": "Ann"})
    assert_contract(response, 403, "forbidden")


def test_unknown_id_is_404(api):
    assert_contract(api.get("/tournaments/987654"), 404)


@pytest.mark.parametrize("path", ["/api/v1/nothing-here", "/api/v2/players", "/api/", "/api/v1"])
def test_unknown_api_routes_are_404_json(api, path):
    response = api.client.get(path, headers=api.headers)
    assert_contract(response, 404, "not_found")


def test_wrong_method_is_405_json(api):
    response = api.delete("/players")
    body = assert_contract(response, 405, "method_not_allowed")
    assert "GET" in response["Allow"]
    assert body


def test_a_5_mb_body_is_413_and_changes_nothing(api):
    before = AuditEntry.objects.count()
    body = '{"name": "' + "A" * (5 * 1024 * 1024) + '"}'
    response = api.client.post(
        "/api/v1/players", body, content_type="application/json", headers=api.headers
    )
    assert_contract(response, 413, "request_too_large")
    assert AuditEntry.objects.count() == before


def test_malformed_json_is_422_in_the_readers_language(api):
    response = api.client.post(
        "/api/v1/players", "{name:", content_type="application/json", headers=api.headers
    )
    assert_contract(response, 422, "invalid_json")
    headers = {**api.headers, "Accept-Language": "hu"}
    response = api.client.post(
        "/api/v1/players", "[]", content_type="application/json", headers=headers
    )
    assert assert_contract(response, 422, "invalid_json")["detail"].startswith("A kérés törzse")


def test_openapi_names_each_schema_once_and_bans_answer_their_schema(client, api):
    document = client.get("/api/v1/openapi.json").json()
    ban_create = document["paths"]["/api/v1/players/{player_id}/bans"]["post"]
    ban_list = document["paths"]["/api/v1/players/{player_id}/bans"]["get"]
    created_ref = ban_create["responses"]["201"]["content"]["application/json"]["schema"]["$ref"]
    listed_ref = ban_list["responses"]["200"]["content"]["application/json"]["schema"]["items"][
        "$ref"
    ]
    assert created_ref == listed_ref
    promised = set(document["components"]["schemas"]["BanOut"]["properties"])
    player = api.post("/players", {"name": "Ann"}).json()
    ban = api.post(f"/players/{player['id']}/bans", {"reason": "Angle shooting"}).json()
    assert set(ban) == promised


def test_every_schema_class_has_its_own_name():
    from ninja import Schema

    import tourney.system.api  # noqa: F401  (mounts every router, importing every schema)

    classes, stack = [], [Schema]
    while stack:
        for sub in stack.pop().__subclasses__():
            stack.append(sub)
            if sub.__module__.split(".")[0] in {"tourney", "tables", "clocks"}:
                classes.append(sub)
    names: dict[str, list[str]] = {}
    for cls in classes:
        names.setdefault(cls.__name__, []).append(cls.__module__)
    assert {name: mods for name, mods in names.items() if len(mods) > 1} == {}


# Issue 31 (13): an unknown path is 404 whatever the method, with or without credentials and a
# CSRF token; an unknown field in a body is refused naming it, and nothing changes.
@pytest.mark.parametrize("method", ["get", "post", "put", "patch", "delete"])
@pytest.mark.parametrize("signed_in", [False, True])
def test_an_unknown_api_path_is_404_whatever_the_method(director, method, signed_in):
    client = Client(enforce_csrf_checks=True)
    if signed_in:
        client.force_login(director)
    body = {} if method in ("get", "delete") else {"data": "{}"}
    response = getattr(client, method)(
        "/api/v1/nothing-here", content_type="application/json", **body
    )
    assert_contract(response, 404, "not_found")


def test_a_mistyped_field_is_refused_naming_it_and_changes_nothing(api, tournament):
    before = api.get(f"/tournaments/{tournament.pk}").json()
    response = api.patch(f"/tournaments/{tournament.pk}", {"buyin": 5000})
    body = assert_contract(response, 422, "invalid_input")
    assert "buyin" in body["detail"]
    after = api.get(f"/tournaments/{tournament.pk}").json()
    assert after == before
    assert_contract(api.post("/players", {"name": "Ann", "phone_number": "1"}), 422)
    assert not Player.objects.filter(name="Ann").exists()


def test_every_request_body_of_the_contract_refuses_unknown_fields():
    from tourney.system.api import api

    schema = api.get_openapi_schema()
    components = schema["components"]["schemas"]
    lenient = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            content = operation.get("requestBody", {}).get("content", {})
            body = content.get("application/json", {}).get("schema", {})
            ref = body.get("$ref", "")
            if not ref:
                continue
            name = ref.rsplit("/", 1)[1]
            if components[name].get("additionalProperties") is not False:
                lenient.append(f"{method.upper()} {path}: {name}")
    assert lenient == []
