"""The settings of a test run: the production settings (tourney.settings) with a key of the
tests' own, set in the environment so that the servers and workers a test starts (uvicorn,
Celery) share it. The public built-in key is refused by a server (infra/secret_key.py)."""

import os

from django.conf import global_settings

os.environ.setdefault(
    "DJANGO_SECRET_KEY", "tourney-tests-only-key-never-used-by-a-server-0123456789"
)

# The manual that `quickstart` builds (when docs/ changed) goes among the run's artifacts, shared
# by the test processes and the servers they start, so that a run builds it once.
os.environ.setdefault(
    "TOURNEY_MANUAL_DIR",
    os.path.join(os.path.dirname(os.path.dirname(__file__)), "test-artifacts", "manual"),
)

from tourney.settings import *  # noqa: F403

# Passwords hashed at one iteration in the tests' own process (tests/hashers.py).
PASSWORD_HASHERS = [
    "tests.hashers.OneIterationPBKDF2PasswordHasher",
    *global_settings.PASSWORD_HASHERS,
]
