from django.urls import path

from clocks import views

app_name = "clocks"
urlpatterns = [
    path("display/<str:token>/", views.display, name="display"),
    path("display/<str:token>/seats/", views.display_seats, name="display_seats"),
]
