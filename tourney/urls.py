"""Root URLs: the API, staff pages, the desk, the console and the displays."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path

from tourney.api import api

urlpatterns = [
    path("api/v1/", api.urls),
    path("login/", auth_views.LoginView.as_view(), name="login"),
    path("logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("admin/", admin.site.urls),
    path("", include("tourney.urls_pages")),
    path("", include("tables.urls")),
    path("", include("clocks.urls")),
]
