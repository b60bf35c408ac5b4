"""Staff accounts and their roles."""

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.translation import gettext as _

from tourney.errors import InvalidInput
from tourney.models import StaffProfile, StaffRole
from tourney.services.audit import audit_record, audit_text


@transaction.atomic
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
