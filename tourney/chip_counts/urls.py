"""The festival's pages (in the `tourney:` namespace: tourney/system/urls.py)."""

from django.urls import path

from tourney.chip_counts import views

BASE = "tournaments/<int:tournament_id>/"
urlpatterns = [
    path(f"{BASE}tables/<int:number>/chip-counts/", views.table_counts, name="table_counts"),
    path("dealer/<str:token>/chip-counts/", views.dealer_counts, name="dealer_counts"),
    path(f"{BASE}chip-counts/", views.count_list, name="count_list"),
    path(f"{BASE}bag-slips/", views.bag_slips, name="bag_slips"),
    path(f"{BASE}festival/", views.festival_panel, name="festival_panel"),
    path(f"{BASE}end-of-day/", views.day_end, name="day_end"),
    path(f"{BASE}day2/draw/", views.day2, name="day2_draw"),
    path(f"{BASE}flights/add/", views.flight_add, name="flight_add"),
    path(f"{BASE}public-link/revoke/", views.public_revoke, name="public_revoke"),
]
