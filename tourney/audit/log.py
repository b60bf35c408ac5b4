"""The audit log: every write records who, when, what, before and after."""

from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils import timezone

from tourney.models import AuditEntry, Tournament


@dataclass(frozen=True)
class AuditText:
    """An untranslated summary and its parameters; translated when the log is read."""

    template: str
    params: dict[str, Any] = field(default_factory=dict)

    def render(self) -> str:
        return self.template % self.params if self.params else self.template


def audit_text(template: str, params: dict[str, Any] | None = None) -> AuditText:
    """Mark `template` for translation (makemessages knows this keyword) with its values."""
    return AuditText(template, dict(params or {}))


def audit_record(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    summary: AuditText,
    tournament: Tournament | None = None,
    target: Any = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """Append one audit entry; call it inside the service's transaction."""
    entry = audit_entry(
        actor=actor,
        action=action,
        summary=summary,
        tournament=tournament,
        target=target,
        before=before,
        after=after,
    )
    entry.save(force_insert=True)
    return entry


def audit_entry(
    *,
    actor: AbstractBaseUser | AnonymousUser | None,
    action: str,
    summary: AuditText,
    tournament: Tournament | None = None,
    target: Any = None,
    before: Any = None,
    after: Any = None,
) -> AuditEntry:
    """The audit entry `audit_record` saves, unsaved (for a `WriteBatch`)."""
    user = actor if actor is not None and actor.is_authenticated else None
    return AuditEntry(
        at=timezone.now(),
        actor=user,
        # A dealer link (tables/dealer_links) is named by its table.
        actor_name=user.get_username() if user else getattr(actor, "audit_name", "system"),
        action=action,
        tournament=tournament,
        target_type=type(target).__name__.lower() if target is not None else "",
        target_id=getattr(target, "pk", None),
        summary=summary.render()[:300],
        summary_template=summary.template,
        summary_params=summary.params,
        before=before,
        after=after,
    )
