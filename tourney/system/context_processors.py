from tourney.core.roles import user_role
from tourney.models import StaffRole


def staff_role(request) -> dict:
    role = user_role(getattr(request, "user", None))
    label = StaffRole(role).label if role else ""
    return {"staff_role": role or "", "staff_role_label": label}
