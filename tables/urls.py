from django.urls import path

from tables import views

app_name = "tables"
urlpatterns = [
    path("rooms/", views.rooms, name="rooms"),
    path("rooms/<int:room_id>/", views.room_detail, name="room"),
    path("tournaments/<int:tournament_id>/seating/", views.seating_chart, name="seating_chart"),
    path("tournaments/<int:tournament_id>/tables/<int:number>/", views.dealer_table, name="dealer"),
    path(
        "tournaments/<int:tournament_id>/tables/<int:number>/hand/",
        views.dealer_hand,
        name="dealer_hand",
    ),
]
