from django.urls import path

from tourney.player_page import views

app_name = "player_page"
urlpatterns = [
    # before p/<token>/: "sw.js" is not a token
    path("p/sw.js", views.service_worker, name="service_worker"),
    path("p/<str:token>/", views.page, name="page"),
    path("p/<str:token>/state.json", views.state_json, name="state"),
    path("p/<str:token>/manifest.webmanifest", views.manifest, name="manifest"),
    path("p/<str:token>/qr.svg", views.qr, name="qr"),
    path("tournaments/<int:tournament_id>/player-links/", views.links, name="links"),
    path(
        "tournaments/<int:tournament_id>/player-links/revoke/",
        views.revoke_all,
        name="revoke_all",
    ),
    path(
        "tournaments/<int:tournament_id>/player-links/revoke/undo/",
        views.revoke_all_undo,
        name="revoke_all_undo",
    ),
    path(
        "tournaments/<int:tournament_id>/player-links/<int:entry_id>/revoke/",
        views.revoke_one,
        name="revoke_one",
    ),
    path(
        "tournaments/<int:tournament_id>/player-links/<int:entry_id>/revoke/undo/",
        views.revoke_one_undo,
        name="revoke_one_undo",
    ),
]
