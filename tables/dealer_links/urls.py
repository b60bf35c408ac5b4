from django.urls import path

from tables.dealer_links import views

app_name = "dealer_links"
urlpatterns = [
    path("dealer/<str:token>/", views.page, name="page"),
    path("dealer/<str:token>/state.json", views.state_json, name="state"),
    path("tournaments/<int:tournament_id>/dealer-links/", views.cards, name="cards"),
    path(
        "tournaments/<int:tournament_id>/dealer-links/<int:number>/revoke/",
        views.revoke,
        name="revoke",
    ),
]
