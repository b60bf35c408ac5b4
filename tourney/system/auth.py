"""API authentication: bearer tokens for scripts, the session (with CSRF) for pages."""

import functools
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.db import DEFAULT_DB_ALIAS, connections
from django.utils import timezone
from django.utils.translation import gettext as _
from ninja.security import HttpBearer, SessionAuth
from ninja.utils import check_csrf

from infra.db.raw_rows import model_columns, model_from_row
from tables.dealer_links.selectors import dealer_actor, is_dealer_token
from tourney.core.errors import PermissionDenied
from tourney.models import ApiToken, StaffProfile
from tourney.staff.usecases import token_hash


@functools.cache
def _token_query() -> tuple[str, list[tuple[type, list]]]:
    """The token's SQL and, per model read, its columns' converters.

    Every API call starts here: plain SQL (the one indexed read that select_related would
    send) skips building the query on each call (about 1 ms of CPU, docs/benchmarks.md)."""
    models = (ApiToken, get_user_model(), StaffProfile)
    columns, parts = [], []
    for model, alias in zip(models, ("t", "u", "s"), strict=True):
        names, converters = model_columns(model, alias)
        columns += names
        parts.append((model, converters))
    token, user, staff = (m._meta.db_table for m in models)
    sql = (
        f"SELECT {', '.join(columns)} FROM {token} t JOIN {user} u ON u.id = t.user_id"
        f" LEFT JOIN {staff} s ON s.user_id = u.id"
        " WHERE t.token_hash = %s AND t.revoked_at IS NULL AND u.is_active"
    )
    return sql, parts


def _token_read(digest: str) -> tuple | None:
    """The row of the unrevoked token of hash `digest` and its active user, else None."""
    sql, _parts = _token_query()
    db = connections[DEFAULT_DB_ALIAS]  # not the proxy, which looks it up on every read
    with db.cursor() as cursor:
        cursor.execute(sql, [digest])
        return cursor.fetchone()


def _token_user(raw: str):
    """The unrevoked token `raw` and its active user (staff profile read along), else None.
    Read on every call, so a revocation, a role change or a deactivation counts at once."""
    _sql, parts = _token_query()
    db = connections[DEFAULT_DB_ALIAS]
    row = _token_read(token_hash(raw))
    if row is None:
        return None, None
    instances, at = [], 0
    for model, converters in parts:
        values = row[at : at + len(converters)]
        at += len(converters)
        present = values[0] is not None  # the staff profile's LEFT JOIN may find none
        instances.append(model_from_row(model, values, converters, db) if present else None)
    token, user, staff = instances
    # As select_related("user__staff") leaves them: neither is read again.
    type(user).staff.related.set_cached_value(user, staff)
    if staff is not None:
        StaffProfile.user.field.set_cached_value(staff, user)
    ApiToken.user.field.set_cached_value(token, user)
    return token, user


class BearerTokenAuth(HttpBearer):
    def authenticate(self, request, token: str):
        if is_dealer_token(token):
            # A table's dealer link: its own table's dealer actions only
            # (tables/dealer_links/selectors.py); revoked, it is refused with 403.
            return dealer_actor(token)
        found, user = _token_user(token)
        if found is None:
            return None
        now = timezone.now()
        # Write last use at most once a minute so a busy script does not write on every call.
        if found.last_used_at is None or now - found.last_used_at > timedelta(minutes=1):
            ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)
        request.user = user
        return user


class StaffSessionAuth(SessionAuth):
    """The session of a logged-in user, its writes CSRF-checked. Without a session there is
    nothing to forge: the request is unauthenticated (401), not a CSRF failure (403)."""

    def _get_key(self, request):
        if not request.user.is_authenticated:
            return None
        if not getattr(request, "_ninja_csrf_exempt", False) and check_csrf(request):
            raise PermissionDenied(
                "csrf_failed", _("The page's security token is missing or old: reload the page.")
            )
        return request.COOKIES.get(self.param_name)


api_auth = [BearerTokenAuth(), StaffSessionAuth()]
