"""Small helpers shared by page views: role checks and turning refusals into messages."""

from collections.abc import Callable
from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponseForbidden
from django.template.loader import render_to_string

from tourney.core import roles
from tourney.core.errors import TourneyError


def role_required(permission: str) -> Callable:
    """Login, then 403 unless the user's role grants `permission`."""

    def decorator(view):
        @login_required
        @wraps(view)
        def wrapper(request: HttpRequest, *args, **kwargs):
            if not roles.can(request.user, permission):
                return HttpResponseForbidden(
                    render_to_string("forbidden.html", {"permission": permission}, request)
                )
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


def run_service(request: HttpRequest, action: Callable, success: str | None = None):
    """Call a service; on refusal show its detail as an error message and return None."""
    try:
        result = action()
    except TourneyError as exc:
        messages.error(request, exc.detail)
        return None
    if success:
        messages.success(request, success)
    return result
