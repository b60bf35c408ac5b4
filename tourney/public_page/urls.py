from django.urls import path

from tourney.public_page import views

app_name = "public_page"
urlpatterns = [path("public/<str:token>/", views.page, name="page")]
