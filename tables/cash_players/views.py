"""A cash player's pages (docs/rules.md §20.2), no login: the room's entrance page (its link or
QR by the door: the games and lists, and a box for the code the desk gave), and his own page
(his places, the call for him with its minutes, the lists to join or leave), which reloads
itself when the room's cash events move."""

from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache

from clocks.festival.selectors import board_room_id
from infra.web.schema_types import whole_number
from tables.cash.selectors import cash_floor, cash_version
from tables.cash_players.selectors import pass_of_code, pass_of_token, pass_token, player_state
from tables.cash_players.usecases import cash_self_join, cash_self_leave
from tables.models import Room
from tourney.system.pages import run_service


@never_cache
def entrance(request, token: str):
    room_id = board_room_id(token)
    if room_id is None:
        raise Http404
    room = Room.objects.get(pk=room_id)
    if request.method == "POST":
        found = pass_of_code(room.pk, request.POST.get("code", ""))
        if found is not None:
            return redirect(reverse("tables:cash_me", args=[pass_token(found)]))
        messages.error(request, _("No player has this code here: ask the desk."))
    state = cash_floor(room, timezone.now())
    return render(request, "tables/cash/entrance.html", {"room": room, "state": state})


def _pass(token: str):
    found = pass_of_token(token)
    if found is None:
        raise Http404
    return found


@never_cache
def me(request, token: str):
    cash_pass = _pass(token)
    if request.method == "POST":
        list_id = whole_number(request.POST.get("cash_list"), least=1)
        action = request.POST.get("action")
        if list_id and action == "join":
            run_service(
                request, lambda: cash_self_join(cash_pass_id=cash_pass.pk, cash_list_id=list_id)
            )
        elif list_id and action == "leave":
            run_service(
                request, lambda: cash_self_leave(cash_pass_id=cash_pass.pk, cash_list_id=list_id)
            )
        return redirect(reverse("tables:cash_me", args=[token]))
    return render(
        request,
        "tables/cash/me.html",
        {
            "cash_pass": cash_pass,
            "player": cash_pass.player,
            "room": cash_pass.room,
            "state": player_state(cash_pass),
            "config": {
                "version_url": reverse("tables:cash_me_version", args=[token]),
                "version": cash_version(cash_pass.room_id),
            },
        },
    )


@never_cache
def me_version(request, token: str):
    return JsonResponse({"version": cash_version(_pass(token).room_id)})
