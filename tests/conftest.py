"""Shared fixtures: staff users with tokens, an API client, a room and a tournament."""

import json
import os
import threading

import pytest
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.test import Client

from clocks.domain.structures import TEMPLATES
from clocks.models import Structure
from clocks.structures.usecases import structure_template_install
from tables.rooms.usecases import room_create
from tourney.celery import app as celery_app
from tourney.models import StaffProfile
from tourney.staff.usecases import api_token_create
from tourney.tournaments.usecases import tournament_create

IN_CI = os.environ.get("CI", "").lower() in {"1", "true", "yes"}

# Tasks this test process sends (with REDIS_URL set) go to a queue of its own: a worker serving
# another database (another run, a developer's) never takes them. Worker tests start their own.
celery_app.conf.task_default_queue = f"tourney-test-{os.getpid()}"


# Run once, in the PostgreSQL + Redis run, the production engines: the long fault runs (Redis
# down 10 s and 60 s, processes killed during 3-second levels), the production recipe
# (supervisord, nginx, the server's refusals), and the fuzzers and input contracts (bad input
# refused and nothing changed: PostgreSQL is the stricter engine, its integers 32-bit where
# SQLite's are 64). In both runs they would take CI past its 20 minutes.
# TOURNEY_ALL_ON_SQLITE=1 runs them on SQLite too.
ONCE_ON_POSTGRES = {
    "tests/clocks/test_timer_faults.py",
    "tests/clocks/test_scale_faults.py",
    "tests/test_api_fuzz.py",
    "tests/test_page_form_fuzz.py",
    "tests/test_deploy.py",
    "tests/test_nginx.py",
    "tests/tourney/test_security_defaults.py",
    "tests/tourney/test_api_roles_contract.py",
    "tests/tourney/test_api_input_bounds.py",
    "tests/tourney/test_page_input_bounds.py",
    # A real Celery worker and beat: production's clock, which runs on PostgreSQL and Redis
    # (the embedded SQLite default keeps its clock in-process).
    "tests/clocks/test_worker_integration.py",
    "tests/clocks/test_beat_leader.py",
}
# What touches no database at all (the pure rules, the code's and the docs' own checks): once,
# in the SQLite run. CI's two runs took 20 minutes on a slow day; these were 35 s of it twice.
ONCE_ON_SQLITE = {
    "tests/test_architecture.py",
    "tests/test_docs.py",
    "tests/test_manual.py",
    "tests/test_translations.py",
}


# The PostgreSQL run's longest tests (most of their minutes spent waiting on an outage or a
# process) go first: started last, one of them ran alone while the other core had nothing left
# (CI's run spent its last three minutes so). xdist splits the suite between the cores from
# the front. Not in the SQLite run: its longest are browser tests, which slowed each other
# when started together (the rehearsal 97 -> 157 s).
LONG_FIRST = (
    "tests/clocks/test_timer_faults.py",
    "tests/test_page_form_fuzz.py",
    "tests/test_deploy.py",
    "tests/clocks/test_scale_faults.py",
    "tests/test_api_fuzz.py",
    "tests/clocks/test_beat_leader.py",
    "tests/clocks/test_worker_integration.py",
)


def _long_first(items: list, root: str) -> None:
    rank = {path: i for i, path in enumerate(LONG_FIRST)}
    items.sort(key=lambda item: rank.get(str(item.path).removeprefix(root + "/"), len(rank)))


def _engine_free(path: str) -> bool:
    return path in ONCE_ON_SQLITE or path.rsplit("/", 1)[-1].startswith("test_domain_")


def pytest_collection_modifyitems(config, items):
    on_postgres = os.environ.get("DATABASE_URL", "").startswith("postgres")
    root = str(config.rootpath)
    if on_postgres:
        _long_first(items, root)
        if os.environ.get("TOURNEY_ALL_ON_POSTGRES", "") == "1":
            return
        skip = pytest.mark.skip(reason="no database: runs in the SQLite run")
        for item in items:
            if _engine_free(str(item.path).removeprefix(root + "/")):
                item.add_marker(skip)
        return
    if os.environ.get("TOURNEY_ALL_ON_SQLITE", "") == "1":
        return
    skip = pytest.mark.skip(reason="runs in the PostgreSQL + Redis run (TOURNEY_ALL_ON_SQLITE=1)")
    for item in items:
        if str(item.path).removeprefix(root + "/") in ONCE_ON_POSTGRES:
            item.add_marker(skip)


def service_missing(reason: str) -> None:
    """A test that needs a service fails in CI and skips on a developer's laptop."""
    if IN_CI:
        pytest.fail(f"required service missing in CI: {reason}")
    pytest.skip(reason)


