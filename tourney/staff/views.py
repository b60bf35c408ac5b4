"""Staff page: users and roles, API tokens."""

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from infra.web.form_fields import IdField
from tourney.models import ApiToken, StaffRole
from tourney.staff.usecases import api_token_create, api_token_revoke, staff_user_ensure
from tourney.system.pages import role_required, run_service


class StaffForm(forms.Form):
    username = forms.SlugField(label=gettext_lazy("Username"), max_length=150)
    password = forms.CharField(
        label=gettext_lazy("Password"), widget=forms.PasswordInput, min_length=8, required=False
    )
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=StaffRole.choices)


class TokenNewForm(forms.Form):
    new_token = IdField()


class TokenRevokeForm(forms.Form):
    revoke = IdField()


def _token_action(request):
    """A new token for a user or a token revoked; the new token's text, if any."""
    if "new_token" in request.POST:
        form = TokenNewForm(request.POST)
        user = (
            get_user_model().objects.filter(pk=form.cleaned_data["new_token"]).first()
            if form.is_valid()
            else None
        )
        if user is not None:
            return api_token_create(actor=request.user, user=user, name="staff page")[0]
        messages.error(request, _("There is no such user."))
    elif "revoke" in request.POST:
        form = TokenRevokeForm(request.POST)
        if form.is_valid():
            token_id = form.cleaned_data["revoke"]
            run_service(
                request,
                lambda: api_token_revoke(actor=request.user, token_id=token_id),
                _("Token revoked."),
            )
        else:
            messages.error(request, next(iter(form.errors.values()))[0])
    return None


@role_required("director")
def staff(request):
    form = StaffForm(request.POST if "save_user" in request.POST else None)
    new_token = None
    if request.method == "POST":
        if "save_user" in request.POST and form.is_valid():
            data = form.cleaned_data
            run_service(
                request,
                lambda: staff_user_ensure(
                    actor=request.user,
                    username=data["username"],
                    role=data["role"],
                    password=data["password"] or None,
                ),
                _("Saved %(user)s.") % {"user": data["username"]},
            )
            form = StaffForm()
        elif "save_user" not in request.POST:
            new_token = _token_action(request)
    users = get_user_model().objects.select_related("staff").order_by("username")
    tokens = ApiToken.objects.filter(revoked_at=None).select_related("user").order_by("-created_at")
    return render(
        request,
        "tourney/staff.html",
        {"users": users, "tokens": tokens, "form": form, "new_token": new_token},
    )
