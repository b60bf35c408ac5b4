from django.urls import path

from tables.cash import views as cash_views
from tables.cash_dealer import views as cash_dealer_views
from tables.cash_players import views as cash_player_views
from tables.cash_report import views as cash_report_views
from tables.floor import views as views_floor
from tables.hands import views as hands_views
from tables.rooms import views as rooms_views
from tables.seating import views

app_name = "tables"
T = "tournaments/<int:tournament_id>"
urlpatterns = [
    path("rooms/", rooms_views.rooms, name="rooms"),
    path("rooms/<int:room_id>/", rooms_views.room_detail, name="room"),
    # The cash floor (docs/rules.md §20): the floor's page, its actions, the lobby TV's page.
    path("rooms/<int:room_id>/cash/", cash_views.floor, name="cash_floor"),
    path("rooms/<int:room_id>/cash/version/", cash_views.version, name="cash_version"),
    path("rooms/<int:room_id>/cash/act/", cash_views.act, name="cash_act"),
    path("rooms/<int:room_id>/cash/open/", cash_views.open_table, name="cash_open"),
    path("rooms/<int:room_id>/cash/list/", cash_views.new_list, name="cash_list"),
    path("rooms/<int:room_id>/cash/rules/", cash_views.rules, name="cash_rules"),
    path("rooms/<int:room_id>/cash/report/", cash_report_views.report, name="cash_report"),
    path(
        "rooms/<int:room_id>/cash/tables/<int:cash_table_id>/",
        cash_dealer_views.dealer,
        name="cash_dealer",
    ),
    path(
        "rooms/<int:room_id>/cash/tables/<int:cash_table_id>/act/",
        cash_dealer_views.dealer_act,
        name="cash_dealer_act",
    ),
    path("board/<str:token>/cash/", cash_views.tv, name="cash_tv"),
    path("board/<str:token>/cash/version/", cash_views.tv_version, name="cash_tv_version"),
    path("cash/dealer/<str:token>/", cash_dealer_views.dealer_link, name="cash_dealer_link"),
    path(
        "cash/dealer/<str:token>/version/",
        cash_dealer_views.version_link,
        name="cash_version_link",
    ),
    path("cash/<str:token>/", cash_player_views.entrance, name="cash_entrance"),
    path("cash/me/<str:token>/", cash_player_views.me, name="cash_me"),
    path("cash/me/<str:token>/version/", cash_player_views.me_version, name="cash_me_version"),
    path(f"{T}/seating/", views.seating_chart, name="seating_chart"),
    path(f"{T}/tables/<int:number>/", views_floor.dealer, name="dealer"),
    path(f"{T}/tables/<int:number>/live/", views_floor.dealer_live, name="dealer_live"),
    path(f"{T}/tables/<int:number>/hand/", hands_views.dealer_hand, name="dealer_hand"),
    # The floor: console partials, forms and move slips (tables/floor/views.py).
    path(f"{T}/floor/todo/", views_floor.floor_todo, name="floor_todo"),
    path(f"{T}/floor/tables/", views_floor.floor_tables, name="floor_tables"),
    path(f"{T}/floor/hand-for-hand/", views_floor.floor_h4h, name="floor_h4h"),
    path(f"{T}/floor/hand-for-hand/set/", views_floor.hand_for_hand, name="floor_h4h_set"),
    path(f"{T}/floor/clock-calls/", views_floor.floor_clock_calls, name="floor_clock_calls"),
    path(
        f"{T}/floor/clock-calls/start/",
        views_floor.clock_call_start,
        name="floor_clock_call_start",
    ),
    path(f"{T}/floor/clock-calls/end/", views_floor.clock_call_end, name="floor_clock_call_end"),
    path(f"{T}/floor/bustout/", views_floor.bustout, name="floor_bustout"),
    path(f"{T}/floor/bustout/search/", views_floor.bustout_search, name="floor_bustout_search"),
    path(f"{T}/floor/actions/done/", views_floor.action_done, name="floor_action_done"),
    path(f"{T}/floor/actions/undo/", views_floor.action_undo, name="floor_action_undo"),
    path(f"{T}/floor/actions/<int:action_id>/slip/", views_floor.move_slip, name="move_slip"),
]
