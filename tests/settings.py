"""The settings of a test run: the production settings (tourney.settings) with a key of the
tests' own, set in the environment so that the servers and workers a test starts (uvicorn,
Celery) share it. The public built-in key is refused by a server (infra/secret_key.py)."""

import os

from django.conf import global_settings

os.environ.setdefault(
    "DJANGO_SECRET_KEY", "tourney-tests-only-key-never-used-by-a-server-0123456789"
)

from tourney.settings import *  # noqa: F403

# Passwords hashed at one iteration in the tests' own process (tests/hashers.py).
PASSWORD_HASHERS = [
    "tests.hashers.OneIterationPBKDF2PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
