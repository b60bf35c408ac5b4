"""ASGI entry point: `uvicorn tourney.asgi:application`."""

import os

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")

application = get_asgi_application()

from tourney.secret_key import require_safe_key  # noqa: E402  (needs the settings)

require_safe_key()
