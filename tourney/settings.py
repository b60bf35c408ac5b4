"""Tourney settings, read from the environment.

Embedded default: SQLite in the project folder, no Redis (Celery eager, in-process pub/sub and
clock loop). Production: DATABASE_URL=postgres://..., REDIS_URL=redis://...
"""

import os
import tempfile
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.utils.translation import gettext_lazy as _

from infra.secret_key import read_secret_key

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


DEBUG = env_bool("DJANGO_DEBUG", False)
# DJANGO_SECRET_KEY, else the quick start's key file, else the public built-in key, on which
# tourney.asgi and tourney.wsgi refuse to serve unless DEBUG (infra/secret_key.py).
SECRET_KEY = read_secret_key(BASE_DIR)
ALLOWED_HOSTS = [
    h.strip() for h in os.environ.get("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1").split(",")
]
CSRF_TRUSTED_ORIGINS = [
    o.strip() for o in os.environ.get("DJANGO_CSRF_TRUSTED_ORIGINS", "").split(",") if o.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "axes",
    "tourney",
    "tables",
    "clocks",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "infra.web.middleware.UserLanguageMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # In the reader's language, before CSRF and the views: refusals of bad input, and /api/
    # refusals as {code, detail} JSON (infra/web/api_contract.py).
    "infra.web.api_contract.ApiContractMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as django-axes asks: it answers a locked-out login with its lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "tourney.urls"
ASGI_APPLICATION = "tourney.asgi.application"
WSGI_APPLICATION = "tourney.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "tourney.system.context_processors.staff_role",
            ],
        },
    },
]

DATABASE_URL = os.environ.get("DATABASE_URL", f"sqlite:///{BASE_DIR / 'tourney.sqlite3'}")
DATABASES = {"default": dj_database_url.parse(DATABASE_URL, conn_max_age=0)}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # WAL lets screens read while the desk writes; IMMEDIATE takes the write lock at BEGIN so
    # two writers serialize instead of failing with "database is locked" on upgrade.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # A file (not :memory:) so threads in concurrency tests share it; one per process so two
    # test runs on one machine never share a database.
    DATABASES["default"]["TEST"] = {
        "NAME": str(Path(tempfile.gettempdir()) / f"tourney-test-{os.getpid()}.sqlite3")
    }
else:
    # Django's backend; its pool checks a lent connection without a round trip unless the
    # server has closed it (infra/db/pg/base.py).
    DATABASES["default"]["ENGINE"] = "infra.db.pg"
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
    # One test database per process, as on SQLite: parallel runs (and a Celery worker that a
    # test starts, told this name) never share or drop each other's database.
    DATABASES["default"]["TEST"] = {"NAME": f"test_{DATABASES['default']['NAME']}_{os.getpid()}"}
    # Statements prepared on a connection once run twice: the server plans them once per
    # connection instead of on every call (the floor's bust-out read: 2.2 ms -> 1.5 ms). A
    # pooler in transaction mode without prepared-statement support needs TOURNEY_DB_PREPARED=0.
    if os.environ.get("TOURNEY_DB_PREPARED", "1") == "1":
        DATABASES["default"]["OPTIONS"] = {"server_side_binding": True, "prepare_threshold": 2}
    if env_bool("TOURNEY_DB_POOL", False):
        # Web processes (tourney/asgi.py turns this on): under ASGI every request runs in a
        # thread of its own, so a connection kept per thread (CONN_MAX_AGE) is left behind idle
        # by each (two uvicorn processes held 92 of PostgreSQL's 100). A pool of at most
        # TOURNEY_DB_POOL_SIZE connections per process lends one for each request or stream
        # read and takes it back; its connections (and the statements prepared on them) live
        # on. A request finding every connection lent waits up to TOURNEY_DB_POOL_TIMEOUT s.
        DATABASES["default"]["CONN_MAX_AGE"] = 0
        DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
            "min_size": int(os.environ.get("TOURNEY_DB_POOL_MIN_SIZE", "2")),
            "max_size": int(os.environ.get("TOURNEY_DB_POOL_SIZE", "10")),
            "timeout": float(os.environ.get("TOURNEY_DB_POOL_TIMEOUT", "10")),
        }
    else:
        # manage.py commands, the embedded server's threads and Celery (whose Django fix-up
        # closes it around each task): a connection kept by its thread (connecting cost 4.3 ms
        # here, docs/benchmarks.md).
        DATABASES["default"]["CONN_MAX_AGE"] = int(os.environ.get("TOURNEY_DB_CONN_MAX_AGE", "600"))

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# Backups (docs/backups.md): `manage.py backup` writes here by default, and the embedded default
# keeps its automatic ones here: beside the database file, or in the project folder.
TOURNEY_BACKUP_DIR = Path(
    os.environ.get("TOURNEY_BACKUP_DIR")
    or (
        Path(DATABASES["default"]["NAME"]).parent / "backups"
        if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
        else BASE_DIR / "backups"
    )
)
# The director's manual (docs/ built by MkDocs: `manage.py manual`), served at /manual/.
TOURNEY_MANUAL_DIR = Path(os.environ.get("TOURNEY_MANUAL_DIR") or BASE_DIR / "manual_site")
# The embedded default (manage.py quickstart on SQLite) backs itself up while a tournament is
# played; TOURNEY_AUTO_BACKUP=0 turns that off.
TOURNEY_AUTO_BACKUP = env_bool("TOURNEY_AUTO_BACKUP", True)

