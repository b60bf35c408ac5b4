from django.urls import path

from clocks import views, views_structures

app_name = "clocks"
urlpatterns = [
    # before display/<token>/: "rotate" is not a token
    path("display/rotate/", views.display_rotate, name="display_rotate"),
    path("display/<str:token>/", views.display, name="display"),
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
]
