from django.urls import path

from tourney.bounties import views

app_name = "bounties"
T = "tournaments/<int:tournament_id>"
urlpatterns = [
    path(f"{T}/bounties/", views.page, name="page"),
    path(f"{T}/bounties/winners/", views.winners, name="winners"),
]
