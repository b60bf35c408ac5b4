from django.urls import path, re_path

from tourney.manual import views

app_name = "manual"
urlpatterns = [
    path("manual/", views.manual, name="home"),
    re_path(r"^manual/(?P<path>.+)$", views.manual, name="page"),
]
