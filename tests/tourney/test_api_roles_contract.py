"""Issue 5's API as a whole: every new route is in the OpenAPI document, and every new write
refuses a role it is not for with 403 `forbidden` and changes nothing (desk gives no penalty,
floor makes no deal, display writes nothing)."""

import pytest

from tourney.models import AuditEntry, TournamentEvent

pytestmark = pytest.mark.django_db

T = "/tournaments/{t}"
PENALTY = {"entry_id": 1, "kind": "warning", "reason": "Language"}
DEAL = {"method": "icm", "stacks": [{"entry_id": 1, "stack": 1}]}
STRUCTURE = {"name": "House", "brackets": [{"min_entries": 1, "percents": [100]}]}

# (method, path, body, roles refused): the writes of rebuys, color-ups, penalties, payouts.
WRITES = [
    ("post", T + "/entries/1/rebuy", {}, ("display", "floor")),
    ("post", T + "/entries/1/addon", {}, ("display", "floor")),
    ("post", T + "/chip-purchases/1/undo", {}, ("display", "floor")),
    ("post", T + "/color-ups/preview", {"table": 1}, ("display", "desk")),
    ("post", T + "/color-ups", {"table": 1}, ("display", "desk")),
    ("post", T + "/color-ups/1/confirm", {}, ("display", "desk")),
    ("post", T + "/color-ups/1/undo", {}, ("display", "desk")),
    ("post", T + "/color-ups/1/found", {"seat": 1, "value": 100}, ("display", "desk")),
    ("post", T + "/penalties", PENALTY, ("display", "desk")),
    ("post", T + "/penalties/1/undo", {}, ("display", "desk")),
    ("post", T + "/penalties/1/end", {}, ("display", "desk")),
    ("post", T + "/tables/1/hands", {"misdeal": True}, ("display", "desk")),
    ("post", "/players/1/bans", {"reason": "x"}, ("display", "desk", "floor")),
    ("post", "/players/1/bans/1/lift", {}, ("display", "desk", "floor")),
    ("post", "/payout-structures", STRUCTURE, ("display", "desk", "floor")),
    ("put", "/payout-structures/1", STRUCTURE, ("display", "desk", "floor")),
    ("post", "/payout-structures/1/copy", {}, ("display", "desk", "floor")),
    ("put", T + "/payout-structure", {"payout_structure_id": None}, ("display", "desk", "floor")),
    ("post", T + "/results/1/pay", {"method": "cash"}, ("display", "floor")),
    ("post", T + "/deals/preview", DEAL, ("display", "desk", "floor")),
    ("post", T + "/deals", DEAL, ("display", "desk", "floor")),
    ("post", T + "/deals/1/undo", {}, ("display", "desk", "floor")),
    ("post", "/seasons", {"name": "Spring"}, ("display", "desk", "floor")),
    ("put", "/seasons/1", {"name": "Spring"}, ("display", "desk", "floor")),
    ("put", T + "/season", {"season_id": None}, ("display", "desk", "floor")),
    # a festival's (issue 26)
    ("post", T + "/flights", {"name": "Day 1A"}, ("display", "desk", "floor")),
    ("put", T + "/chip-counts", {"counts": [{"entry_id": 1, "chips": 5}]}, ("display", "desk")),
    ("post", T + "/end-of-day", {}, ("display", "desk", "floor")),
    ("post", T + "/end-of-day/undo", {}, ("display", "desk", "floor")),
    ("post", T + "/day2/draw", {}, ("display", "desk", "floor")),
    ("post", T + "/public-link/revoke", {}, ("display", "desk", "floor")),
]


def test_openapi_documents_every_new_route(client):
    paths = client.get("/api/v1/openapi.json").json()["paths"]
    documented = {(m, p) for p, ops in paths.items() for m in ops}
    for method, path, _body, _roles in WRITES:
        path = path.replace("{t}", "{tournament_id}")
        for name, template in (
            ("/entries/1/", "/entries/{entry_id}/"),
            ("/chip-purchases/1/", "/chip-purchases/{purchase_id}/"),
            ("/color-ups/1/", "/color-ups/{color_up_id}/"),
            ("/penalties/1/", "/penalties/{penalty_id}/"),
            ("/tables/1/", "/tables/{number}/"),
            ("/players/1/", "/players/{player_id}/"),
            ("/bans/1/", "/bans/{ban_id}/"),
            ("/payout-structures/1", "/payout-structures/{structure_id}"),
            ("/results/1/", "/results/{entry_id}/"),
            ("/deals/1/", "/deals/{deal_id}/"),
            ("/seasons/1", "/seasons/{season_id}"),
        ):
            path = path.replace(name, template)
        assert (method, f"/api/v1{path}") in documented, (method, path)
    for path in (
        "/api/v1/tournaments/{tournament_id}/chip-purchases",
        "/api/v1/tournaments/{tournament_id}/color-ups",
        "/api/v1/tournaments/{tournament_id}/penalties",
        "/api/v1/tournaments/{tournament_id}/payouts",
        "/api/v1/tournaments/{tournament_id}/results",
        "/api/v1/tournaments/{tournament_id}/deals",
        "/api/v1/players/{player_id}/penalties",
        "/api/v1/players/{player_id}/bans",
        "/api/v1/seasons/{season_id}/standings",
    ):
        assert "get" in paths[path], path


@pytest.mark.parametrize(("method", "path", "body", "refused"), WRITES)
def test_a_role_a_write_is_not_for_is_refused_and_nothing_changes(
    api, api_as, tournament, method, path, body, refused
):
    clients = {role: api_as(role) for role in refused}  # making a token is audited
    before = (AuditEntry.objects.count(), TournamentEvent.objects.count())
    for role, client in clients.items():
        response = getattr(client, method)(path.replace("{t}", str(tournament.pk)), body)
        assert response.status_code == 403, (role, response.json())
        assert response.json()["code"] == "forbidden" and response.json()["detail"]
    assert (AuditEntry.objects.count(), TournamentEvent.objects.count()) == before


def _missing(value):
    """The same body about ids that do not exist: every 1 or null id becomes 999."""
    if isinstance(value, dict):
        return {
            k: 999 if k.endswith("_id") and v in (1, None) else _missing(v)
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_missing(v) for v in value]
    return 999 if value == 1 else value


# Writes that make something new or act on the tournament itself: no id to be missing.
ABOUT_ITSELF = ("/seasons", "/payout-structures", T + "/flights", T + "/public-link/revoke")
ABOUT_SOMETHING = [w[:3] for w in WRITES if w[1] not in ABOUT_ITSELF]


@pytest.mark.parametrize(("method", "path", "body"), ABOUT_SOMETHING)
def test_a_write_about_nothing_that_exists_is_refused_with_code_and_detail(
    api, tournament, method, path, body
):
    before = (AuditEntry.objects.count(), TournamentEvent.objects.count())
    path = path.replace("/1", "/999").replace("{t}", str(tournament.pk))
    response = getattr(api, method)(path, _missing(body))
    assert 400 <= response.status_code < 500, response.json()
    assert set(response.json()) == {"code", "detail"} and response.json()["detail"]
    assert (AuditEntry.objects.count(), TournamentEvent.objects.count()) == before
