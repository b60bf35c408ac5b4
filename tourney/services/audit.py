"""The audit log: every write records who, when, what, before and after."""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone

from tourney.models import AuditEntry, Tournament


def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    summary: str,
    tournament: Tournament | None = None,
    target: Any = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Append one audit entry; call it inside the service's transaction."""
    user = actor if actor is not None and actor.is_authenticated else None
    return AuditEntry.objects.create(
        at=timezone.now(),
        actor=user,
        actor_name=user.get_username() if user else "system",
        action=action,
        tournament=tournament,
        target_type=type(target).__name__.lower() if target is not None else "",
        target_id=getattr(target, "pk", None),
        summary=summary[:300],
        before=before,
        after=after,
    )
