"""Bearer tokens: read on every call, so a revocation, a role change or a deactivation counts
at the next call in every web process; the last use is written at most once a minute.
(A per-process cache of the token's row was tried and did not pay: docs/benchmarks.md.)"""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tests.conftest import ApiClient, make_staff
from tourney.models import ApiToken
from tourney.staff.usecases import api_token_create, api_token_revoke, staff_user_ensure


def _token_reads(client: ApiClient) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/tournaments").status_code == 200
    return sum("token_hash" in q["sql"] for q in queries)


def _script(role: str = "director"):  # type: ignore[no-untyped-def]
    user = make_staff(f"script-{role}", role)
    raw, token = api_token_create(actor=user, user=user)
    return user, token, ApiClient(raw)


@pytest.mark.django_db
def test_every_call_reads_its_token_once(db):
    _user, _token, client = _script()
    for _ in range(3):
        assert _token_reads(client) == 1


@pytest.mark.django_db
def test_revoked_here_the_token_is_refused_at_the_next_call(director):
    _user, token, client = _script()
    assert client.get("/tournaments").status_code == 200
    api_token_revoke(actor=director, token_id=token.pk)
    assert client.get("/tournaments").status_code == 401


@pytest.mark.django_db
def test_revoked_by_another_process_it_is_refused_at_the_next_call(db):
    _user, token, client = _script()
    assert client.get("/tournaments").status_code == 200
    # Another web process revoked it: this one did not see it happen.
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
    assert client.get("/tournaments").status_code == 401


@pytest.mark.django_db
def test_a_role_taken_away_or_a_user_deactivated_counts_at_once(director):
    user, _token, client = _script()
    assert client.post("/players", {"name": "Kovács Béla"}).status_code == 201
    staff_user_ensure(actor=director, username=user.username, role="display")
    assert client.post("/players", {"name": "Nagy Anna"}).status_code == 403
    user.is_active = False
    user.save()
    assert client.get("/tournaments").status_code == 401


@pytest.mark.django_db
def test_the_last_use_is_written_once_a_minute_not_on_every_call(db):
    _user, token, client = _script()
    with CaptureQueriesContext(connection) as queries:
        for _ in range(5):
            assert client.get("/tournaments").status_code == 200
    assert sum("last_used_at" in q["sql"] and q["sql"].startswith("UPDATE") for q in queries) == 1
    token.refresh_from_db()
    assert token.last_used_at is not None
