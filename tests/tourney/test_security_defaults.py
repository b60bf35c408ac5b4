"""Issue 12, production-safe by default: login throttling (django-axes), no server on the
public built-in SECRET_KEY, the quick start's own key kept in a file git ignores, and
`check --deploy` clean with the manual's production settings (docs/running/production.md)."""

import os
import re
import secrets
import stat
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.conf import settings
from django.test import Client

from tests.conftest import make_staff
from tests.processes import REPO

PASSWORD = "correct horse battery staple"
T0 = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without a key, the test settings or a key file."""
    env = {k: v for k, v in os.environ.items() if k not in {"DJANGO_SECRET_KEY", "DATABASE_URL"}}
    env.update(DJANGO_SETTINGS_MODULE="tourney.settings", PYTHONUNBUFFERED="1", **extra)
    return env


def run(args: list[str], env: dict[str, str], timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        args, cwd=REPO, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )


def sign_in(client: Client, password: str, language: str = "en"):
    return client.post(
        "/login/",
        {"username": "director", "password": password},
        headers={"Accept-Language": language},
    )


@pytest.mark.django_db
def test_forty_wrong_passwords_lock_the_login_out_until_the_cool_off(director):
    director.set_password(PASSWORD)
    director.save()
    client = Client()
    with time_machine.travel(T0, tick=False) as traveller:
        answers = [sign_in(client, f"guess {i}").status_code for i in range(40)]
        assert answers[0] == 200  # the form again, with its error
        assert answers[-1] == 429
        assert answers.index(429) == settings.AXES_FAILURE_LIMIT - 1
        locked = sign_in(client, PASSWORD)
        assert locked.status_code == 429
        assert "_auth_user_id" not in client.session
        assert "wrong passwords" in locked.content.decode()
        in_hungarian = sign_in(Client(), PASSWORD, language="hu")
        assert in_hungarian.status_code == 429
        assert "hibás jelszó" in in_hungarian.content.decode()
        traveller.shift(settings.AXES_COOLOFF_TIME + timedelta(seconds=1))
        response = sign_in(client, PASSWORD)
        assert response.status_code == 302
        assert client.session["_auth_user_id"] == str(director.pk)


@pytest.mark.django_db
def test_another_username_is_not_locked_by_someone_elses_guesses(director):
    floor = make_staff("floor", "floor")
    floor.set_password(PASSWORD)
    floor.save()
    client = Client()
    for i in range(settings.AXES_FAILURE_LIMIT):
        sign_in(client, f"guess {i}")
    response = client.post("/login/", {"username": "floor", "password": PASSWORD})
    assert response.status_code == 302


def test_the_lockout_is_configured_by_the_environment():
    code = (
        "from django.conf import settings; "
        "print(settings.AXES_ENABLED, settings.AXES_FAILURE_LIMIT, settings.AXES_COOLOFF_TIME)"
    )
    env = clean_env(
        DJANGO_DEBUG="true",
        TOURNEY_LOGIN_FAILURE_LIMIT="3",
        TOURNEY_LOGIN_COOLOFF_MINUTES="60",
        TOURNEY_LOGIN_LOCKOUT="false",
    )
    result = run([sys.executable, "-c", f"import django; django.setup(); {code}"], env)
    assert result.stdout.split() == ["False", "3", "1:00:00"], result.stderr


@pytest.mark.parametrize("entry_point", ["tourney.asgi", "tourney.wsgi"])
def test_a_server_refuses_to_start_on_the_public_key(tmp_path, entry_point):
    env = clean_env(DJANGO_DEBUG="false", TOURNEY_SECRET_KEY_FILE=str(tmp_path / "absent"))
    result = run([sys.executable, "-c", f"import {entry_point}"], env)
    assert result.returncode != 0
    assert "refuses to serve with the public built-in SECRET_KEY" in result.stderr
    assert "DJANGO_SECRET_KEY" in result.stderr
    # Debugging on a laptop, or with a key of its own, it starts.
    debugging = {**env, "DJANGO_DEBUG": "true"}
    assert run([sys.executable, "-c", f"import {entry_point}"], debugging).returncode == 0
    with_key = {**env, "DJANGO_SECRET_KEY": secrets.token_urlsafe(50)}
    assert run([sys.executable, "-c", f"import {entry_point}"], with_key).returncode == 0


def test_quickstart_makes_a_random_key_once_and_keeps_using_it(tmp_path):
    key_file = tmp_path / "secret_key"
    env = clean_env(
        DATABASE_URL=f"sqlite:///{tmp_path / 'quick.sqlite3'}",
        TOURNEY_SECRET_KEY_FILE=str(key_file),
    )
    first = run([sys.executable, "manage.py", "quickstart", "--no-serve"], env, timeout=300)
    assert first.returncode == 0, first.stderr
    key = key_file.read_text().strip()
    assert len(key) >= 50
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert str(key_file) in first.stdout
    second = run([sys.executable, "manage.py", "quickstart", "--no-serve"], env, timeout=300)
    assert second.returncode == 0, second.stderr
    assert key_file.read_text().strip() == key
    # The server of the quick start serves on that key (DEBUG off).
    code = "import tourney.asgi; from django.conf import settings; print(settings.SECRET_KEY)"
    served = run([sys.executable, "-c", code], env)
    assert served.stdout.strip() == key, served.stderr
    assert ".secret_key" in (REPO / ".gitignore").read_text().split()


def production_environment() -> dict[str, str]:
    """The `export NAME=value` lines of the manual's production page."""
    section = (REPO / "docs" / "running" / "production.md").read_text()
    env = {}
    for name, value in re.findall(r"^export (\w+)=(.*)$", section, flags=re.MULTILINE):
        env[name] = secrets.token_urlsafe(50) if value.startswith("$(") else value.strip("'\"")
    return env


def test_check_deploy_is_clean_with_the_manuals_production_settings():
    env = production_environment()
    for name in ("DJANGO_SECRET_KEY", "DJANGO_SECURE_COOKIES", "DJANGO_SECURE_HSTS_SECONDS"):
        assert name in env
    result = run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        clean_env(**env),
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_check_deploy_names_the_public_key(tmp_path):
    env = clean_env(TOURNEY_SECRET_KEY_FILE=str(tmp_path / "absent"))
    result = run([sys.executable, "manage.py", "check", "--deploy"], env)
    assert "tourney.E001" in result.stdout + result.stderr
