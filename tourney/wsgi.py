"""WSGI entry point (ASGI with uvicorn is the supported server)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")

application = get_wsgi_application()

from infra.secret_key import require_safe_key  # noqa: E402  (needs the settings)

require_safe_key()
