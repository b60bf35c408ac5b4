"""Bearer tokens kept for a moment in each web process (infra/token_cache.py): a burst of a
script's calls reads its token once; a revocation, a role change or a deactivation made in
this process counts at the next call, one made elsewhere within TOURNEY_TOKEN_CACHE_SECONDS."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from infra import token_cache
from tests.conftest import ApiClient, make_staff
from tourney.models import ApiToken
from tourney.staff.usecases import api_token_create, api_token_revoke, staff_user_ensure


@pytest.fixture
def clock(monkeypatch):
    """The cache's clock, passed by hand: [seconds]."""
    now = [1_000.0]
    monkeypatch.setattr(token_cache, "clock", lambda: now[0])
    token_cache.tokens_forget()
    return now


def _token_reads(client: ApiClient) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get("/tournaments").status_code == 200
    return sum("token_hash" in q["sql"] for q in queries)


def _script(role: str = "director"):  # type: ignore[no-untyped-def]
    user = make_staff(f"script-{role}", role)
    raw, token = api_token_create(actor=user, user=user)
    return user, token, ApiClient(raw)


@pytest.mark.django_db
def test_a_burst_of_calls_reads_the_token_once_a_second(clock):
    _user, _token, client = _script()
    assert _token_reads(client) == 1  # its first use is written: read again once
    assert _token_reads(client) == 1
    assert _token_reads(client) == 0
    clock[0] += 0.9
    assert _token_reads(client) == 0
    clock[0] += 0.2  # kept a second: read again
    assert _token_reads(client) == 1


@pytest.mark.django_db
def test_revoked_here_the_token_is_refused_at_the_next_call(clock, director):
    _user, token, client = _script()
    assert client.get("/tournaments").status_code == 200
    api_token_revoke(actor=director, token_id=token.pk)
    assert client.get("/tournaments").status_code == 401


@pytest.mark.django_db
def test_revoked_by_another_process_it_is_refused_within_the_second(clock):
    _user, token, client = _script()
    for _ in range(2):  # the first use is written, and the row read again
        assert client.get("/tournaments").status_code == 200
    # Another web process revoked it: this one did not see it happen.
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
    assert client.get("/tournaments").status_code == 200
    clock[0] += 1.0
    assert client.get("/tournaments").status_code == 401


@pytest.mark.django_db
def test_a_role_taken_away_or_a_user_deactivated_counts_at_once(clock, director):
    user, _token, client = _script()
    assert client.post("/players", {"name": "Kovács Béla"}).status_code == 201
    staff_user_ensure(actor=director, username=user.username, role="display")
    assert client.post("/players", {"name": "Nagy Anna"}).status_code == 403
    user.is_active = False
    user.save()
    assert client.get("/tournaments").status_code == 401


@pytest.mark.django_db
def test_made_up_tokens_are_not_kept(clock):
    before = len(token_cache._kept)
    for n in range(50):
        assert ApiClient(f"tny_made-up-{n}").get("/tournaments").status_code == 401
    assert len(token_cache._kept) == before


@pytest.mark.django_db
def test_the_last_use_is_written_once_a_minute_not_on_every_call(clock):
    _user, token, client = _script()
    with CaptureQueriesContext(connection) as queries:
        for _ in range(5):
            assert client.get("/tournaments").status_code == 200
    assert sum("last_used_at" in q["sql"] and q["sql"].startswith("UPDATE") for q in queries) == 1
    token.refresh_from_db()
    assert token.last_used_at is not None
