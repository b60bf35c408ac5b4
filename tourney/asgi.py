"""ASGI entry point: `uvicorn tourney.asgi:application`."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
# A web process serves each request in a thread of its own: its PostgreSQL connections come
# from a bounded pool (settings.py, TOURNEY_DB_POOL; set it to 0 to opt out).
os.environ.setdefault("TOURNEY_DB_POOL", "1")

application = get_asgi_application()

from tourney.secret_key import require_safe_key  # noqa: E402  (needs the settings)

require_safe_key()
