"""ASGI entry point: `uvicorn tourney.asgi:application`."""

import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
# A web process serves each request in a thread of its own: its PostgreSQL connections come
# from a bounded pool (settings.py, TOURNEY_DB_POOL; set it to 0 to opt out).
os.environ.setdefault("TOURNEY_DB_POOL", "1")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from tourney.asgi_handler import TourneyASGIHandler  # noqa: E402 (needs the apps loaded)
from tourney.secret_key import require_safe_key  # noqa: E402  (needs the settings)

application = TourneyASGIHandler()

require_safe_key()
