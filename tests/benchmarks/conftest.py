"""Benchmarks get their own test database, so a run never clobbers a concurrent `pytest` run.

pytest-django would otherwise create (and, finding it in use, try to drop) the same
`.test.sqlite3` / `test_<name>` database as the ordinary test suite; the suffix gives
`.test.sqlite3_bench` and `test_<name>_bench` instead.
"""

import pytest
from pytest_django.fixtures import _set_suffix_to_test_databases


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix) -> None:
    _set_suffix_to_test_databases(suffix="bench")
