"""Staff accounts and their roles."""

import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tourney.audit.log import audit_record, audit_text
from tourney.core.errors import InvalidInput
from tourney.models import ApiToken, StaffProfile, StaffRole


@transaction.atomic(durable=True)
def staff_user_ensure(*, actor, username: str, role: str, password: str | None = None):
    """Create the user with `role` if missing, or set the role of an existing one."""
    if role not in StaffRole.values:
        raise InvalidInput(
            "invalid_role", _("The role must be one of %(r)s.") % {"r": ", ".join(StaffRole.values)}
        )
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username)
    if password is not None:
        user.set_password(password)
        user.save()
    elif created:
        user.set_unusable_password()
        user.save()
    StaffProfile.objects.update_or_create(user=user, defaults={"role": role})
    audit_record(
        actor=actor,
        action="staff.create" if created else "staff.update",
        summary=audit_text("Role of %(user)s set to %(role)s", {"user": username, "role": role}),
        target=user,
        after={"username": username, "role": role},
    )
    return user


def token_hash(raw: str) -> str:
    return hashlib.sha256(raw.encode()).hexdigest()


@transaction.atomic(durable=True)
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


@transaction.atomic(durable=True)
def api_token_revoke(*, actor, token_id: int) -> ApiToken:
    from django.utils import timezone

    from tourney.core.errors import NotFound

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
