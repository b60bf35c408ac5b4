"""Room pages: the rooms, a room's tables and seat restrictions (director)."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _

from infra.web.form_fields import first_error
from tables.models import Room, SeatRestriction
from tables.rooms.forms import (
    RoomForm,
    RoomSettingsForm,
    SeatReleaseForm,
    SeatRestrictionForm,
)
from tables.rooms.usecases import (
    ROOM_SETTINGS,
    room_create,
    room_settings_update,
    seat_restriction_clear,
    seat_restriction_set,
)
from tourney.system.pages import role_required, run_service


@role_required("director")
def rooms(request):
    form = RoomForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        room = run_service(
            request,
            lambda: room_create(
                actor=request.user,
                name=form.cleaned_data["name"],
                tables=form.cleaned_data["tables"],
            ),
            _("Room created."),
        )
        if room:
            return redirect("tables:room", room.pk)
    return render(
        request,
        "tables/rooms.html",
        {"rooms": Room.objects.prefetch_related("tables"), "form": form},
    )


@role_required("director")
def room_detail(request, room_id: int):
    room = get_object_or_404(Room, pk=room_id)
    form = SeatRestrictionForm(request.POST or None)
    initial = {key: getattr(room, key) for key in ROOM_SETTINGS}
    settings_form = RoomSettingsForm(
        request.POST if "room_settings" in request.POST else None, initial=initial
    )
    if request.method == "POST" and "room_settings" in request.POST:
        if settings_form.is_valid():
            run_service(
                request,
                lambda: room_settings_update(
                    actor=request.user, room_id=room.pk, changes=settings_form.cleaned_data
                ),
                _("Room settings saved."),
            )
            return redirect("tables:room", room.pk)
        messages.error(request, first_error(settings_form))
        return redirect("tables:room", room.pk)
    if request.method == "POST":
        if "release" in request.POST:
            release = SeatReleaseForm(request.POST)
            if not release.is_valid():
                messages.error(request, first_error(release))
                return redirect("tables:room", room.pk)
            table, seat = release.cleaned_data["table"], release.cleaned_data["seat"]
            run_service(
                request,
                lambda: seat_restriction_clear(
                    actor=request.user, room_id=room.pk, table_number=table, seat=seat
                ),
                _("Seat released."),
            )
            return redirect("tables:room", room.pk)
        if form.is_valid():
            data = form.cleaned_data
            done = run_service(
                request,
                lambda: seat_restriction_set(
                    actor=request.user,
                    room_id=room.pk,
                    table_number=data["table"],
                    seat=data["seat"],
                    kind=data["kind"],
                    note=data["note"],
                ),
                _("Seat updated."),
            )
            if done:
                return redirect("tables:room", room.pk)
    restrictions = SeatRestriction.objects.filter(table__room=room).select_related("table")
    return render(
        request,
        "tables/room.html",
        {
            "room": room,
            "tables": room.tables.all(),
            "restrictions": restrictions,
            "form": form,
            "settings_form": settings_form,
        },
    )
