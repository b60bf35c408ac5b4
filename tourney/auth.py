"""API authentication: bearer tokens for scripts, the session (with CSRF) for pages."""

from datetime import timedelta

from django.utils import timezone
from ninja.security import HttpBearer, SessionAuth

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


api_auth = [BearerTokenAuth(), SessionAuth()]
