from tourney.roles import user_role


def staff_role(request) -> dict:
    user = getattr(request, "user", None)
    role = user_role(user)
    return {"staff_role": role or ""}
