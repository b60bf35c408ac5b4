"""Issue 12: Schemathesis over /api/v1/openapi.json against the ASGI app, as a director, a desk,
a display token and with no credentials: no server error, every response in its documented
status and schema, and no write accepted without the role its handler requires.

Bounded and deterministic (derandomized Hypothesis, a few examples per operation and mode) so
it runs in the normal suite; FUZZ_EXAMPLES raises the count for a longer hunt.
"""

import inspect
import os
import re
from collections.abc import Callable

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from tests.conftest import bearer, make_staff, seat_players
from tourney.core import roles
from tourney.models import AuditEntry, StaffRole

pytestmark = [pytest.mark.fuzz, pytest.mark.django_db(transaction=True)]

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "3"))
TIMEOUT = 120  # seconds: a bound on a request, not a wait (a loaded CI machine is slow)
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
]


def required_permissions() -> dict[tuple[str, str], str | None]:
    """(METHOD, path) -> the permission its handler requires first (`roles.require(..., "x")`),
    read from the handlers' source: what the fuzzing holds the responses against."""
    from tourney.system.api import api

    found: dict[tuple[str, str], str | None] = {}
    for prefix, router in api._routers:
        for path, path_view in router.path_operations.items():
            for operation in path_view.operations:
                source = inspect.getsource(operation.view_func)
                match = re.search(r"roles\.require\([^,]+,\s*\"(\w+)\"", source)
                full = "/api/v1" + (prefix.rstrip("/") + path).replace("//", "/")
                for method in operation.methods:
                    found[(method, full)] = match.group(1) if match else None
    return found


@pytest.fixture
def short_connections():
    """The ASGI app serves from worker threads; their connections close after each request
    (as CONN_MAX_AGE=0) so none outlives the test and holds the test database open."""
    from django.db import connections

    settings_dict = connections["default"].settings_dict
    kept = settings_dict["CONN_MAX_AGE"]
    settings_dict["CONN_MAX_AGE"] = 0
    yield
    settings_dict["CONN_MAX_AGE"] = kept


@pytest.fixture
def seeded(api, tournament, short_connections):
    """A tournament with players seated, so some generated ids exist."""
    seat_players(api, tournament, [f"Fuzz {i}" for i in range(6)])
    return tournament


def fuzz(headers: dict[str, str], role: str | None) -> list[str]:
    from tourney.asgi import application

    schema = schemathesis.openapi.from_asgi("/api/v1/openapi.json", application, timeout=TIMEOUT)
    permissions = required_permissions()
    grants = roles.PERMISSIONS.get(role, frozenset()) if role else frozenset()
    problems: list[str] = []

    def role_check(case, response) -> None:
        if case.method.upper() not in WRITE_METHODS or response.status_code >= 300:
            return
        needed = permissions.get((case.method.upper(), case.operation.path))
        if role is None or needed is None or needed not in grants:
            problems.append(
                f"{case.method} {case.formatted_path}: {response.status_code} as {role}"
            )

    for result in schema.get_all_operations():
        operation = result.ok()
        for mode in (GenerationMode.POSITIVE, GenerationMode.NEGATIVE):
            run = _runner(operation.as_strategy(generation_mode=mode), headers, role_check)
            try:
                run()
            except Unsatisfiable:
                continue  # nothing to negate: an operation without parameters or body
            except (Exception, BaseExceptionGroup) as exc:  # one report per operation
                problems.append(f"{operation.label} [{mode.value}]: {str(exc)[:1500]}")
    return problems


def _runner(strategy, headers: dict[str, str], role_check: Callable) -> Callable[[], None]:
    @settings(
        max_examples=EXAMPLES,
        derandomize=True,
        database=None,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(case=strategy)
    def run(case) -> None:
        response = case.call(headers=headers, timeout=TIMEOUT)
        case.validate_response(response, checks=CHECKS)
        role_check(case, response)

    return run


@pytest.mark.parametrize("role", [StaffRole.DIRECTOR, StaffRole.DESK, StaffRole.DISPLAY, None])
def test_schemathesis_finds_nothing(seeded, role):
    headers = bearer(make_staff(f"fuzz-{role}", role)) if role else {}
    audit_before = AuditEntry.objects.count()
    problems = fuzz(headers, role)
    assert problems == [], "\n".join(problems)
    if role in (StaffRole.DISPLAY, None):
        assert AuditEntry.objects.count() == audit_before  # nothing was written
