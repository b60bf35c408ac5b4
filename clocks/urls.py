from django.urls import path

from clocks.color_ups import views as views_colorup
from clocks.display import views
from clocks.structures import views as views_structures

app_name = "clocks"
T = "tournaments/<int:tournament_id>"
urlpatterns = [
    # before display/<token>/: "rotate" is not a token
    path("display/rotate/", views.display_rotate, name="display_rotate"),
    path("display/<str:token>/", views.display, name="display"),
    path(f"{T}/display-links/revoke/", views.revoke, name="display_links_revoke"),
    path("display/<str:token>/state.json", views.display_state_json, name="display_state"),
    path("display/<str:token>/seats/", views.display_seats, name="display_seats"),
    path("structures/", views_structures.structure_list, name="structures"),
    path("structures/new/", views_structures.structure_new, name="structure_new"),
    path("structures/import/", views_structures.structure_import, name="structure_import"),
    path("structures/<int:structure_id>/", views_structures.structure_edit, name="structure_edit"),
    path(
        "structures/<int:structure_id>/copy/",
        views_structures.structure_copy,
        name="structure_copy",
    ),
    path(
        "structures/<int:structure_id>/print/",
        views_structures.structure_print,
        name="structure_print",
    ),
    # Color-ups and chip races (clocks/color_ups/views.py).
    path(f"{T}/tables/<int:number>/color-up/", views_colorup.colorup_page, name="colorup"),
    path(
        f"{T}/tables/<int:number>/color-up/live/", views_colorup.colorup_live, name="colorup_live"
    ),
    path(
        f"{T}/tables/<int:number>/color-up/preview/",
        views_colorup.colorup_preview,
        name="colorup_preview",
    ),
    path(f"{T}/tables/<int:number>/color-up/run/", views_colorup.colorup_run, name="colorup_run"),
    path(
        f"{T}/tables/<int:number>/color-up/confirm/",
        views_colorup.colorup_confirm,
        name="colorup_confirm",
    ),
    path(
        f"{T}/tables/<int:number>/color-up/undo/", views_colorup.colorup_undo, name="colorup_undo"
    ),
    path(
        f"{T}/tables/<int:number>/color-up/found/",
        views_colorup.colorup_found,
        name="colorup_found",
    ),
    path(
        f"{T}/tables/<int:number>/color-up/banner/",
        views_colorup.dealer_colorup,
        name="colorup_banner",
    ),
    path(f"{T}/floor/color-up/", views_colorup.floor_colorup, name="floor_colorup"),
]
