from django.urls import path

from tourney.backups import views

app_name = "backups"
urlpatterns = [
    path("backups/", views.backups_page, name="page"),
    path("backups/now/", views.backup_now, name="now"),
    path("backups/players.csv", views.players_csv, name="players_csv"),
    path(
        "backups/tournaments/<int:tournament_id>/record.json",
        views.tournament_record_download,
        name="tournament_record",
    ),
    path("backups/<str:name>", views.backup_download, name="download"),
]
