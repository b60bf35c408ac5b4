"""The festival's pages: the room's lobby board (signed link, no login), the director's link
builder and the director's overview of every live tournament."""

from urllib.parse import urlencode

from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clocks.display.selectors import display_token
from clocks.festival.selectors import (
    board_room_id,
    board_state,
    board_token,
    live_tournaments,
    overview_state,
)
from clocks.festival.usecases import board_link_revoke
from infra.web.schema_types import LEVEL_MAX, whole_number
from tables.models import Room
from tourney.system.pages import role_required, run_service

EVERY_CHOICES = (10, 20, 30, 60)


def _room_for(token: str) -> Room:
    room_id = board_room_id(token)
    if room_id is None:
        raise Http404
    return Room.objects.get(pk=room_id)


@never_cache
def board(request, token: str):
    room = _room_for(token)
    config = {
        "state_url": reverse("festival:board_state", args=[token]),
        "strings": festival_strings(),
        "overview": False,
    }
    return render(
        request,
        "clocks/festival/board.html",
        {"room": room, "state": board_state(room.pk), "config": config},
    )


@never_cache
def board_state_json(request, token: str):
    return JsonResponse(board_state(_room_for(token).pk))


@role_required("director")
def links(request):
    """Rooms' board links and a rotation link built from the tournaments ticked."""
    tournaments = live_tournaments()
    chosen = [n for n in (whole_number(t, least=1) for t in request.GET.getlist("t")) if n]
    every = whole_number(request.GET.get("every"), LEVEL_MAX)
    every = every if every in EVERY_CHOICES else 20
    rotation = None
    picked = [t for t in tournaments if t.pk in chosen]
    if picked:
        query = urlencode(
            [("t", display_token(t.pk, t.display_link_generation)) for t in picked]
            + [("every", every)]
        )
        rotation = request.build_absolute_uri(reverse("clocks:display_rotate") + "?" + query)
    rooms = [
        {
            "room": room,
            "url": request.build_absolute_uri(reverse("festival:board", args=[board_token(room)])),
        }
        for room in Room.objects.order_by("name")
    ]
    return render(
        request,
        "clocks/festival/links.html",
        {
            "tournaments": tournaments,
            "chosen": chosen,
            "every": every,
            "every_choices": EVERY_CHOICES,
            "rotation": rotation,
            "rooms": rooms,
        },
    )


@role_required("director")
@require_POST
def revoke(request, room_id: int):
    room = get_object_or_404(Room, pk=room_id)
    run_service(
        request,
        lambda: board_link_revoke(actor=request.user, room_id=room.pk),
        _("Board link of %(room)s revoked: open the board again with the new link.")
        % {"room": room.name},
    )
    return redirect("festival:links")


@role_required("director")
@never_cache
def overview(request):
    config = {
        "state_url": reverse("festival:overview_state"),
        "strings": festival_strings(),
        "overview": True,
        "console_url": reverse("tourney:console", args=[0]),
    }
    return render(
        request, "clocks/festival/overview.html", {"state": overview_state(), "config": config}
    )


@role_required("director")
@never_cache
def overview_state_json(request):
    return JsonResponse(overview_state())


def festival_strings() -> dict[str, str]:
    return {
        "level": _("Level %(n)s"),
        "sng_filling": _("filling %(n)s/%(total)s"),
        "sng_running": _("running: %(n)s"),
        "sng_winners": _("last winners: %(names)s"),
        "break": _("Break"),
        "paused": _("Paused"),
        "pending": _("Starts soon"),
        "finished": _("Finished"),
        "players": _("Players"),
        "average": _("Average stack"),
        "pool": _("Prize pool"),
        "ante": _("Ante %(n)s"),
        "bb_ante": _("BB ante %(n)s"),
        "next": _("Next: %(what)s"),
        "pending_actions": _("Floor: %(n)s to do"),
        "nothing_pending": _("Floor: nothing to do"),
        "timers_late": _("Timers late by %(s)s s"),
        "hand_for_hand": _("Hand-for-hand"),
        "clock_calls": _("Clock called: %(n)s"),
        "console": _("Console"),
        "none": _("No tournament is running."),
    }
