"""Penalty pages (tourney/penalties/views.py): console panel and forms, the player page."""

from django.urls import path

from tourney.penalties import views

app_name = "penalties"
T = "tournaments/<int:tournament_id>/penalties"
urlpatterns = [
    path(f"{T}/panel/", views.panel, name="panel"),
    path(f"{T}/form/", views.form, name="form"),
    path(f"{T}/search/", views.search, name="search"),
    path(f"{T}/history/", views.history, name="history"),
    path(f"{T}/give/", views.give, name="give"),
    path(f"{T}/undo/", views.undo, name="undo"),
    path(f"{T}/end/", views.end, name="end"),
    path("players/<int:player_id>/", views.player, name="player"),
    path("players/<int:player_id>/bans/add/", views.player_ban_add, name="player_ban_add"),
    path("players/<int:player_id>/bans/lift/", views.player_ban_remove, name="player_ban_lift"),
]
