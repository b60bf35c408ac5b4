"""ASGI entry point: `uvicorn tourney.asgi:application`."""

import gc
import os

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tourney.settings")
# A web process serves each request in a thread of its own: its PostgreSQL connections come
# from a bounded pool (settings.py, TOURNEY_DB_POOL; set it to 0 to opt out).
os.environ.setdefault("TOURNEY_DB_POOL", "1")
django.setup(set_prefix=False)  # as django.core.asgi.get_asgi_application does

from django.urls import get_resolver  # noqa: E402

from infra import bus  # noqa: E402
from infra.secret_key import require_safe_key  # noqa: E402  (needs the settings)
from infra.web.asgi_handler import TourneyASGIHandler  # noqa: E402 (needs the apps loaded)
from tourney.streams.asgi import EventStreamApplication  # noqa: E402

# The links' event streams (thousands of phones and screens) beside Django; the rest through it.
application = EventStreamApplication(TourneyASGIHandler())

require_safe_key()

# A write's answer does not wait for Redis: its events leave from a thread of their own.
bus.publish_in_background()

# What start-up loads (Django, the apps, the URL conf with every view and schema: ~150,000
# objects) lives as long as the process: out of the collector's reach, a full collection no
# longer walks it in the middle of a request (111 ms of CPU each on a busy machine before,
# none after; docs/benchmarks.md).
get_resolver().url_patterns  # noqa: B018  (imports the URL conf now, to freeze it with the rest)
gc.collect()
gc.freeze()
