from django.urls import path

from tourney.payouts import views

app_name = "payouts"
T = "tournaments/<int:tournament_id>"
urlpatterns = [
    path("payout-structures/", views.payout_structure_list, name="structures"),
    path("payout-structures/new/", views.payout_structure_new, name="structure_new"),
    path(
        "payout-structures/<int:structure_id>/", views.payout_structure_edit, name="structure_edit"
    ),
    path(
        "payout-structures/<int:structure_id>/copy/",
        views.payout_structure_copy,
        name="structure_copy",
    ),
    path(f"{T}/payouts/panel/", views.console_panel, name="console_panel"),
    path(f"{T}/results/", views.results_page, name="results"),
    path(f"{T}/results.csv", views.results_csv, name="results_csv"),
    path(f"{T}/results.json", views.results_json, name="results_json"),
    path(f"{T}/entries/<int:entry_id>/prize-receipt/", views.prize_receipt, name="prize_receipt"),
    path("seasons/", views.season_list, name="seasons"),
    path("seasons/<int:season_id>/", views.season_page, name="season"),
]
