"""API tokens for scripts: shown once, stored as SHA-256."""

import hashlib
import secrets

from django.db import transaction
from django.utils.translation import gettext as _

from tourney.models import ApiToken
from tourney.services.audit import audit_record, audit_text


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@transaction.atomic
def api_token_create(*, actor, user, name: str = "") -> tuple[str, ApiToken]:
    raw = "tny_" + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name[:80], token_hash=token_hash(raw), prefix=raw[4:12]
    )
    audit_record(
        actor=actor,
        action="token.create",
        summary=audit_text(
            "API token %(prefix)s… created for %(user)s",
            {"prefix": token.prefix, "user": user.get_username()},
        ),
        target=token,
        after={"user": user.get_username(), "prefix": token.prefix, "name": name},
    )
    return raw, token


@transaction.atomic
def api_token_revoke(*, actor, token_id: int) -> ApiToken:
    from django.utils import timezone

    from tourney.errors import NotFound

    token = ApiToken.objects.select_related("user").filter(pk=token_id, revoked_at=None).first()
    if token is None:
        raise NotFound(
            "token_not_found", _("There is no active token with id %(id)s.") % {"id": token_id}
        )
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    audit_record(
        actor=actor,
        action="token.revoke",
        summary=audit_text(
            "API token %(prefix)s… of %(user)s revoked",
            {"prefix": token.prefix, "user": token.user.get_username()},
        ),
        target=token,
        before={"prefix": token.prefix},
    )
    return token
