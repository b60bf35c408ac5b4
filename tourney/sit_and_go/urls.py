from django.urls import path

from tourney.sit_and_go import views

app_name = "sit_and_go"
urlpatterns = [
    path("sng/", views.series_list, name="list"),
    path("sng/<int:series_id>/", views.series_page, name="page"),
    path("sng/<int:series_id>/register/", views.series_register, name="register"),
]
