"""The API's operation ids are a contract (other programs generate clients from them): they
stay what they were published as, wherever the view functions move."""

from pathlib import Path

from tourney.system.api import api

PUBLISHED = Path(__file__).with_name("operation_ids.txt")


def test_operation_ids_are_the_published_ones():
    schema = api.get_openapi_schema()
    ids = sorted(o["operationId"] for path in schema["paths"].values() for o in path.values())
    published = PUBLISHED.read_text().split()
    assert ids == published, "an operation id changed: add new ones to operation_ids.txt only"


def test_every_frozen_view_function_exists(monkeypatch):
    """A key of tourney/system/operation_ids.json that names no view function any more means
    a module moved without its frozen id following it."""

    views: set[str] = set()
    published = type(api).get_openapi_operation_id

    def recorded(self, operation):
        views.add(f"{operation.view_func.__module__}.{operation.view_func.__name__}")
        return published(self, operation)

    monkeypatch.setattr(type(api), "get_openapi_operation_id", recorded)
    api.get_openapi_schema()
    assert set(api.frozen_operation_ids) <= views
