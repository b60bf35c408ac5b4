from django.urls import path

from tourney.audit import views as audit_views
from tourney.cage import views as cage_views
from tourney.chip_counts.urls import urlpatterns as festival_urls
from tourney.console import views as console_views
from tourney.players import views as players_views
from tourney.registration import views as registration_views
from tourney.setup import views as setup_views
from tourney.staff import views as staff_views
from tourney.tournaments import views as tournaments_views

app_name = "tourney"
urlpatterns = [
    path("", tournaments_views.home, name="home"),
    path("tournaments/new/", tournaments_views.tournament_new, name="tournament_new"),
    path(
        "tournaments/<int:tournament_id>/settings/",
        setup_views.tournament_settings,
        name="tournament_settings",
    ),
    path("tournaments/<int:tournament_id>/desk/", registration_views.desk, name="desk"),
    path(
        "tournaments/<int:tournament_id>/desk/search/",
        registration_views.desk_search,
        name="desk_search",
    ),
    path(
        "tournaments/<int:tournament_id>/desk/live/", registration_views.desk_live, name="desk_live"
    ),
    path(
        "tournaments/<int:tournament_id>/desk/register/",
        registration_views.desk_register,
        name="desk_register",
    ),
    path(
        "tournaments/<int:tournament_id>/desk/membership/",
        registration_views.desk_membership,
        name="desk_membership",
    ),
    path(
        "tournaments/<int:tournament_id>/desk/new-player/",
        registration_views.desk_new_player,
        name="desk_new_player",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/<int:entry_id>/unregister/",
        registration_views.desk_refund,
        name="desk_unregister",
    ),
    path(
        "tournaments/<int:tournament_id>/entries/<int:entry_id>/seat-card/",
        registration_views.seat_card,
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
    path("tournaments/<int:tournament_id>/", console_views.console, name="console"),
    path(
        "tournaments/<int:tournament_id>/summary/",
        console_views.console_summary,
        name="console_summary",
    ),
    path(
        "tournaments/<int:tournament_id>/activity/",
        console_views.console_activity,
        name="console_activity",
    ),
    path("tournaments/<int:tournament_id>/draw/", console_views.draw, name="draw"),
    path("tournaments/<int:tournament_id>/start/", console_views.start, name="start"),
    path("audit/", audit_views.audit_log, name="audit_log"),
    path("players/", players_views.players, name="players"),
    path("players/<int:player_id>/merge/", players_views.player_merge_page, name="player_merge"),
    path(
        "players/<int:player_id>/merge/do/",
        players_views.player_merge_do,
        name="player_merge_do",
    ),
    path("staff/", staff_views.staff, name="staff"),
    *festival_urls,
]
