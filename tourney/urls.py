"""Root URLs: the API, staff pages, the desk, the console and the displays."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.staticfiles.storage import staticfiles_storage
from django.http import JsonResponse
from django.urls import include, path, re_path
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.generic import RedirectView

from tables.cash_stream.views import room_events
from tourney.streams.views import tournament_events
from tourney.system.api import api


@csrf_exempt  # an unknown path is 404 whatever the method (a POST was refused 403 for CSRF)
def api_not_found(request, *args, **kwargs):
    return JsonResponse(
        {
            "code": "not_found",
            "detail": _("There is no API endpoint at %(path)s.") % {"path": request.path},
        },
        status=404,
    )


# A database or broker outage raised outside a view is a 503 that says so (api_contract).
handler500 = "infra.web.api_contract.server_error"

urlpatterns = [
    # Outside django-ninja: a long-lived async stream rather than a JSON response.
    path("api/v1/tournaments/<int:tournament_id>/events", tournament_events, name="events"),
    path("api/v1/rooms/<int:room_id>/events", room_events, name="room_events"),
    path("api/v1/", api.urls),
    re_path(r"^api/", api_not_found),
    # Browsers ask /favicon.ico of every page without a <link rel=icon> (and some of all pages).
    path(
        "favicon.ico",
        RedirectView.as_view(url=staticfiles_storage.url("favicon.ico"), permanent=True),
        name="favicon",
    ),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("tourney.system.urls")),
    path("", include("tourney.penalties.urls")),
    path("", include("tourney.payouts.urls")),
    path("", include("tables.urls")),
    path("", include("clocks.urls")),
    path("", include("tourney.player_page.urls")),
    path("", include("tourney.public_page.urls")),
    path("", include("tables.dealer_links.urls")),
    path("", include("clocks.festival.urls")),
    path("", include("tourney.backups.urls")),
    path("", include("tourney.bounties.urls")),
    path("", include("tourney.sit_and_go.urls")),
    path("", include("tourney.manual.urls")),
]
