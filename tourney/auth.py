"""API authentication: bearer tokens for scripts, the session (with CSRF) for pages."""

from datetime import timedelta

from django.utils import timezone
from django.utils.translation import gettext as _
from ninja.security import HttpBearer, SessionAuth
from ninja.utils import check_csrf

from tourney.errors import PermissionDenied
from tourney.models import ApiToken
from tourney.services.tokens import token_hash


class BearerTokenAuth(HttpBearer):
    def authenticate(self, request, token: str):
        found = (
            ApiToken.objects.select_related("user", "user__staff")
            .filter(token_hash=token_hash(token), revoked_at=None, user__is_active=True)
            .first()
        )
        if found is None:
            return None
        now = timezone.now()
        # Write last use at most once a minute so a busy script does not write on every call.
        if found.last_used_at is None or now - found.last_used_at > timedelta(minutes=1):
            ApiToken.objects.filter(pk=found.pk).update(last_used_at=now)
        request.user = found.user
        return found.user


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