class OwnRequestsClient(Client):
    """A test client that re-raises only its own requests' exceptions. Django's client stores
    any exception raised while one of its requests runs, in any thread: a browser test's live
    server answering a page left over from the previous test (its tournament gone with the
    flush) failed the next test's unrelated API call (CI, test_dealer_link_names)."""

    def request(self, **request):
        self._thread = threading.current_thread()
        return super().request(**request)

    def store_exc_info(self, **kwargs):
        if threading.current_thread() is getattr(self, "_thread", None):
            super().store_exc_info(**kwargs)


@pytest.fixture(autouse=True)
def _empty_cache():
    """Each test starts with the process's cache empty: a page copied there (the cash TV's,
    by the room's event version) must not outlive the database rows of the test that made it."""
    cache.clear()


@pytest.fixture
def client() -> OwnRequestsClient:
    """pytest-django's `client`, re-raising only its own requests' exceptions."""
    return OwnRequestsClient()


class ApiClient:
    """Calls the JSON API as a script would, with a bearer token."""

    def __init__(self, token: str | None):
        self.client = OwnRequestsClient()
        self.headers = {"Authorization": f"Bearer {token}"} if token else {}

    def _call(self, method: str, path: str, body=None):
        kwargs = {"headers": self.headers}
        if body is not None:
            kwargs.update(data=json.dumps(body), content_type="application/json")
        return getattr(self.client, method)(f"/api/v1{path}", **kwargs)

    def get(self, path: str):
        return self._call("get", path)

    def post(self, path: str, body=None):
        return self._call("post", path, body if body is not None else {})

    def put(self, path: str, body=None):
        return self._call("put", path, body if body is not None else {})

    def patch(self, path: str, body=None):
        return self._call("patch", path, body if body is not None else {})

    def delete(self, path: str):
        return self._call("delete", path)


def make_staff(username: str, role: str):
    user = get_user_model().objects.create_user(username=username, password="pw-" + username)
    StaffProfile.objects.create(user=user, role=role)
    return user


def bearer(user) -> dict:
    """An Authorization header with a new API token of `user`."""
    raw, _token = api_token_create(actor=user, user=user)
    return {"Authorization": f"Bearer {raw}"}


@pytest.fixture
def director(db):
    return make_staff("director", "director")


@pytest.fixture
def api(director):
    raw, _token = api_token_create(actor=director, user=director)
    return ApiClient(raw)


@pytest.fixture
def api_as(db):
    def build(role: str) -> ApiClient:
        user = make_staff(f"user-{role}", role)
        raw, _token = api_token_create(actor=user, user=user)
        return ApiClient(raw)

    return build


@pytest.fixture
def structure(db) -> Structure:
    # Installed by a data migration; reinstalled here because transactional tests flush it.
    return structure_template_install(TEMPLATES["rimoc-championship"])


@pytest.fixture
def payout_templates(db):
    """The built-in payout structures: installed by a data migration, installed again here
    because a transactional test run before on the same process flushes them."""
    from tourney.payouts.operations import payout_structure_templates_install

    return payout_structure_templates_install()


@pytest.fixture
def room(director):
    return room_create(
        actor=director,
        name="Test room",
        tables=[{"number": n, "seats": 10} for n in range(1, 7)],
    )


def friday_deepstack(director, structure, room, **changes):
    """The `tournament` fixture's tournament through the use case: 40,000 chips, 10,000 + 2,000,
    Rimóc's house rules; `changes` (name, money, ...) replace or add settings."""
    settings = {
        "name": "Friday deepstack",
        "structure_id": structure.pk,
        "starting_stack": 40_000,
        "buy_in": 10_000,
        "fee": 2_000,
        "room_id": room.pk,
        "house_rules": "rimoc",
    }
    return tournament_create(actor=director, **(settings | changes))


@pytest.fixture
def tournament(director, room, structure):
    return friday_deepstack(director, structure, room)


def seat_players(api: ApiClient, tournament, names) -> dict[str, int]:
    """Create and register players by name, then draw the seats; each name's entry id."""
    entry_ids = {}
    for name in names:
        player_id = api.post("/players", {"name": name}).json()["id"]
        entry = api.post(f"/tournaments/{tournament.pk}/entries", {"player_id": player_id})
        entry_ids[name] = entry.json()["id"]
    api.post(f"/tournaments/{tournament.pk}/draw")
    return entry_ids


def numbered_players(count: int) -> list[str]:
    return [f"P{i}" for i in range(count)]


@pytest.fixture
def seated_tournament(api, tournament):
    """The tournament with four players registered and the seats drawn: ready to start."""
    seat_players(api, tournament, [f"Player {i + 1}" for i in range(4)])
    return tournament


@pytest.fixture
def director_client(director) -> Client:
    """A browser session of the director (pages, not the API)."""
    client = OwnRequestsClient()
    client.force_login(director)
    return client
