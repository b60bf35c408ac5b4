"""The seating chart and the dealer's table page."""

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from infra.web.form_fields import first_error
from tables.floor.selectors import floor_actions_list, seats_leaving
from tables.hands.usecases import hand_misdeal, hand_report
from tables.models import FloorAction, Room, SeatRestriction
from tables.rooms.forms import DealerHandForm, RoomForm, SeatReleaseForm, SeatRestrictionForm
from tables.rooms.usecases import room_create, seat_restriction_clear, seat_restriction_set
from tables.seating.selectors import seated_players_by_name, tournament_tables_layout
from tourney.models import Tournament
from tourney.system.pages import role_required, run_service


@role_required("read")
def seating_chart(request, tournament_id: int):
    tournament = get_object_or_404(Tournament, pk=tournament_id)
    tables = tournament_tables_layout(tournament)
    seats_leaving(tables, floor_actions_list(tournament, FloorAction.Status.PENDING))
    return render(
        request,
        "tables/seating_chart.html",
        {"tournament": tournament, "tables": tables, "by_name": seated_players_by_name(tables)},
    )


@role_required("floor")
@require_POST
def dealer_hand(request, tournament_id: int, number: int):
    form = DealerHandForm(request.POST)
    if not form.is_valid():
        messages.error(request, first_error(form))
        return redirect("tables:dealer", tournament_id, number)
    if form.cleaned_data["misdeal"]:
        run_service(
            request,
            lambda: hand_misdeal(
                actor=request.user, tournament_id=tournament_id, table_number=number
            ),
            _("Misdeal recorded: the button stays; report the redeal when it is finished."),
        )
        return redirect("tables:dealer", tournament_id, number)
    button_seat = form.cleaned_data["button_seat"]
    run_service(
        request,
        lambda: hand_report(
            actor=request.user,
            tournament_id=tournament_id,
            table_number=number,
            button_seat=button_seat,
        ),
        _("Hand recorded; the button has moved."),
    )
    return redirect("tables:dealer", tournament_id, number)


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
        {"room": room, "tables": room.tables.all(), "restrictions": restrictions, "form": form},
    )
