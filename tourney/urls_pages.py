from django.urls import path

from tourney import (
    views,
    views_desk,
    views_players,
    views_staff,
    views_summary,
)
from tourney.cage import views as cage_views
from tourney.setup import views as setup_views

app_name = "tourney"
urlpatterns = [
    path("", views.home, name="home"),
    path("tournaments/new/", views.tournament_new, name="tournament_new"),
    path(
        "tournaments/<int:tournament_id>/settings/",
        setup_views.tournament_settings,
        name="tournament_settings",
    ),
    path("tournaments/<int:tournament_id>/desk/", views.desk, name="desk"),
    path("tournaments/<int:tournament_id>/desk/search/", views.desk_search, name="desk_search"),
    path("tournaments/<int:tournament_id>/desk/live/", views.desk_live, name="desk_live"),
    path(
        "tournaments/<int:tournament_id>/desk/register/", views.desk_register, name="desk_register"
    ),
    path(
        "tournaments/<int:tournament_id>/desk/new-player/",
        views.desk_new_player,
        name="desk_new_player",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/<int:entry_id>/unregister/",
        views_desk.desk_refund,
        name="desk_unregister",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/<int:entry_id>/seat-card/",
        views.seat_card,
        name="seat_card",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/<int:entry_id>/receipt/",
        cage_views.entry_receipt,
        name="receipt",
    ),
    path(
        "tournaments/<int:tournament_id>/receipts/<str:number>/",
        cage_views.receipt_by_number,
        name="receipt_number",
    ),
    path("tournaments/<int:tournament_id>/", views.console, name="console"),
    path(
        "tournaments/<int:tournament_id>/summary/",
        views_summary.console_summary,
        name="console_summary",
    ),
    path(
        "tournaments/<int:tournament_id>/activity/",
        views_summary.console_activity,
        name="console_activity",
    ),
    path("tournaments/<int:tournament_id>/draw/", views.draw, name="draw"),
    path("tournaments/<int:tournament_id>/start/", views.start, name="start"),
    path("audit/", views.audit_log, name="audit_log"),
    path("players/", views_players.players, name="players"),
    path("players/<int:player_id>/merge/", views_players.player_merge_page, name="player_merge"),
    path(
        "players/<int:player_id>/merge/do/",
        views_players.player_merge_do,
        name="player_merge_do",
    ),
    path("staff/", views_staff.staff, name="staff"),
]
