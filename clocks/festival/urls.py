from django.urls import path

from clocks.festival import views

app_name = "festival"
urlpatterns = [
    path("festival/links/", views.links, name="links"),
    path("festival/overview/", views.overview, name="overview"),
    path("festival/overview/state.json", views.overview_state_json, name="overview_state"),
    path("festival/rooms/<int:room_id>/revoke/", views.revoke, name="revoke"),
    path("festival/board/<str:token>/", views.board, name="board"),
    path("festival/board/<str:token>/state.json", views.board_state_json, name="board_state"),
]
