"""Databases for the tests of faults and backups: the database out of reach (its connection
pointed at a port nobody listens on, or a file that cannot be opened) and an empty database of
the suite's engine (another installation, a restore's target)."""

import socket
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from django.db import connection, connections

from tests.processes import database_url_for_tests


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def database_out_of_reach() -> Iterator[None]:
    """The database out of reach for every connection opened meanwhile (another thread's
    connection kept open, as a live server's on PostgreSQL, is not cut)."""
    connection = connections["default"]
    connection.close()
    saved = dict(connection.settings_dict)
    if connection.vendor == "sqlite":
        connection.settings_dict["NAME"] = "/nonexistent-directory/tourney.sqlite3"
    else:
        connection.settings_dict.update(HOST="127.0.0.1", PORT=str(_closed_port()))
    try:
        yield
    finally:
        connection.close()
        connection.settings_dict.clear()
        connection.settings_dict.update(saved)


class FreshDatabase:
    """An empty database of the suite's engine, and a way to read it."""

    def __init__(self, directory: Path) -> None:
        self.sqlite = connection.vendor == "sqlite"
        if self.sqlite:
            self.url = f"sqlite:///{directory / 'restored.sqlite3'}"
            self.path = directory / "restored.sqlite3"
        else:
            self.name = f"restore_drill_{uuid.uuid4().hex[:12]}"
            with connection.cursor() as cursor:
                cursor.execute(f'CREATE DATABASE "{self.name}"')
            self.url = database_url_for_tests().rsplit("/", 1)[0] + "/" + self.name

    def cursor(self):
        if self.sqlite:
            import sqlite3

            return sqlite3.connect(self.path).cursor()
        import psycopg

        return psycopg.connect(self.url, autocommit=True).cursor()

    def drop(self) -> None:
        if not self.sqlite:
            with connection.cursor() as cursor:
                cursor.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
