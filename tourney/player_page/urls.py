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
]
