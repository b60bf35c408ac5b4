"""Staff page: users and roles, API tokens."""

from django import forms
from django.contrib.auth import get_user_model
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tourney.models import ApiToken, StaffRole
from tourney.services.staff import staff_user_ensure
from tourney.services.tokens import api_token_create, api_token_revoke
from tourney.views_support import role_required, run_service


class StaffForm(forms.Form):
    username = forms.SlugField(label=gettext_lazy("Username"), max_length=150)
    password = forms.CharField(
        label=gettext_lazy("Password"), widget=forms.PasswordInput, min_length=8, required=False
    )
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=StaffRole.choices)


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
        elif "new_token" in request.POST:
            user = get_user_model().objects.filter(pk=request.POST["new_token"]).first()
            if user is not None:
                new_token, _token = api_token_create(
                    actor=request.user, user=user, name="staff page"
                )
        elif "revoke" in request.POST:
            run_service(
                request,
                lambda: api_token_revoke(actor=request.user, token_id=int(request.POST["revoke"])),
                _("Token revoked."),
            )
    users = get_user_model().objects.select_related("staff").order_by("username")
    tokens = ApiToken.objects.filter(revoked_at=None).select_related("user").order_by("-created_at")
    return render(
        request,
        "tourney/staff.html",
        {"users": users, "tokens": tokens, "form": form, "new_token": new_token},
    )
