from django.urls import path

from tables.dealer_links import views

app_name = "dealer_links"
urlpatterns = [
    path("dealer/<str:token>/", views.page, name="page"),
    path("dealer/<str:token>/state.json", views.state_json, name="state"),
    # The table's color-up, by the link: the color-up page's own views (clocks/color_ups/views.py).
    path("dealer/<str:token>/color-up/", views.colorup, name="colorup"),
    path("dealer/<str:token>/color-up/live/", views.colorup_live, name="colorup_live"),
    path("dealer/<str:token>/color-up/preview/", views.colorup_preview, name="colorup_preview"),
    path("dealer/<str:token>/color-up/run/", views.colorup_run, name="colorup_run"),
    path("dealer/<str:token>/color-up/confirm/", views.colorup_confirm, name="colorup_confirm"),
    path("dealer/<str:token>/color-up/found/", views.colorup_found, name="colorup_found"),
    path("tournaments/<int:tournament_id>/dealer-links/", views.cards, name="cards"),
    path(
        "tournaments/<int:tournament_id>/dealer-links/<int:number>/revoke/",
        views.revoke,
        name="revoke",
    ),
]
