"""A database out of reach answers 503 `{code, detail}`, never 500 (issue 24): the API's
writes and reads, the pages (with a page that needs no database), and `/api/v1/health`, which
says `"database": "down"`. The database is really out of reach: the connection is pointed at a
port nobody listens on (PostgreSQL) or a file that cannot be opened (SQLite)."""

import pytest
from django.test import Client

from tests.conftest import ApiClient
from tests.databases import database_out_of_reach
from tourney.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_write_answers_503_and_changes_nothing(api: ApiClient):
    api.client.raise_request_exception = False
    with database_out_of_reach():
        r = api.post("/players", {"name": "Kovács Béla"})
    assert r.status_code == 503, r.content
    assert r.json()["code"] == "database_unavailable"
    assert "database" in r.json()["detail"]
    assert r["Retry-After"] == "5"
    assert not Player.objects.filter(name="Kovács Béla").exists()
    assert api.post("/players", {"name": "Kovács Béla"}).status_code == 201


def test_health_says_the_database_is_down(db):
    client = Client(raise_request_exception=False)
    with database_out_of_reach():
        r = client.get("/api/v1/health")
    assert r.status_code == 503
    body = r.json()
    assert body["status"] == "down" and body["database"] == "down"
    assert body["broker"] in ("ok", "absent")
    assert client.get("/api/v1/health").json()["database"] == "ok"


def test_a_page_answers_503_with_a_page_that_needs_no_database(director, tournament):
    client = Client(raise_request_exception=False)
    client.force_login(director)
    with database_out_of_reach():
        page = client.get(f"/tournaments/{tournament.pk}/")
        form = client.post(f"/tournaments/{tournament.pk}/desk/new-player/", {"name": "X"})
    assert page.status_code == 503 and form.status_code == 503
    text = page.content.decode()
    assert "database cannot be reached" in text and 'http-equiv="refresh"' in text
    assert 'http-equiv="refresh"' not in form.content.decode()


def test_a_page_in_hungarian_says_it_in_hungarian(director, tournament):
    client = Client(raise_request_exception=False, headers={"Accept-Language": "hu"})
    client.force_login(director)
    with database_out_of_reach():
        page = client.get(f"/tournaments/{tournament.pk}/")
    assert page.status_code == 503
    assert 'lang="hu"' in page.content.decode()
