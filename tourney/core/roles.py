"""Staff roles and what each may do."""

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.utils.translation import gettext as _

from tourney.core.errors import PermissionDenied
from tourney.models import StaffRole

# Director may do everything; others only what their job needs (README, "The API": roles).
PERMISSIONS: dict[str, frozenset[str]] = {
    StaffRole.DIRECTOR: frozenset({"read", "desk", "floor", "director"}),
    StaffRole.FLOOR: frozenset({"read", "floor"}),
    StaffRole.DESK: frozenset({"read", "desk"}),
    StaffRole.DISPLAY: frozenset({"read"}),
}


def user_role(user: AbstractBaseUser | AnonymousUser | None) -> str | None:
    if user is None or not user.is_authenticated:
        return None
    if getattr(user, "is_superuser", False):
        return StaffRole.DIRECTOR
    staff = getattr(user, "staff", None)
    try:
        return staff.role if staff is not None else None
    except Exception:  # RelatedObjectDoesNotExist
        return None


def can(user, permission: str) -> bool:
    role = user_role(user)
    return role is not None and permission in PERMISSIONS.get(role, frozenset())


def require(user, permission: str) -> None:
    """Raise 403 `forbidden` unless the user's role grants `permission`. A dealer link
    (tables/dealer_links) has no role: only its own table's dealer actions let it through."""
    if getattr(user, "audit_name", None) and not can(user, permission):
        raise PermissionDenied(
            "dealer_link_not_allowed",
            _("A dealer link can only do its own table's dealer actions."),
        )
    if not can(user, permission):
        raise PermissionDenied(
            "forbidden", _("Your role does not allow this (needs %(p)s).") % {"p": permission}
        )
