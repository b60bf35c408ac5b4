"""Where SECRET_KEY comes from, and the refusal to serve on the public built-in one.

SECRET_KEY signs sessions, CSRF tokens and display links: with the key printed in this
repository anyone can forge a display link. Order: `DJANGO_SECRET_KEY`, else the key file
that `manage.py quickstart` writes once in the project folder (`.secret_key`, ignored by git;
`TOURNEY_SECRET_KEY_FILE` names another), else the built-in development key, which a server
refuses unless DJANGO_DEBUG is on.
Imported by the settings: no Django imports at module level.
"""

import os
import secrets
from pathlib import Path

BUILTIN_KEY = "tourney-insecure-default-key-change-me-in-production-0123456789"
KEY_FILE_NAME = ".secret_key"


def key_file(base_dir: Path) -> Path:
    return Path(os.environ.get("TOURNEY_SECRET_KEY_FILE") or base_dir / KEY_FILE_NAME)


def read_secret_key(base_dir: Path) -> str:
    """The configured key: the environment, else the key file, else the built-in one."""
    key = os.environ.get("DJANGO_SECRET_KEY", "").strip()
    if key:
        return key
    path = key_file(base_dir)
    if path.exists():
        key = path.read_text(encoding="ascii").strip()
        if key:
            return key
    return BUILTIN_KEY


def ensure_key_file(base_dir: Path) -> Path:
    """Create the key file with a random key unless it exists (owner-only permissions)."""
    path = key_file(base_dir)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path
    with os.fdopen(descriptor, "w", encoding="ascii") as handle:
        handle.write(secrets.token_urlsafe(50) + "\n")
    return path


def refusal(secret_key: str, debug: bool) -> str | None:
    """Why a server must not start with these settings, or None."""
    if debug or secret_key != BUILTIN_KEY:
        return None
    return (
        "Tourney refuses to serve with the public built-in SECRET_KEY while DJANGO_DEBUG is "
        "off: anyone could forge sessions and display links. Set DJANGO_SECRET_KEY (for "
        "example python -c 'import secrets; print(secrets.token_urlsafe(50))'), or run "
        "'python manage.py quickstart', which keeps a random key in .secret_key."
    )


def require_safe_key() -> None:
    """Raise ImproperlyConfigured when the server would run on the public key (asgi/wsgi)."""
    from django.conf import settings
    from django.core.exceptions import ImproperlyConfigured

    reason = refusal(settings.SECRET_KEY, settings.DEBUG)
    if reason is not None:
        raise ImproperlyConfigured(reason)