# django-axes first: it counts failed logins and refuses a locked-out login before Django's
# backend checks the password (the login page and the admin's).
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]

LANGUAGE_CODE = os.environ.get("TOURNEY_LANGUAGE", "en")
LANGUAGES = [("en", _("English")), ("hu", _("Hungarian")), ("cs", _("Czech"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = os.environ.get("TOURNEY_TIME_ZONE", "Europe/Budapest")
USE_I18N = True
USE_TZ = True
USE_THOUSAND_SEPARATOR = True
FORMAT_MODULE_PATH = ["tourney.formats"]

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# WhiteNoise serves from the finders until collectstatic runs; an existing (empty) STATIC_ROOT
# keeps it from warning on every start of the embedded default.
STATIC_ROOT.mkdir(exist_ok=True)
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tourney:home"
LOGOUT_REDIRECT_URL = "login"

REDIS_URL = os.environ.get("REDIS_URL", "")
# Seconds between keep-alive comments on an idle event stream (proxies drop silent streams).
EVENTS_HEARTBEAT_SECONDS = float(os.environ.get("TOURNEY_EVENTS_HEARTBEAT_SECONDS", "15"))

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Never give up on the broker: the worker retries every 0.5 s (tourney/celery.py), so Celery's
# default of 100 attempts would end it after 50 s of an outage.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
CELERY_TIMEZONE = "UTC"
# A queue per deployment (and per test run, so a worker serving another database never takes
# its tasks; see tests/clocks/worker_harness.py).
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("TOURNEY_CELERY_QUEUE", "celery")
# One task at a time per pool process: an on-time clock task never waits behind tasks
# prefetched by a busy process while another is idle. (ETA tasks are held outside this limit.)
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Early acks (the default) on purpose: every clock task is idempotent and version-guarded, and a
# task lost with a killed worker is replaced by the next tick within a second, whereas a late-acked
# one would only come back after the visibility timeout, long after it mattered.
CELERY_TASK_ACKS_LATE = False
# Celery 6's default, set now: on losing the broker, cancel running late-acked tasks (none of the
# clock's are) instead of warning on every reconnect.
CELERY_WORKER_CANCEL_LONG_RUNNING_TASKS_ON_CONNECTION_LOSS = True

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("TOURNEY_LOG_LEVEL", "WARNING")},
}

# Display links are signed with SECRET_KEY; this salt keeps them from verifying as anything else.
DISPLAY_LINK_SALT = "tourney.display"
# A player's own page (the seat card's QR code) and a table's dealer page: signed links too.
PLAYER_LINK_SALT = "tourney.player"
# A player's page link stops working this many days after his tournament finished.
PLAYER_LINK_DAYS_AFTER_FINISH = float(os.environ.get("TOURNEY_PLAYER_LINK_DAYS", "7"))
DEALER_LINK_SALT = "tourney.dealer"
PUBLIC_LINK_SALT = "tourney.public"

from django.contrib.messages import constants as message_constants  # noqa: E402

MESSAGE_TAGS = {
    message_constants.ERROR: "bad",
    message_constants.WARNING: "warn",
    message_constants.SUCCESS: "ok",
    message_constants.INFO: "info",
}

# One beat at a time sends this: run two, the one holding a lock in Redis leads and the other
# takes over within 2.5 s of its death (infra/beat.py). Each tick is idempotent anyway
# (clocks/tasks.py, clocks/clock/usecases.py).
CELERY_BEAT_SCHEDULER = "infra.beat:LeaderScheduler"
CELERY_BEAT_SCHEDULE = {
    # Ticks queued while no worker ran are dropped, not replayed in a burst: one tick catches up.
    "clocks-tick": {
        "task": "clocks.tasks.clocks_tick",
        "schedule": 1.0,
        "options": {"expires": 5.0},
    },
}
# Unacked ETA tasks are redelivered after this; on-time tasks are never scheduled further ahead.
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": 3600}

# --- Security: login throttling and HTTPS (README "Configuration") --------------------------
# After TOURNEY_LOGIN_FAILURE_LIMIT wrong passwords for one username from one address, that
# login is refused (even with the right password) for TOURNEY_LOGIN_COOLOFF_MINUTES.
AXES_ENABLED = env_bool("TOURNEY_LOGIN_LOCKOUT", True)
AXES_FAILURE_LIMIT = int(os.environ.get("TOURNEY_LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=float(os.environ.get("TOURNEY_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_VERBOSE = False

# Behind a TLS-terminating proxy: cookies only over HTTPS, HSTS, redirect plain HTTP, and the
# proxy's header that tells a request came over HTTPS ("HTTP_X_FORWARDED_PROTO,https").
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", False)
SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_SECURE_HSTS_SECONDS", "0"))
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", False)
SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", False)
SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
# A process manager's local health probe speaks plain HTTP to the server itself.
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$"]
_proxy_header = os.environ.get("DJANGO_SECURE_PROXY_SSL_HEADER", "").strip()
SECURE_PROXY_SSL_HEADER = tuple(_proxy_header.split(",", 1)) if _proxy_header else None
